// The C entry points of liblarm: each forwards to the process's Recorder; no exception crosses
// the C boundary (instrument/api_call.h).
#include <utility>

#include "instrument/api_call.h"
#include "instrument/recorder.h"
#include "larm/region.h"

namespace {

template <typename Call>
int guarded(const char* function, Call&& call) noexcept {
  return larm::instrument::api_call(function, larm::instrument::process_recorder,
                                    std::forward<Call>(call));
}

}  // namespace

extern "C" {

int larm_init(const char* out_dir) {
  return guarded("larm_init", [&](auto& recorder) { return recorder.init(out_dir); });
}
int larm_thread_init(void) {
  return guarded("larm_thread_init", [&](auto& recorder) { return recorder.thread_init(); });
}
int larm_region_register(const char* name) {
  return guarded("larm_region_register",
                 [&](auto& recorder) { return recorder.register_region(name); });
}
int larm_region_begin(const char* name) {
  return guarded("larm_region_begin", [&](auto& recorder) { return recorder.begin(name); });
}
int larm_region_end(const char* name) {
  return guarded("larm_region_end", [&](auto& recorder) { return recorder.end(name); });
}
int larm_region_add(const char* name, double flops, double bytes) {
  return guarded("larm_region_add",
                 [&](auto& recorder) { return recorder.add(name, flops, bytes); });
}
int larm_region_add_rw(const char* name, double flops, double bytes_read, double bytes_written) {
  return guarded("larm_region_add_rw", [&](auto& recorder) {
    return recorder.add_rw(name, flops, bytes_read, bytes_written);
  });
}
int larm_region_data(const char* name, const void* ptr, size_t len) {
  return guarded("larm_region_data", [&](auto& recorder) { return recorder.data(name, ptr, len); });
}
int larm_data_tag(const char* data, const void* ptr, size_t len) {
  return guarded("larm_data_tag",
                 [&](auto& recorder) { return recorder.data_tag(data, ptr, len); });
}
int larm_region_uses(const char* name, const char* data) {
  return guarded("larm_region_uses",
                 [&](auto& recorder) { return recorder.region_uses(name, data); });
}
int larm_region_get(const char* name, double* seconds, long* calls) {
  return guarded("larm_region_get",
                 [&](auto& recorder) { return recorder.get(name, seconds, calls); });
}
int larm_region_reset(const char* name) {
  return guarded("larm_region_reset", [&](auto& recorder) { return recorder.reset_region(name); });
}
int larm_finalize(void) {
  return guarded("larm_finalize", [&](auto& recorder) { return recorder.finalize(); });
}

}  // extern "C"
