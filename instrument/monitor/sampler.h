// Samples a monitor set (monitor_set.h) every period on a thread of its own, from start() to
// stop(), which takes a last sample: each sample is an update() and a call of on_sample with the
// time since start. What the updates cost is kept (update_seconds), so a run can state it. An
// exception from a sample (a trace that cannot be written) ends the sampling and is kept for
// error(): nothing is thrown on the sampler's thread or out of start().
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <exception>
#include <functional>
#include <mutex>
#include <thread>

#include "instrument/monitor/monitor_set.h"

namespace larm::monitor {

class Sampler {
 public:
  using OnSample = std::function<void(double seconds, const MonitorSet& monitors)>;

  // guard: held during each sample, when others read or update the monitors too (the monitor
  // API of larm/monitor.h); stop() must not be called holding it.
  Sampler(MonitorSet& monitors, std::chrono::microseconds period, OnSample on_sample,
          std::mutex* guard = nullptr);
  ~Sampler();
  Sampler(const Sampler&) = delete;
  Sampler& operator=(const Sampler&) = delete;

  // The first sample now (before it returns), then one every period on the thread (late samples
  // are not made up).
  void start();
  // The last sample, then the thread ends. Idempotent.
  void stop();

  int samples() const { return samples_; }
  // What ended the sampling early, after stop(); null when nothing did.
  std::exception_ptr error() const { return error_; }
  // When start() was called: the samples' time 0 (steady_clock: CLOCK_MONOTONIC on Linux).
  std::chrono::steady_clock::time_point started() const { return started_; }
  // Wall time spent in update() and on_sample, all samples together.
  double update_seconds() const { return update_seconds_; }

 private:
  // False once a sample failed (error_).
  bool sample(std::chrono::steady_clock::time_point start);

  MonitorSet& monitors_;
  std::chrono::microseconds period_;
  OnSample on_sample_;
  std::mutex* guard_;
  std::chrono::steady_clock::time_point started_;
  std::thread thread_;
  std::mutex mutex_;
  std::condition_variable wake_;
  bool stopping_ = false;
  int samples_ = 0;
  double update_seconds_ = 0;
  std::exception_ptr error_;
};

}  // namespace larm::monitor
