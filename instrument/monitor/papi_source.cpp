#include "instrument/monitor/papi_source.h"

namespace larm::monitor {

PapiSource::PapiSource() {
  absent_ = papi_counters_absent();
  if (absent_.empty()) {
    absent_ =
        "PAPI sees hardware counters here, but larm monitor does not count per PU with PAPI "
        "yet";
  }
}

std::string PapiSource::lacks(const std::string& /*event*/, hwloc_obj_type_t /*type*/) const {
  return absent_;
}

double PapiSource::read(const std::string& /*event*/, hwloc_obj_t /*object*/) {
  return 0;
}

}  // namespace larm::monitor
