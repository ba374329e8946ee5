// The "region" event source: what the program's own regions (larm/region.h) recorded, per PU, so
// that a region's calls, time and declared work aggregate along the tree like any event. It lives
// in the program (the monitor API of larm/monitor.h, whose liblarm hands it the region records);
// from outside (larm monitor) it has no regions and says so.
//   PU  calls:NAME    calls of region NAME completed in the interval
//       seconds:NAME  time inside NAME completed in the interval (a call counts when it ends)
//       flops:NAME    FLOPs declared for NAME in the interval (larm_region_add)
//       bytes:NAME    bytes declared for NAME in the interval
// A thread's records count on the CPU where the thread first began the region (a bound thread's
// CPU; the region records of a thread that migrates stay where it started).
#pragma once

#include <functional>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "instrument/monitor/monitor_set.h"

namespace larm::monitor {

// One region on one thread, as recorded so far.
struct RegionProgress {
  std::string region;
  int cpu = -1;  // OS index of the PU of its first begin
  long thread = 0;
  double calls = 0, seconds = 0, flops = 0, bytes = 0;
};

class RegionSource final : public EventSource {
 public:
  using Provider = std::function<std::vector<RegionProgress>()>;
  // provider: the records so far; empty: the source is outside the program, with no regions.
  explicit RegionSource(Provider provider = {}) : provider_(std::move(provider)) {}

  std::string lacks(const std::string& event, hwloc_obj_type_t type) const override;
  void refresh() override;
  double read(const std::string& event, hwloc_obj_t object) override;

 private:
  // Per (cpu, "field:region"): the totals at the latest refresh and at the one before.
  using Totals = std::map<std::pair<int, std::string>, double>;
  Provider provider_;
  Totals now_, before_;
};

}  // namespace larm::monitor
