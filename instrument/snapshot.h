// What the recorder hands to the writer of regions.json (region_report.h): each thread's region
// records, the data tags, the run's clock and counters. The recorder fills it under its threads'
// locks; the writer reads nothing else of the recorder.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "instrument/counters.h"

namespace larm::instrument {

// The shortest region call whose threads' work is sampled (RegionRecord's busy_* fields).
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

}  // namespace larm::instrument
