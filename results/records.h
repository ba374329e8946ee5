// The records a characterization produces: roofs, size sweep, latencies, frequencies, provenance.
// Runners fill them with raw samples; writers (JSON, CSV, tables) only format them.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "results/statistics.h"

namespace larm::results {

// Bumped on any change that an older reader would misread; documented in results/SCHEMA.md.
inline constexpr const char* kSchemaVersion = "1.2";

// One roof: a bandwidth slope (GB/s) or a FLOP ceiling (GFLOP/s) of one domain.
struct Roof {
  int domain = 0;
  std::string memory;       // memory OS index for level "memory"; empty for caches and flops
  std::string memory_kind;  // DRAM, MCDRAM, HBM, NVM... from hwloc; empty when not a memory
  std::string placement;    // local, remote, contention, congestion; empty for caches and flops
  std::string level;        // L1, L2, L3, L4, memory, flops
  std::string access;       // load, store, store-nt, copy, 2ld1st | add, mul, fma
  std::string precision;    // sp, dp for flops; empty for bandwidth
  std::string isa;          // sse2, avx, avx2, avx512
  int threads = 0;
  std::string unit;                     // GB/s or GFLOP/s
  std::uint64_t working_set_bytes = 0;  // per thread, as run (a whole number of kernel chunks)
  std::vector<double> samples;          // in unit
  SampleStats stats;
  std::optional<double> placement_fraction;      // pages found on the intended memories
  std::optional<double> instructions_per_cycle;  // per core, FLOP ceilings only
  std::optional<double> documented_ipc;          // vendor figure, when larm knows it
  std::string status;  // ok, unstable, misplaced, or the reason the roof is absent

  bool present() const { return !samples.empty(); }
};

// What every point of a bandwidth series has: the kernel, the threads and the samples.
struct StreamMeasurement {
  std::string access;
  std::string isa;
  int threads = 0;
  std::uint64_t working_set_bytes = 0;  // per thread
  std::vector<double> samples;          // GB/s, all threads together
  SampleStats stats;
  std::string status;
};

// One point of bandwidth vs working-set size.
struct SweepPoint : StreamMeasurement {
  int domain = 0;
};

// Load-to-use latency of one level or memory, by pointer chase from one core.
struct LatencyPoint {
  int domain = 0;
  std::string memory;  // for level "memory"
  std::string level;
  std::uint64_t working_set_bytes = 0;
  std::vector<double> samples_ns;  // ns per dependent load
  SampleStats stats;
  double cycles = 0;  // median ns × measured core frequency
  std::string status;
};

// A run of every core of the machine on one memory (contention) or on all memories interleaved
// (congestion): the total; what each domain obtained is in its roofs of the same placement.
struct SharedBandwidth : StreamMeasurement {
  std::string placement;  // contention or congestion
  std::string memory;     // OS index (contention); empty for congestion (all memories)
  std::string memory_kind;
  std::optional<double> placement_fraction;
  std::optional<double> interleave_evenness;  // congestion: 1 - distance to an even spread
};

// One point of a contention curve: bandwidth to one memory as threads are added, filling the
// memory's own domain first, then the domains by distance.
struct CurvePoint : StreamMeasurement {
  std::string memory;
};

// Core frequency measured with a dependent chain of integer adds, all cores of a domain busy.
struct FrequencyRecord {
  int domain = 0;
  int threads = 0;
  std::vector<double> samples_hz;
  SampleStats stats;
};

// One point of a model validation (METHOD §7): a mixed kernel of exact arithmetic intensity run
// with the threads, placement and working set of the roof it tests, against that roof's
// prediction min(AI × B, F).
struct ValidationPoint {
  int domain = 0;
  std::string roof;       // the roof tested, e.g. "L2 load" or "memory 1 remote load"
  std::string level;      // L1, L2, L3, memory
  std::string memory;     // OS index, for memory roofs
  std::string placement;  // local, remote; empty for caches
  std::string access;     // the roof's access mix
  std::string op;         // fma, add: the FP instructions interleaved
  std::string precision;  // sp, dp
  std::string isa;
  std::string kernel;  // the mixed kernel's name
  int threads = 0;
  std::uint64_t working_set_bytes = 0;  // per thread, as run
  double ai = 0;                        // FLOP/byte, exact
  std::vector<double> samples;          // GFLOP/s, all threads together
  SampleStats stats;
  double roof_gbps = 0;         // B
  double ceiling_gflops = 0;    // F
  double predicted_gflops = 0;  // min(AI × B, F)
  double relative_error = 0;    // (median − predicted) / predicted
  std::string status;           // ok, unstable, misplaced, or why the point is absent
};

struct Results {
  nlohmann::json provenance = nlohmann::json::object();
  nlohmann::json topology = nlohmann::json::object();
  std::vector<Roof> roofs;
  std::vector<SweepPoint> sweep;
  std::vector<LatencyPoint> latency;
  std::vector<FrequencyRecord> frequency;
  std::vector<SharedBandwidth> shared;
  std::vector<CurvePoint> contention_curve;
  std::vector<ValidationPoint> validation;
  std::vector<std::string> warnings;
  bool complete = false;
  std::string incomplete_reason;  // why the run stopped early, when it did
};

nlohmann::json to_json(const Results& results);
// Throws std::runtime_error when the document is not a larm results file of a readable version.
Results results_from_json(const nlohmann::json& document);

}  // namespace larm::results
