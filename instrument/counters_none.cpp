// Counters when larm is built without PAPI (-DLARM_WITH_PAPI=OFF): never available.
#include "instrument/counters.h"

namespace larm::instrument {

const bool Counters::kSupported = false;

std::string Counters::start() {
  return "larm was built without PAPI (LARM_WITH_PAPI=OFF)";
}
bool Counters::measures_flops() const {
  return false;
}
bool Counters::start_thread(int&) const {
  return false;
}
bool Counters::read(int, CounterValues&) const {
  return false;
}

}  // namespace larm::instrument
