// Counters through PAPI 7. Events, in order of preference (each one PAPI refuses is dropped and
// listed in regions.json under counters.events_refused):
//  - Intel (Broadwell and later): FP_ARITH_INST_RETIRED scalar/128/256/512-bit, double and
//    single, weighted by the lanes they hold (an FMA counts twice, as these events count it);
//    MEM_INST_RETIRED:ALL_LOADS / ALL_STORES for memory instructions.
//  - AMD Zen (family 17h and later): RETIRED_SSE_AVX_FLOPS:ANY (FLOPs, FMA = 2; without the
//    merge event a counter sees at most 15 FLOPs per cycle, so wide AVX-512 FMA code is
//    under-counted on Zen 4 — AMD PPR for family 19h); LS_DISPATCH loads and stores.
//  - anything else, or when those are refused: the presets PAPI_DP_OPS and PAPI_SP_OPS.
// Memory instructions have no width in any of these events: bytes are only derived from them
// when the user states the width (LARM_ACCESS_BYTES), never guessed (METHOD §9).
#include <papi.h>
#include <pthread.h>

#include <string>

#include "instrument/counters.h"
#include "platform/cpu_info.h"

namespace larm::instrument {
namespace {

std::vector<CounterEvent> preferred_events(const platform::CpuInfo& cpu) {
  using Kind = CounterEvent::Kind;
  std::vector<CounterEvent> events;
  if (cpu.vendor_id == platform::CpuVendor::intel) {
    const char* prefix = "FP_ARITH_INST_RETIRED:";
    const std::pair<const char*, double> fp[] = {
        {"SCALAR_DOUBLE", 1},      {"128B_PACKED_DOUBLE", 2}, {"256B_PACKED_DOUBLE", 4},
        {"512B_PACKED_DOUBLE", 8}, {"SCALAR_SINGLE", 1},      {"128B_PACKED_SINGLE", 4},
        {"256B_PACKED_SINGLE", 8}, {"512B_PACKED_SINGLE", 16}};
    for (const auto& [umask, lanes] : fp) {
      events.push_back({std::string(prefix) + umask, Kind::flops, lanes});
    }
    events.push_back({"MEM_INST_RETIRED:ALL_LOADS", Kind::load_instructions, 0});
    events.push_back({"MEM_INST_RETIRED:ALL_STORES", Kind::store_instructions, 0});
  } else if (cpu.vendor_id == platform::CpuVendor::amd && cpu.family >= 0x17) {
    events.push_back({"RETIRED_SSE_AVX_FLOPS:ANY", Kind::flops, 1});
    events.push_back({"LS_DISPATCH:LD_DISPATCH", Kind::load_instructions, 0});
    events.push_back({"LS_DISPATCH:STORE_DISPATCH", Kind::store_instructions, 0});
  }
  return events;
}

unsigned long thread_id() {
  return static_cast<unsigned long>(pthread_self());
}

}  // namespace

const bool Counters::kSupported = true;

std::string Counters::start_papi() {
  active_ = false;
  events_.clear();
  refused_.clear();
  if (PAPI_is_initialized() == PAPI_NOT_INITED) {
    const int version = PAPI_library_init(PAPI_VER_CURRENT);
    if (version != PAPI_VER_CURRENT)
      return "PAPI_library_init failed (" + std::to_string(version) + ")";
    if (PAPI_thread_init(thread_id) != PAPI_OK) return "PAPI_thread_init failed";
  }
  const PAPI_component_info_t* component = PAPI_get_component_info(0);
  if (component != nullptr && component->disabled != 0) {
    return std::string("PAPI's CPU component is disabled: ") + component->disabled_reason;
  }
  if (PAPI_num_cmp_hwctrs(0) <= 0) {
    return "PAPI sees 0 hardware counters (virtual machine without a virtual PMU, or "
           "perf_event_paranoid too high)";
  }
  int probe = PAPI_NULL;
  if (PAPI_create_eventset(&probe) != PAPI_OK) return "PAPI_create_eventset failed";
  auto try_add = [&](const CounterEvent& event) {
    if (static_cast<int>(events_.size()) >= kMaxCounterEvents) return;
    if (PAPI_add_named_event(probe, event.name.c_str()) == PAPI_OK) {
      events_.push_back(event);
    } else {
      refused_.push_back(event.name);
    }
  };
  for (const auto& event : preferred_events(platform::read_cpu_info())) try_add(event);
  if (!measures_flops()) {
    try_add({"PAPI_DP_OPS", CounterEvent::Kind::flops, 1});
    try_add({"PAPI_SP_OPS", CounterEvent::Kind::flops, 1});
  }
  const int started = PAPI_start(probe);
  long long discard[kMaxCounterEvents] = {};
  if (started == PAPI_OK) PAPI_stop(probe, discard);
  PAPI_cleanup_eventset(probe);
  PAPI_destroy_eventset(&probe);
  if (started != PAPI_OK) {
    // Together or not at all: an event that cannot start alone says the machine counts nothing
    // (a guest whose PMU PAPI lists but the kernel does not give), not that the set is too big.
    bool one_starts = false;
    for (const CounterEvent& event : events_) {
      int alone = PAPI_NULL;
      if (PAPI_create_eventset(&alone) != PAPI_OK) break;
      if (PAPI_add_named_event(alone, event.name.c_str()) == PAPI_OK &&
          PAPI_start(alone) == PAPI_OK) {
        PAPI_stop(alone, discard);
        one_starts = true;
      }
      PAPI_cleanup_eventset(alone);
      PAPI_destroy_eventset(&alone);
      if (one_starts) break;
    }
    events_.clear();
    if (!one_starts) {
      return std::string("PAPI lists counters but cannot start one (") + PAPI_strerror(started) +
             "): no hardware counter is usable here";
    }
    return "PAPI cannot count the chosen events together";
  }
  if (events_.empty()) return "PAPI accepts none of the FLOP or memory events larm knows";
  active_ = true;
  return {};
}

bool Counters::start_thread_papi(int& event_set) const {
  if (!active_) return false;
  PAPI_register_thread();
  event_set = PAPI_NULL;
  if (PAPI_create_eventset(&event_set) != PAPI_OK) return false;
  for (const auto& event : events_) {
    if (PAPI_add_named_event(event_set, event.name.c_str()) != PAPI_OK) return false;
  }
  return PAPI_start(event_set) == PAPI_OK;
}

bool Counters::read_papi(int event_set, CounterValues& values) const {
  return PAPI_read(event_set, values.data()) == PAPI_OK;
}

}  // namespace larm::instrument
