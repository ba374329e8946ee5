// The registry behind the region API: one state per thread (its open regions and its records),
// the data tags, and the life cycle (init, fork, finalize). The C functions of region_api.cpp
// only forward to the process's Recorder.
#pragma once

#include <atomic>
#include <cstdint>
#include <deque>
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "instrument/counters.h"
#include "instrument/snapshot.h"

namespace larm::monitor {
struct RegionProgress;
}

namespace larm::instrument {

inline constexpr std::size_t kMaxNameBytes = 255;
inline constexpr std::size_t kDefaultMaxRegionsPerThread = 10000;
inline constexpr std::size_t kMaxPagesQueried = 4096;

// Busy-wait lock of a thread's state: only its owner takes it on the hot path, finalize takes
// it once per thread; uncontended it costs one atomic exchange.
class SpinLock {
 public:
  void lock() {
    while (locked_.exchange(true, std::memory_order_acquire)) {
    }
  }
  void unlock() { locked_.store(false, std::memory_order_release); }

 private:
  std::atomic<bool> locked_{false};
};

struct NameHash {
  using is_transparent = void;
  std::size_t operator()(std::string_view name) const {
    return std::hash<std::string_view>{}(name);
  }
};

struct ThreadState {
  struct Frame {
    RegionRecord* record = nullptr;  // nullptr: a begin that was refused (name, limit)
    // The name a refused begin was given ("" for a NULL or empty one), so that its end, or the
    // end of a region open around it, still finds the frames to close.
    std::string refused_name;
    std::uint64_t start_ticks = 0;
    std::uint64_t start_process_cpu_ns = 0;  // 0: this call is not sampled
    std::uint64_t start_thread_cpu_ns = 0;
    std::uint64_t start_ns = 0;
    CounterValues start_counts{};
  };
  SpinLock lock;
  int index = 0;  // order of registration
  long tid = 0;   // kernel thread id
  std::unordered_map<std::string, RegionRecord, NameHash, std::equal_to<>> regions;
  std::vector<Frame> stack;
  RegionRecord* last = nullptr;  // the record of the last begin: most calls repeat it
  int event_set = -1;
  bool counting = false;
  // Where larm_region_end reads the counts: kept here, not zeroed on the stack, so that the end
  // stores nothing of its own before the read (the count tool counts every store the thread makes).
  CounterValues end_counts{};
};

// A data handle: its summary and its runs of pages, first page -> end (exclusive), merged.
struct DataHandle {
  DataTag tag;
  std::map<std::uintptr_t, std::uintptr_t> runs;
};

class Recorder {
 public:
  int init(const char* out_dir);
  int thread_init();
  int register_region(const char* name);
  int begin(const char* name);
  int end(const char* name);
  int add(const char* name, double flops, double bytes);
  int add_rw(const char* name, double flops, double bytes_read, double bytes_written);
  int data(const char* name, const void* ptr, std::size_t len);
  int data_tag(const char* handle, const void* ptr, std::size_t len);
  int region_uses(const char* region, const char* handle);
  int get(const char* name, double* seconds, long* calls);
  int reset_region(const char* name);
  int finalize();

  // What each thread recorded so far, region by region (calls and time completed, work
  // declared), for the monitors' region source (instrument/monitor/region_source.h); empty while
  // not recording. Takes each thread's lock in turn, as finalize does.
  std::vector<monitor::RegionProgress> progress();

  // Called by the atexit handler: finalizes a run the application left open.
  void finalize_at_exit();
  // fork() handlers (pthread_atfork).
  void before_fork();
  void after_fork_in_parent();
  void after_fork_in_child();
  // Drops every record and returns to the state before init (tests only: no other thread may
  // be inside the library).
  void reset_for_testing();

 private:
  enum class State { idle, active, finalized };

  bool initialize(const char* out_dir, bool explicit_call);
  // larm_region_add and _add_rw: FLOPs and bytes (negative or NaN: not declared), the split.
  int declare(const char* name, const char* api, double flops, double bytes,
              std::optional<std::pair<double, double>> read_written);
  ThreadState* thread_state();
  bool ensure_active();
  RegionRecord* find_or_create(ThreadState& state, std::string_view name);
  void close_frame(ThreadState::Frame& frame, std::uint64_t end_ticks, const CounterValues* counts);
  void requery_pending_data(std::string_view name);
  // Adds [ptr, ptr + len) to handle `name` (created if new), under data_mutex_.
  void tag_range(const std::string& name, const void* ptr, std::size_t len);
  // larm_region_data and larm_data_tag: checks, then tags handle `name`, used by the region of
  // that name when `used_by_region`.
  int tag_data(const char* api, const char* name, const void* ptr, std::size_t len,
               bool used_by_region);
  Snapshot take_snapshot(std::uint64_t end_ticks);
  double ticks_per_second(std::uint64_t ticks_now, std::uint64_t ns_now) const;

  std::atomic<State> state_{State::idle};
  std::atomic<std::uint64_t> generation_{1};
  std::mutex lifecycle_mutex_;  // init, finalize, fork
  std::mutex registry_mutex_;   // threads_
  std::deque<std::unique_ptr<ThreadState>> threads_;
  std::vector<std::unique_ptr<ThreadState>> abandoned_threads_;  // a fork()ed child's dead threads
  std::mutex data_mutex_;                                        // handles_, uses_
  std::map<std::string, DataHandle, std::less<>> handles_;
  std::map<std::string, std::vector<std::string>, std::less<>> uses_;  // region -> handles
  std::atomic<int> pending_data_{0};

  std::filesystem::path out_dir_;
  std::string label_;
  std::string file_suffix_;
  std::size_t max_regions_per_thread_ = kDefaultMaxRegionsPerThread;
  Counters counters_;
  std::string counters_unavailable_;
  double access_bytes_ = 0;
  std::uint64_t start_ticks_ = 0;
  std::uint64_t start_ns_ = 0;
  std::string started_at_;
  int owner_pid_ = 0;
  bool forked_child_ = false;
  // The claim on out_dir_ (results/output_claim.h), held until the process ends: another process
  // recording into the same directory at the same time writes regions-pid<N>.json instead of
  // replacing this one's file. -1 while not claimed.
  int claim_fd_ = -1;
  void claim_out_dir();
};

Recorder& process_recorder();

// Marks the calling thread as inside liblarm while alive. entered() is false when the thread
// already was: the call interrupted liblarm on its own thread (it can only come from a signal
// handler) and would wait forever for a lock that thread holds, so it must be refused. Async-
// signal-safe: an initial-exec thread-local flag and a lock-free counter, no allocation.
class ThreadEntry {
 public:
  ThreadEntry() noexcept;
  ~ThreadEntry();
  ThreadEntry(const ThreadEntry&) = delete;
  ThreadEntry& operator=(const ThreadEntry&) = delete;
  bool entered() const { return entered_; }

 private:
  bool entered_;
};

// How many calls ThreadEntry refused so far.
long reentrant_calls();

}  // namespace larm::instrument
