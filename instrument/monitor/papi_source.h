// The "papi" event source: hardware counters per PU. Where PAPI sees no counters (a virtual
// machine without a virtual PMU, perf_event_paranoid too high) every event is absent with PAPI's
// reason; where it sees some, per-PU counting is not built yet, and says so.
#pragma once

#include <string>

#include "instrument/monitor/monitor_set.h"

namespace larm::monitor {

// Why PAPI counts nothing here ("PAPI sees 0 hardware counters..."), or empty where it sees
// counters (papi_probe_papi.cpp; papi_probe_none.cpp in a build without PAPI).
std::string papi_counters_absent();

class PapiSource final : public EventSource {
 public:
  PapiSource();
  std::string lacks(const std::string& event, hwloc_obj_type_t type) const override;
  double read(const std::string& event, hwloc_obj_t object) override;

 private:
  std::string absent_;
};

}  // namespace larm::monitor
