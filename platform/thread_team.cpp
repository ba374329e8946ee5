// Bound thread team and spin barrier.
#include "platform/thread_team.h"

#include <stdexcept>
#include <string>

#include "platform/arch.h"

namespace larm::platform {

void SpinBarrier::wait() {
  const unsigned generation = generation_.load(std::memory_order_acquire);
  if (waiting_.fetch_add(1, std::memory_order_acq_rel) + 1 == parties_) {
    waiting_.store(0, std::memory_order_relaxed);
    generation_.fetch_add(1, std::memory_order_acq_rel);
    return;
  }
  while (generation_.load(std::memory_order_acquire) == generation) arch::spin_pause();
}

ThreadTeam::ThreadTeam(hwloc_topology_t topology, std::vector<unsigned> pus)
    : topology_(topology), pus_(std::move(pus)), barrier_(static_cast<int>(pus_.size())) {
  for (int i = 0; i < size(); ++i) threads_.emplace_back(&ThreadTeam::worker, this, i);
  // Each thread binds itself first; a failed binding surfaces here as an exception.
  try {
    run([](int) {});
  } catch (...) {
    stop();
    throw;
  }
}

ThreadTeam::~ThreadTeam() {
  stop();
}

void ThreadTeam::stop() {
  {
    std::lock_guard lock(mutex_);
    if (stopping_) return;
    stopping_ = true;
  }
  wake_.notify_all();
  for (std::thread& t : threads_) {
    if (t.joinable()) t.join();
  }
}

void ThreadTeam::run(const std::function<void(int)>& job) {
  std::unique_lock lock(mutex_);
  job_ = &job;
  pending_ = size();
  error_ = nullptr;
  ++generation_;
  wake_.notify_all();
  done_.wait(lock, [this] { return pending_ == 0; });
  job_ = nullptr;
  if (error_) std::rethrow_exception(error_);
}

void ThreadTeam::worker(int index) {
  std::exception_ptr bind_error;
  const unsigned pu = pus_[static_cast<std::size_t>(index)];
  hwloc_bitmap_t wanted = hwloc_bitmap_alloc();
  hwloc_bitmap_t got = hwloc_bitmap_alloc();
  hwloc_bitmap_only(wanted, pu);
  if (hwloc_set_cpubind(topology_, wanted, HWLOC_CPUBIND_THREAD | HWLOC_CPUBIND_STRICT) != 0) {
    bind_error = std::make_exception_ptr(
        std::runtime_error("cannot bind a thread to PU " + std::to_string(pu)));
  } else if (hwloc_get_cpubind(topology_, got, HWLOC_CPUBIND_THREAD) != 0 ||
             !hwloc_bitmap_isequal(wanted, got)) {
    bind_error = std::make_exception_ptr(
        std::runtime_error("thread binding to PU " + std::to_string(pu) + " did not hold"));
  }
  hwloc_bitmap_free(wanted);
  hwloc_bitmap_free(got);

  unsigned long seen = 0;
  for (;;) {
    const std::function<void(int)>* job;
    {
      std::unique_lock lock(mutex_);
      wake_.wait(lock, [&] { return stopping_ || generation_ != seen; });
      if (stopping_) return;
      seen = generation_;
      job = job_;
    }
    std::exception_ptr error = bind_error;
    if (!error) {
      try {
        (*job)(index);
      } catch (...) {
        error = std::current_exception();
      }
    }
    std::lock_guard lock(mutex_);
    if (error && !error_) error_ = error;
    if (--pending_ == 0) done_.notify_one();
  }
}

}  // namespace larm::platform
