// What is common to both sources of counts: the choice between larm's Valgrind tool and PAPI,
// the tool's side, and converting counter deltas into FLOPs, bytes and memory instructions.
#include "instrument/counters.h"

#include <cstdlib>

#include "instrument/compiler_plugin/compiler_counts.h"
#include "instrument/count_tool/count_protocol.h"

// What the compiler plugins emit in every instrumented object (compiler_counts.h). The mark is
// only declared, weak: its address is null in a program built without a plugin. The counts are
// defined here too, weak, so that liblarm links alone; in a program with instrumented objects
// their definition (the first the linker or the loader meets, the program's) is the one every
// object uses: liblarm.so exports the name so that the program's copy takes its place.
extern "C" {
extern const unsigned int __larm_compiler_counts __attribute__((weak));
// The sampled cache model's level counts of the calling thread, from the plugins' runtime when it
// is preloaded (compiler_counts.h).
const unsigned long long* __larm_cache_counts() __attribute__((weak));
__attribute__((
    weak, tls_model("initial-exec"))) thread_local unsigned long long __larm_counts[LARM_COUNT_N];
}

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

// The tool's count names, as counted_work and the records carry them.
std::vector<CounterEvent> exact_events() {
  std::vector<CounterEvent> events;
  for (const ToolCount& count : kToolCounts) {
    events.push_back({std::string(kToolPrefix) + count.name, count.kind,
                      count.kind == CounterEvent::Kind::flops ? 1.0 : 0.0});
  }
  return events;
}

std::string start_compiler(bool& started) {
  started = false;
  if (&__larm_compiler_counts == nullptr) return {};
  const unsigned int mark = __larm_compiler_counts;
  if (mark != LARM_COMPILER_MARK_VALUE) {
    return "this program was built by another version of larm's compiler plugin (" +
           std::to_string(mark >> 16) + " with " + std::to_string(mark & 0xffff) +
           " counts; this liblarm reads version " + std::to_string(LARM_COMPILER_PLUGIN_VERSION) +
           "): rebuild it with the larm-cc of this larm";
  }
  started = true;
  return {};
}

}  // namespace

std::string Counters::start() {
  active_ = false;
  source_ = Source::none;
  sampled_cache_ = false;
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
    events_ = exact_events();
    active_ = true;
    source_ = Source::valgrind_tool;
    return {};
  }
  bool compiled = false;
  if (std::string refused = start_compiler(compiled); !refused.empty()) return refused;
  if (compiled) {
    // The plugin counts no instructions; the bytes per level come only from the sampled cache
    // model of its runtime, in larm count's counting run (which sets both variables).
    sampled_cache_ =
        std::getenv("LARM_CACHE_MODEL") != nullptr && std::getenv("LARM_CACHE_SAMPLE") != nullptr;
    const std::vector<CounterEvent> all = exact_events();
    compiler_index_.clear();
    for (std::size_t i = 0; i < all.size(); ++i) {
      const bool counted = i == LARM_COUNT_FMA_FLOPS || i == LARM_COUNT_ADD_FLOPS ||
                           i == LARM_COUNT_MUL_FLOPS || i == LARM_COUNT_DIV_FLOPS ||
                           all[i].kind != CounterEvent::Kind::detail || sampled_cache_;
      if (!counted || i == LARM_COUNT_INSTRUCTIONS) continue;
      events_.push_back(all[i]);
      compiler_index_.push_back(static_cast<int>(i));
    }
    active_ = true;
    source_ = Source::compiler;
    return {};
  }
  std::string reason = start_papi();
  if (active_) source_ = Source::papi;
  return reason;
}

bool Counters::start_thread(int& event_set) const {
  if (!active_) return false;
  if (exact()) return true;  // the tool and the program's own code keep every thread's counts
  return start_thread_papi(event_set);
}

bool Counters::read(int event_set, CounterValues& values) const {
  if (compiler()) {
    // The events are the layout's counts less those the plugin has not (compiler_index_); the
    // calling thread's counts are its own __larm_counts, and the sampled cache model's its level
    // counts (counts the plugin's code never adds to).
    const unsigned long long* levels =
        sampled_cache_ && __larm_cache_counts != nullptr ? __larm_cache_counts() : nullptr;
    for (std::size_t i = 0; i < events_.size(); ++i) {
      const int index = compiler_index_[i];
      values[i] = static_cast<long long>(__larm_counts[index] + (levels ? levels[index] : 0));
    }
    return true;
  }
  if (!count_tool()) return read_papi(event_set, values);
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
