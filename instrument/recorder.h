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

namespace larm::instrument {

inline constexpr std::size_t kMaxNameBytes = 255;
inline constexpr std::size_t kDefaultMaxRegionsPerThread = 10000;
inline constexpr std::size_t kMaxPagesQueried = 4096;
inline constexpr std::uint64_t kBusyCallNs = 1'000'000;

// One region on one thread.
struct RegionRecord {
  std::string name;
  std::uint64_t calls = 0;
  std::uint64_t ticks = 0;  // inclusive; a recursive instance counts once, at its outermost
  int open_depth = 0;
  int cpu = -1;           // CPU of the first begin
  bool migrated = false;  // a later begin ran on another CPU
  double declared_flops = 0;
  double declared_bytes = 0;
  double declared_bytes_read = 0;  // larm_region_add_rw: the split of declared_bytes
  double declared_bytes_written = 0;
  bool flops_declared = false;
  bool bytes_declared = false;
  bool rw_declared = false;
  bool counted = false;  // counter deltas were added
  CounterValues counter_deltas{};
  // When the first call began and the last one ended: whether regions of several domains ran at
  // the same time is read from them (contention). 0 until then.
  std::uint64_t first_begin_ticks = 0;
  std::uint64_t last_end_ticks = 0;
  // How many threads worked while this one was in the region, so that a region recorded on fewer
  // threads than worked in it (begin and end around a parallel loop, on the calling thread only)
  // is said: the CPU time of the whole process (all its threads) over this thread's own, during
  // the calls of kBusyCallNs or more (over its own CPU time, not the wall time: a thread that the
  // machine's other load or the hypervisor slows still counts as one). A call is sampled when
  // kBusyCallNs passed since the last sampled one began: four system calls at most once per
  // millisecond, so that short calls in a loop cost nothing more; the sampled calls shorter than
  // kBusyCallNs are dropped (the kernel brings other threads' CPU times up to date at their
  // ticks, too coarse for them).
  std::uint64_t busy_cpu_ns = 0;         // the process's
  std::uint64_t busy_thread_cpu_ns = 0;  // this thread's
  std::uint64_t busy_wall_ns = 0;
  std::uint64_t busy_last_sample_ticks = 0;
};

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
};

// Where the pages of one data handle sit (larm_data_tag, or larm_region_data's handle of the
// region's name): its tagged ranges merged into runs of pages, by memory.
struct DataTag {
  std::string handle;
  std::uintptr_t address = 0;                // the first page of its runs
  std::size_t bytes = 0;                     // of its runs of pages
  std::size_t runs = 0;                      // disjoint runs of pages its ranges merge into
  std::size_t ranges_tagged = 0;             // calls that tagged it
  std::map<int, std::size_t> pages_by_node;  // node OS index, or -errno for unplaced pages
  std::size_t neighbours_compared = 0;       // pairs of neighbouring pages (page_nodes.h)
  std::size_t neighbours_apart = 0;          // of those, on different memories
  // The pages when they were tagged, sampled: node, or -ENOENT for those not touched yet. Pages
  // already present then were first-touched by whoever allocated or initialized them before.
  std::map<int, std::size_t> at_tag_by_node;
  bool pending = true;  // some sampled pages were not touched yet: query again
  int requeries = 0;
};

// A data handle: its summary and its runs of pages, first page -> end (exclusive), merged.
struct DataHandle {
  DataTag tag;
  std::map<std::uintptr_t, std::uintptr_t> runs;
};

// What finalize hands to the writer: copies, taken under the threads' locks.
struct ThreadSnapshot {
  int index = 0;
  long tid = 0;
  std::vector<RegionRecord> regions;
};
struct Snapshot {
  std::string label;
  std::filesystem::path out_dir;
  std::string file_suffix;  // "-pid<N>" in a fork()ed child
  double ticks_per_second = 1e9;
  std::uint64_t start_ticks = 0;  // the clock when recording started
  std::string clock_source;
  double wall_seconds = 0;
  std::string started_at;
  std::vector<ThreadSnapshot> threads;
  std::map<std::string, std::vector<DataTag>> data;  // region -> the handles it uses
  const Counters* counters = nullptr;
  std::string counters_unavailable;  // reason, when counters are not used
  double access_bytes = 0;           // LARM_ACCESS_BYTES: bytes per counted memory instruction
  std::vector<std::string> open_at_finalize;

  bool has_calls() const {
    for (const auto& thread : threads) {
      for (const auto& region : thread.regions) {
        if (region.calls > 0) return true;
      }
    }
    return false;
  }
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
