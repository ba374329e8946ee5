// The C entry points of larm/monitor.h: each forwards to the process's ProcessMonitor; no
// exception crosses the C boundary (instrument/api_call.h).
#include <utility>

#include "instrument/api_call.h"
#include "instrument/process_monitor.h"
#include "instrument/recorder.h"
#include "larm/monitor.h"

namespace {

template <typename Call>
int monitor_call(const char* function, Call&& call) noexcept {
  return larm::instrument::api_call(function, larm::instrument::process_monitor,
                                    std::forward<Call>(call));
}

}  // namespace

extern "C" {

int larm_monitor_init(const char* description, const char* out_dir) {
  return monitor_call("larm_monitor_init",
                      [&](auto& monitor) { return monitor.init(description, out_dir); });
}
int larm_monitor_update(void) {
  return monitor_call("larm_monitor_update", [&](auto& monitor) { return monitor.update(); });
}
int larm_monitor_sampling_start(double period_seconds) {
  return monitor_call("larm_monitor_sampling_start",
                      [&](auto& monitor) { return monitor.sampling_start(period_seconds); });
}
int larm_monitor_sampling_stop(void) {
  return monitor_call("larm_monitor_sampling_stop",
                      [&](auto& monitor) { return monitor.sampling_stop(); });
}
int larm_monitor_get(const char* monitor_name, const char* object, const char* value, double* out) {
  return monitor_call("larm_monitor_get",
                      [&](auto& monitor) { return monitor.get(monitor_name, object, value, out); });
}
int larm_monitor_finalize(void) {
  return monitor_call("larm_monitor_finalize", [&](auto& monitor) { return monitor.finalize(); });
}

}  // extern "C"
