// Whether PAPI sees hardware counters (papi_source.h), in a build without PAPI: it does not.
#include "instrument/monitor/papi_source.h"

namespace larm::monitor {

std::string papi_counters_absent() {
  return "larm was built without PAPI";
}

}  // namespace larm::monitor
