// The C boundary of liblarm (region_api.cpp, monitor_api.cpp): a call forwarded to the process's
// recorder or monitors, no exception crossing it (an unexpected one becomes a message and -1),
// and a call from a signal handler that interrupted liblarm on its own thread refused: it would
// wait for a lock its thread holds. Refusals are counted and said at larm_finalize.
#pragma once

#include <exception>
#include <string>

#include "instrument/messages.h"
#include "instrument/recorder.h"

namespace larm::instrument {

// target: the function that returns the process's recorder or monitors, called only once the
// call is let in.
template <typename Target, typename Call>
int api_call(const char* function, Target& (*target)(), Call&& call) noexcept {
  const ThreadEntry entry;
  if (!entry.entered()) return -1;
  try {
    return call(target());
  } catch (const std::exception& error) {
    try {
      report(MessageKind::lifecycle, std::string(function) + " failed: " + error.what());
    } catch (...) {
    }
  } catch (...) {
  }
  return -1;
}

}  // namespace larm::instrument
