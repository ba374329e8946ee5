#include "instrument/monitor/region_source.h"

#include <array>

namespace larm::monitor {
namespace {

constexpr std::array<const char*, 4> kFields = {"calls", "seconds", "flops", "bytes"};

}  // namespace

std::string RegionSource::lacks(const std::string& event, hwloc_obj_type_t type) const {
  const auto colon = event.find(':');
  const std::string field = event.substr(0, colon);
  bool known = false;
  for (const char* f : kFields) known = known || field == f;
  if (!known || colon == std::string::npos || colon + 1 == event.size()) {
    return "its events are calls:NAME, seconds:NAME, flops:NAME and bytes:NAME of a region NAME";
  }
  if (type != HWLOC_OBJ_PU) return "it counts on PUs (join them for the levels above)";
  if (!provider_) {
    return "region events are read inside the program, by the monitor API of larm/monitor.h "
           "(larm_monitor_init)";
  }
  return "";
}

void RegionSource::refresh() {
  before_ = std::move(now_);
  now_.clear();
  for (const RegionProgress& p : provider_()) {
    now_[{p.cpu, "calls:" + p.region}] += p.calls;
    now_[{p.cpu, "seconds:" + p.region}] += p.seconds;
    now_[{p.cpu, "flops:" + p.region}] += p.flops;
    now_[{p.cpu, "bytes:" + p.region}] += p.bytes;
  }
}

double RegionSource::read(const std::string& event, hwloc_obj_t object) {
  const std::pair<int, std::string> key{static_cast<int>(object->os_index), event};
  const auto now = now_.find(key);
  if (now == now_.end()) return 0;
  const auto before = before_.find(key);
  const double increase = now->second - (before == before_.end() ? 0 : before->second);
  // A region reset (larm_region_reset) lowers the totals: what follows counts from there.
  return increase < 0 ? now->second : increase;
}

}  // namespace larm::monitor
