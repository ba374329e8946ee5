// A team of persistent threads, each bound to one PU (checked by reading the binding back),
// that run a job together and can start timed regions together behind a spinning barrier.
#pragma once

#include <hwloc.h>

#include <atomic>
#include <condition_variable>
#include <exception>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace larm::platform {

// Sense-reversing barrier: threads spin (with pause) so they leave it within nanoseconds.
class SpinBarrier {
 public:
  explicit SpinBarrier(int parties) : parties_(parties) {}
  void wait();

 private:
  const int parties_;
  std::atomic<int> waiting_{0};
  std::atomic<unsigned> generation_{0};
};

class ThreadTeam {
 public:
  // Starts one thread per PU (OS indexes) and binds it strictly; throws std::runtime_error
  // naming the PU when a binding cannot be made or does not read back as asked.
  ThreadTeam(hwloc_topology_t topology, std::vector<unsigned> pus);
  ~ThreadTeam();
  ThreadTeam(const ThreadTeam&) = delete;
  ThreadTeam& operator=(const ThreadTeam&) = delete;

  int size() const { return static_cast<int>(pus_.size()); }
  const std::vector<unsigned>& pus() const { return pus_; }

  // Runs job(thread_index) on every thread and waits; the first exception thrown is rethrown.
  void run(const std::function<void(int)>& job);

  // For jobs to line up their timed regions.
  SpinBarrier& barrier() { return barrier_; }

 private:
  void worker(int index);
  void stop();

  hwloc_topology_t topology_;
  std::vector<unsigned> pus_;
  std::vector<std::thread> threads_;
  SpinBarrier barrier_;
  std::mutex mutex_;
  std::condition_variable wake_;
  std::condition_variable done_;
  const std::function<void(int)>* job_ = nullptr;
  unsigned long generation_ = 0;
  int pending_ = 0;
  bool stopping_ = false;
  std::exception_ptr error_;
};

}  // namespace larm::platform
