#include "instrument/monitor/sampler.h"

namespace larm::monitor {

Sampler::Sampler(MonitorSet& monitors, std::chrono::microseconds period, OnSample on_sample,
                 std::mutex* guard)
    : monitors_(monitors), period_(period), on_sample_(std::move(on_sample)), guard_(guard) {}

Sampler::~Sampler() {
  stop();
}

bool Sampler::sample(std::chrono::steady_clock::time_point start) {
  if (error_) return false;
  const auto before = std::chrono::steady_clock::now();
  try {
    std::unique_lock<std::mutex> guarded;
    if (guard_ != nullptr) guarded = std::unique_lock(*guard_);
    monitors_.update();
    on_sample_(std::chrono::duration<double>(before - start).count(), monitors_);
  } catch (...) {
    error_ = std::current_exception();  // the trace cannot be written: sampling ends
    return false;
  }
  update_seconds_ +=
      std::chrono::duration<double>(std::chrono::steady_clock::now() - before).count();
  ++samples_;
  return true;
}

void Sampler::start() {
  const auto start = std::chrono::steady_clock::now();
  started_ = start;
  if (!sample(start)) return;  // the first sample, before start() returns
  thread_ = std::thread([this, start] {
    auto next = start;
    std::unique_lock lock(mutex_);
    while (true) {
      next += period_;
      const auto now = std::chrono::steady_clock::now();
      if (next < now) next = now;  // late: the next period starts now
      wake_.wait_until(lock, next, [this] { return stopping_; });
      const bool last = stopping_;
      lock.unlock();
      if (!sample(start) || last) return;  // at stop(): the last one
      lock.lock();
    }
  });
}

void Sampler::stop() {
  {
    const std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  if (thread_.joinable()) thread_.join();
}

}  // namespace larm::monitor
