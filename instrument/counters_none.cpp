// Counters when larm is built without PAPI (-DLARM_WITH_PAPI=OFF): never available.
#include "instrument/counters.h"

namespace larm::instrument {

const bool Counters::kSupported = false;

std::string Counters::start_papi() {
  return "larm was built without PAPI (LARM_WITH_PAPI=OFF)";
}
bool Counters::start_thread_papi(int&) const {
  return false;
}
bool Counters::read_papi(int, CounterValues&) const {
  return false;
}

}  // namespace larm::instrument
