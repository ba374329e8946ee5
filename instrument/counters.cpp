// What is common to both sources of counts: the choice between larm's Valgrind tool and PAPI,
// the tool's side, and converting counter deltas into FLOPs, bytes and memory instructions.
#include "instrument/counters.h"

#include "instrument/count_tool/count_protocol.h"

namespace larm::instrument {
namespace {

// The tool's counts, in the order of count_protocol.h.
struct ToolCount {
  const char* name;
  CounterEvent::Kind kind;
};
constexpr ToolCount kToolCounts[LARM_COUNT_N] = {
    {"instructions", CounterEvent::Kind::instructions},
    {"bytes_loaded", CounterEvent::Kind::bytes_loaded},
    {"bytes_stored", CounterEvent::Kind::bytes_stored},
    {"loads", CounterEvent::Kind::load_instructions},
    {"stores", CounterEvent::Kind::store_instructions},
    {"flops_dp_scalar", CounterEvent::Kind::flops},
    {"flops_dp_128", CounterEvent::Kind::flops},
    {"flops_dp_256", CounterEvent::Kind::flops},
    {"flops_dp_512", CounterEvent::Kind::flops},
    {"flops_sp_scalar", CounterEvent::Kind::flops},
    {"flops_sp_128", CounterEvent::Kind::flops},
    {"flops_sp_256", CounterEvent::Kind::flops},
    {"flops_sp_512", CounterEvent::Kind::flops},
    {"fma_flops", CounterEvent::Kind::detail},
    {"bytes_l2_read", CounterEvent::Kind::detail},
    {"bytes_l2_written", CounterEvent::Kind::detail},
    {"bytes_l3_read", CounterEvent::Kind::detail},
    {"bytes_l3_written", CounterEvent::Kind::detail},
    {"bytes_memory_read", CounterEvent::Kind::detail},
    {"bytes_memory_written", CounterEvent::Kind::detail},
    {"cache_accesses", CounterEvent::Kind::detail},
    {"add_flops", CounterEvent::Kind::detail},
    {"mul_flops", CounterEvent::Kind::detail},
    {"div_flops", CounterEvent::Kind::detail},
    {"bytes_l2_allocate", CounterEvent::Kind::detail},
    {"bytes_l3_allocate", CounterEvent::Kind::detail},
    {"bytes_memory_allocate", CounterEvent::Kind::detail},
};
static_assert(LARM_COUNT_N <= kMaxCounterEvents);
constexpr const char* kToolPrefix = "larmcount:";

// The calling thread's counts from the tool; the answer says which protocol it speaks (0 when
// the program does not run under it).
unsigned long read_tool(unsigned long long* into) {
  return VALGRIND_DO_CLIENT_REQUEST_EXPR(0, LARM_COUNT_REQUEST_READ, into, LARM_COUNT_N, 0, 0, 0);
}

}  // namespace

std::string Counters::start() {
  active_ = false;
  count_tool_ = false;
  events_.clear();
  refused_.clear();
  unsigned long long probe[LARM_COUNT_N] = {};
  const unsigned long answer = read_tool(probe);
  if (answer != 0) {
    if (answer >> 16 != LARM_COUNT_PROTOCOL_VERSION || (answer & 0xffff) != LARM_COUNT_N) {
      return "larm's Valgrind tool speaks another protocol (" + std::to_string(answer >> 16) +
             ", this liblarm " + std::to_string(LARM_COUNT_PROTOCOL_VERSION) +
             "): run the larm count of the same version";
    }
    for (const ToolCount& count : kToolCounts) {
      events_.push_back({std::string(kToolPrefix) + count.name, count.kind,
                         count.kind == CounterEvent::Kind::flops ? 1.0 : 0.0});
    }
    active_ = true;
    count_tool_ = true;
    return {};
  }
  return start_papi();
}

bool Counters::start_thread(int& event_set) const {
  if (!active_) return false;
  if (count_tool_) return true;  // the tool keeps every thread's counts itself
  return start_thread_papi(event_set);
}

bool Counters::read(int event_set, CounterValues& values) const {
  if (!count_tool_) return read_papi(event_set, values);
  // The tool writes its counts into the values themselves (a signed and an unsigned integer of
  // one size may alias): no copy after the read, whose stores the tool would count in the region
  // that begins.
  static_assert(sizeof(unsigned long long) == sizeof(long long));
  return read_tool(reinterpret_cast<unsigned long long*>(values.data())) != 0;
}

bool Counters::measures_flops() const {
  for (const auto& event : events_) {
    if (event.kind == CounterEvent::Kind::flops) return true;
  }
  return false;
}

CountedWork counted_work(const std::vector<CounterEvent>& events, const CounterValues& deltas) {
  CountedWork work;
  for (std::size_t i = 0; i < events.size() && i < deltas.size(); ++i) {
    const auto count = static_cast<double>(deltas[i]);
    const CounterEvent& event = events[i];
    if (event.name.rfind(kToolPrefix, 0) == 0) {
      work.by_event.emplace_back(event.name.substr(std::char_traits<char>::length(kToolPrefix)),
                                 count);
    }
    switch (event.kind) {
      case CounterEvent::Kind::flops:
        work.flops += count * event.flops_per_count;
        break;
      case CounterEvent::Kind::load_instructions:
        work.load_instructions += count;
        break;
      case CounterEvent::Kind::store_instructions:
        work.store_instructions += count;
        break;
      case CounterEvent::Kind::bytes_loaded:
        work.bytes_loaded += count;
        break;
      case CounterEvent::Kind::bytes_stored:
        work.bytes_stored += count;
        break;
      case CounterEvent::Kind::instructions:
        work.instructions += count;
        break;
      case CounterEvent::Kind::detail:
        break;
    }
  }
  return work;
}

}  // namespace larm::instrument
