// The benchmark drivers: each sets up data where it must live, runs a generated kernel on a
// bound team through the sampler, and returns raw samples (METHOD §3, §5, §6).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "codegen/kernel.h"
#include "codegen/kernel_spec.h"
#include "kernels/sampler.h"
#include "platform/buffer.h"
#include "platform/clock.h"
#include "platform/thread_team.h"
#include "topology/topology.h"

namespace larm::kernels {

struct DriverContext {
  const topology::Topology& topology;
  const platform::Clock& clock;
  SamplingOptions sampling;
};

class StreamBuffers;

struct BandwidthRequest {
  codegen::KernelSpec spec = {};     // a stream or mixed kernel
  std::vector<unsigned> nodes = {};  // memories (OS indexes) the data is bound to
  platform::BindPolicy policy = platform::BindPolicy::bind;
  std::uint64_t working_set_bytes = 0;  // per thread, all streams together
  // Optional group of each thread of the team (e.g. its domain when every core of the machine
  // runs): each group's bandwidth is its bytes over the time from the common start to its last
  // thread's end.
  std::vector<int> thread_groups = {};
  // Where the threads' buffers are kept for the next measurement: reused when it has the same
  // memories, policy and PUs and they hold its streams, allocated and first-touched anew into it
  // otherwise. None: buffers of this measurement's own, one mapping per stream.
  StreamBuffers* keep = nullptr;
};

struct BandwidthResult {
  std::vector<double> gbps;                     // all threads together, 1 GB = 1e9 bytes
  std::vector<std::vector<double>> group_gbps;  // [group][sample], when groups were given
  std::uint64_t working_set_bytes = 0;          // per thread, as run
  double placement_fraction = 0;                // pages on the requested nodes
  std::optional<double> interleave_evenness;    // interleaved data: how evenly spread (1 = even)
  std::optional<double> huge_page_fraction;     // of its bound buffers of 2 MiB or more
  results::Interference interference;           // samples re-taken (or kept) for interference
};

// The stream buffers of a domain's memory roofs kept from one access to the next: on
// the 8-memory Opteron fixture, first-touching 2 x 32 MiB for each of the 5 accesses on each of
// the 64 domain x memory pairs in each pass was 13 s of a default run's estimated 138 s. Kept,
// each thread's buffer is one region, touched once for the 5 accesses of a memory, its streams
// in slices that start where their own mappings would (a huge page, else a page, boundary).
class StreamBuffers {
 public:
  StreamBuffers() = default;
  bool empty() const { return regions_.empty(); }
  const void* data(std::size_t thread) const { return regions_.at(thread).data(); }

 private:
  friend BandwidthResult measure_bandwidth(const DriverContext&, platform::ThreadTeam&,
                                           const BandwidthRequest&);
  std::vector<platform::NodeBuffer> regions_;  // one per thread of the team
  std::vector<unsigned> nodes_, pus_;
  platform::BindPolicy policy_ = platform::BindPolicy::bind;
};

BandwidthResult measure_bandwidth(const DriverContext& context, platform::ThreadTeam& team,
                                  const BandwidthRequest& request);

// The bytes a stream of this size takes in a kept region: whole huge pages from 2 MiB, else
// whole pages, as its own mapping would start.
std::uint64_t stream_slice_bytes(std::uint64_t per_stream);

// All threads of the team on page-mixed data over a fast and a slow memory (METHOD §8): the
// readwrite kernel closest to ratio_read, or one of the STREAM benchmarks.
struct HybridRequest {
  larm::Isa isa = larm::Isa::sse2;
  unsigned fast_node = 0;
  unsigned slow_node = 0;
  double ratio_fast = 0;
  double ratio_read = 0;  // readwrite only: a STREAM benchmark has its own
  std::optional<codegen::StreamBenchmark> benchmark = std::nullopt;
  std::uint64_t bytes_per_thread = 0;  // all of a thread's streams together
};

struct HybridResult {
  std::string kernel;
  std::vector<double> gbps;     // per sample, all threads together
  std::vector<double> seconds;  // per sample
  double bytes_read = 0;        // per sample, all threads
  double bytes_written = 0;
  // Pages on the fast memory, found after the first touch, in the read and the written streams.
  double read_fast_fraction = 0;
  double write_fast_fraction = 0;
  double placed_fraction = 0;          // pages where the layout wants them
  std::uint64_t bytes_per_thread = 0;  // as run
  results::Interference interference;
};

HybridResult measure_hybrid(const DriverContext& context, platform::ThreadTeam& team,
                            const HybridRequest& request);

struct FlopsResult {
  std::vector<double> gflops;  // all threads together
  // Arithmetic instructions retired per core per second, to divide by the core frequency.
  std::vector<double> instructions_per_second;
  results::Interference interference;
};

FlopsResult measure_flops(const DriverContext& context, platform::ThreadTeam& team,
                          const codegen::FlopsSpec& spec);

// Core frequency in Hz from a clock kernel's chain, one value per sample (mean of the team's
// threads).
struct FrequencyResult {
  std::vector<double> hz;
  results::Interference interference;
};
FrequencyResult measure_frequency(const DriverContext& context, platform::ThreadTeam& team,
                                  const codegen::ClockSpec& spec);

class ChaseChain;

struct LatencyRequest {
  std::vector<unsigned> nodes;
  std::uint64_t working_set_bytes = 0;
  unsigned line_bytes = 64;
  // Bytes of the chain the warm-up walks (0 or more than the chain: the whole cycle). A chain
  // that overflows the caches needs only twice what they hold walked: what building it left in
  // them is gone by then, and every later load misses as it would in a whole cycle.
  std::uint64_t warm_up_bytes = 0;
  // Where the chain is kept for later chases: walked on from its cursor when it has the same
  // memories, lines and line size (no warm-up then), built anew into it otherwise. None: a chain
  // of this measurement's own.
  ChaseChain* keep = nullptr;
  // The chain on base pages (huge pages refused): every load of a chain past the TLB's reach
  // then pays a page walk too, as a program's plain allocation does.
  bool base_pages = false;
};

struct LatencyResult {
  std::vector<double> ns;  // per dependent load
  std::uint64_t working_set_bytes = 0;
  double placement_fraction = 0;
  std::optional<double> huge_page_fraction;  // buffer of 2 MiB or more
  results::Interference interference;
};

// A pointer chase kept from one latency measurement to the next: on the 8-memory
// Opteron fixture, building a 64 MiB chain and walking half of it for each of the 64 domain x
// memory chases in each pass was 22 s of a default run's estimated 159 s. Kept, a memory's chain is
// built and warmed up once, and every later chase of it (another domain's, a later pass's) goes on
// from where the last one stopped: the lines ahead were walked a whole cycle ago, out of every
// cache since, and the lines its last walker may still hold are the cycle's farthest.
class ChaseChain {
 public:
  ChaseChain() = default;
  bool built() const { return cursor_ != nullptr; }
  const void* data() const { return buffer_.data(); }
  std::uint64_t lines() const { return lines_; }

 private:
  friend LatencyResult measure_latency(const DriverContext&, platform::ThreadTeam&,
                                       const LatencyRequest&);
  platform::NodeBuffer buffer_;
  std::vector<unsigned> nodes_;
  std::uint64_t lines_ = 0;
  unsigned line_bytes_ = 0;
  bool base_pages_ = false;
  const void* cursor_ = nullptr;  // where the next walk goes on from
};

// Pointer chase on the first thread of the team (which should hold one thread).
LatencyResult measure_latency(const DriverContext& context, platform::ThreadTeam& team,
                              const LatencyRequest& request);

// Links a single-cycle chase of `lines` lines of line_bytes in buffer (its pages first-touched
// here: call it on the thread that will chase) and walks warm_lines of it with the chase kernel,
// so that caches and TLB hold what they can; returns where the walk stopped.
const void* link_and_warm_chase(const codegen::Kernel& chase, platform::NodeBuffer& buffer,
                                std::uint64_t lines, unsigned line_bytes, std::uint64_t warm_lines,
                                std::uint64_t seed);

// next[i] for a random permutation of n elements that is a single cycle (Sattolo).
std::vector<std::uint64_t> single_cycle_permutation(std::uint64_t n, std::uint64_t seed);

}  // namespace larm::kernels
