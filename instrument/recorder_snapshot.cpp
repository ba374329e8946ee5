// The recorder's queries (larm_region_get, progress, reset), its snapshot of every thread's
// records and finalize.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <optional>
#include <thread>

#include "instrument/messages.h"
#include "instrument/monitor/region_source.h"
#include "instrument/recorder.h"
#include "instrument/recorder_parts.h"
#include "instrument/region_report.h"
#include "platform/arch.h"
#include "platform/clock.h"
#include "results/atomic_file.h"
#include "results/printable_text.h"

namespace larm::instrument {

using namespace recorder_parts;

double Recorder::ticks_per_second(std::uint64_t ticks_now, std::uint64_t ns_now) const {
  // The TSC against CLOCK_MONOTONIC_RAW since init; clock_gettime ticks are nanoseconds.
  if (!g_use_tsc || ns_now <= start_ns_) return 1e9;
  return static_cast<double>(ticks_now - start_ticks_) * 1e9 /
         static_cast<double>(ns_now - start_ns_);
}

int Recorder::get(const char* name, double* seconds, long* calls) {
  if (!ensure_active()) return -1;
  ThreadState& state = *thread_state();
  const auto checked = checked_name(name, "larm_region_get", false);
  if (!checked) return -1;
  const std::uint64_t ticks_now = now_ticks();
  const std::uint64_t ns_now = platform::monotonic_raw_ns();
  std::lock_guard lock(state.lock);
  const auto found = state.regions.find(*checked);
  if (found == state.regions.end()) return -1;
  if (seconds != nullptr) {
    *seconds = static_cast<double>(found->second.ticks) / ticks_per_second(ticks_now, ns_now);
  }
  if (calls != nullptr) *calls = static_cast<long>(found->second.calls);
  return 0;
}

std::vector<monitor::RegionProgress> Recorder::progress() {
  std::vector<monitor::RegionProgress> out;
  if (state_.load() != State::active) return out;
  const double per_second = ticks_per_second(now_ticks(), platform::monotonic_raw_ns());
  std::lock_guard registry(registry_mutex_);
  for (const auto& thread : threads_) {
    std::lock_guard lock(thread->lock);
    for (const auto& [name, record] : thread->regions) {
      monitor::RegionProgress p;
      p.region = name;
      p.cpu = record.cpu;
      p.thread = thread->tid;
      p.calls = static_cast<double>(record.calls);
      p.seconds = static_cast<double>(record.ticks) / per_second;
      p.flops = record.flops_declared ? record.declared_flops : 0;
      p.bytes = record.bytes_declared ? record.declared_bytes : 0;
      out.push_back(std::move(p));
    }
  }
  return out;
}

int Recorder::reset_region(const char* name) {
  if (!ensure_active()) return -1;
  ThreadState& state = *thread_state();
  const auto checked = checked_name(name, "larm_region_reset", false);
  if (!checked) return -1;
  std::lock_guard lock(state.lock);
  const auto found = state.regions.find(*checked);
  if (found == state.regions.end()) return -1;
  if (found->second.open_depth > 0) {
    report(MessageKind::misuse,
           "larm_region_reset(" + shown_name(*checked) + ") while it is open: ignored");
    return -1;
  }
  reset_counts(found->second);
  return 0;
}

Snapshot Recorder::take_snapshot(std::uint64_t end_ticks) {
  Snapshot snapshot;
  snapshot.label = label_;
  snapshot.out_dir = out_dir_;
  snapshot.file_suffix = file_suffix_;
  snapshot.started_at = started_at_;
  snapshot.counters = &counters_;
  snapshot.counters_unavailable = counters_unavailable_;
  snapshot.access_bytes = access_bytes_;
  {
    std::lock_guard registry(registry_mutex_);
    for (const auto& thread : threads_) {
      std::lock_guard lock(thread->lock);
      // Regions still open are closed at finalize; another thread's counters cannot be read
      // from here, so those calls keep their time only.
      while (!thread->stack.empty()) {
        auto& frame = thread->stack.back();
        if (frame.record != nullptr) {
          snapshot.open_at_finalize.push_back(shown_name(frame.record->name) + " on thread " +
                                              std::to_string(thread->index));
          close_frame(frame, end_ticks, nullptr);
        }
        thread->stack.pop_back();
      }
      ThreadSnapshot copy;
      copy.index = thread->index;
      copy.tid = thread->tid;
      copy.regions.reserve(thread->regions.size());
      for (const auto& [name, record] : thread->regions) copy.regions.push_back(record);
      snapshot.threads.push_back(std::move(copy));
    }
  }
  {
    std::lock_guard lock(data_mutex_);
    for (auto& [name, handle] : handles_) {
      if (handle.tag.pending || handle.tag.pages_by_node.empty()) query_handle(handle);
    }
    for (const auto& [region, used] : uses_) {
      auto& tags = snapshot.data[region];
      for (const std::string& name : used) {
        const auto handle = handles_.find(name);
        if (handle != handles_.end()) {
          tags.push_back(handle->second.tag);
        } else {
          report(MessageKind::misuse, "larm_region_uses(" + shown_name(region) + ", " +
                                          shown_name(name) +
                                          "): no data was tagged with that name (larm_data_tag)");
        }
      }
    }
  }
  // The TSC rate over the whole run, against CLOCK_MONOTONIC_RAW: long enough to be exact.
  while (platform::monotonic_raw_ns() - start_ns_ < kMinCalibrationNs) {
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  const std::uint64_t ns = platform::monotonic_raw_ns();
  const std::uint64_t ticks = now_ticks();
  snapshot.ticks_per_second = ticks_per_second(ticks, ns);
  snapshot.wall_seconds = static_cast<double>(end_ticks - start_ticks_) / snapshot.ticks_per_second;
  snapshot.start_ticks = start_ticks_;
  snapshot.clock_source = g_use_tsc ? "invariant TSC" : "clock_gettime(MONOTONIC_RAW)";
  return snapshot;
}

int Recorder::finalize() {
  std::lock_guard lifecycle(lifecycle_mutex_);
  const std::uint64_t end_ticks = now_ticks();
  const State state = state_.load(std::memory_order_acquire);
  if (state == State::finalized) {
    report(MessageKind::lifecycle, "larm_finalize called again: the regions were already written");
    return -1;
  }
  if (state == State::idle) {
    report(MessageKind::lifecycle,
           "larm_finalize without larm_init or any region: nothing to write");
    return -1;
  }
  state_.store(State::finalized, std::memory_order_release);
  try {
    Snapshot snapshot = take_snapshot(end_ticks);
    for (const auto& open : snapshot.open_at_finalize) {
      report(MessageKind::lifecycle,
             "region " + open + " still open at larm_finalize: closed there");
    }
    if (forked_child_ && !snapshot.has_calls()) return 0;  // a child that recorded nothing
    if (claim_fd_ < 0 && !forked_child_ && file_suffix_.empty()) {
      try {
        claim_out_dir();  // the directory could not be written at init
      } catch (const std::exception&) {
        // write_regions reports it and falls back to the temporary directory
      }
      snapshot.file_suffix = file_suffix_;
    }
    if (const long refused = reentrant_calls(); refused > 0) {
      report(MessageKind::misuse, std::to_string(refused) +
                                      " region calls interrupted liblarm on their own thread (from "
                                      "a signal handler?) and were refused");
    }
    return write_regions(snapshot) ? 0 : -1;
  } catch (const std::exception& error) {
    report(MessageKind::lifecycle, std::string("larm_finalize failed: ") + error.what());
    return -1;
  }
}

}  // namespace larm::instrument
