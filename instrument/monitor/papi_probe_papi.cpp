// Whether PAPI sees hardware counters (papi_source.h), in a build with PAPI.
#include <papi.h>

#include "instrument/monitor/papi_source.h"

namespace larm::monitor {

std::string papi_counters_absent() {
  if (!PAPI_is_initialized()) {
    const int version = PAPI_library_init(PAPI_VER_CURRENT);
    if (version != PAPI_VER_CURRENT) {
      return "PAPI_library_init failed (" + std::to_string(version) + ")";
    }
  }
  if (PAPI_num_cmp_hwctrs(0) <= 0) {
    return "PAPI sees 0 hardware counters (virtual machine without a virtual PMU, or "
           "perf_event_paranoid too high)";
  }
  return "";
}

}  // namespace larm::monitor
