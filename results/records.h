// The records a characterization produces: roofs, size sweep, latencies, frequencies, provenance.
// Runners fill them with raw samples; writers (JSON, CSV, tables) only format them.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "results/provenance_record.h"
#include "results/roof_interval.h"
#include "results/statistics.h"
#include "results/topology_record.h"
#include "results/vocabulary.h"

namespace larm::results {

// Bumped on any change that an older reader would misread; documented in results/SCHEMA.md.
inline constexpr const char* kSchemaVersion = "1.12";

// Samples of a measurement that were interfered with: their threads were descheduled,
// stolen from by the hypervisor or slowed (kernels/interference.h says the thresholds). They are
// re-taken and left out; when the retries run out, the last ones are kept and `kept` counts them.
struct Interference {
  int samples = 0;     // interfered samples found (re-taken or kept)
  int kept = 0;        // of which pooled because the retries ran out
  std::string reason;  // the last one's, e.g. "thread 1 off its CPU 12 % of the sample"
  bool any() const { return samples > 0; }
  Interference& operator+=(const Interference& other) {
    samples += other.samples;
    kept += other.kept;
    if (!other.reason.empty()) reason = other.reason;
    return *this;
  }
};

// The status samples give a record that is not misplaced or absent: unstable when they spread
// more than threshold, or when interfered samples had to be kept; ok otherwise.
inline Status sampled_status(const SampleStats& stats, const Interference& interference,
                             double threshold) {
  if (interference.kept > 0) return Status::unstable;
  return is_unstable(stats, threshold) ? Status::unstable : Status::ok;
}

// A roof's value from the passes measured in one placement state: the host moved the
// run's cores between states whose shared resources differ (an L3 shared or not), and one value
// over both would be neither's.
struct StateRoof {
  std::string state;  // as the placement probes name it: "near", "far: CPUs 0-1"
  double value = 0;   // the run's estimator over this state's samples
  RoofInterval interval;
  int samples = 0;
  int passes = 0;
  bool model = false;  // the state the roof's value is taken from
};

// One roof: a bandwidth slope (GB/s) or a FLOP ceiling (GFLOP/s) of one domain.
struct Roof {
  int domain = 0;
  Level level = Level::L1;
  std::optional<MemoryRef> memory;     // level memory, except congestion (every memory)
  std::string memory_kind;             // DRAM, MCDRAM, HBM, NVM... from hwloc, for memories
  std::optional<Placement> placement;  // level memory only
  Access access = Access::load;        // bandwidth roofs
  FlopOp op = FlopOp::fma;             // FLOP ceilings
  std::optional<Precision> precision;  // FLOP ceilings only
  Isa isa = Isa::sse2;
  int threads = 0;
  std::uint64_t working_set_bytes = 0;  // per thread, as run (a whole number of kernel chunks)
  std::vector<double> samples;          // in unit()
  SampleStats stats;
  // The one value the model uses (plots, place, validation): the run's estimator over the
  // samples (provenance roof_estimator; files without it: the median). 0 when absent.
  double roof = 0;
  std::optional<double> placement_fraction;      // pages found on the intended memories
  std::optional<double> huge_page_fraction;      // of its buffers of 2 MiB or more (bound ones)
  std::optional<double> instructions_per_cycle;  // per core, FLOP ceilings only
  std::optional<double> documented_ipc;          // vendor figure, when larm knows it
  // Each pass's value, and the interval the value would take again (roof_interval.h); none in
  // files from before schema 1.6.
  std::vector<double> pass_values;
  std::optional<RoofInterval> interval;
  // Several placement states seen during its passes (characterize/state_roofs.h): each state's
  // value; roof and interval are then the model's state's.
  std::vector<StateRoof> by_state;
  Interference interference;
  Status status = Status::ok;
  std::string status_reason;  // why the roof is absent

  bool present() const { return !samples.empty(); }
  // What the model uses: measured, and measuring its own level (not indistinct).
  bool in_model() const { return present() && status != Status::indistinct; }
  bool is_ceiling() const { return level == Level::flops; }
  const char* unit() const { return is_ceiling() ? "GFLOP/s" : "GB/s"; }
  // The operation of a ceiling or the access mix of a bandwidth roof, as the files write it.
  const char* operation() const { return is_ceiling() ? name(op) : name(access); }
};

// What every point of a bandwidth series has: the kernel, the threads and the samples.
struct StreamMeasurement {
  Access access = Access::load;
  Isa isa = Isa::sse2;
  int threads = 0;
  std::uint64_t working_set_bytes = 0;  // per thread
  std::vector<double> samples;          // GB/s, all threads together
  SampleStats stats;
  std::optional<double> huge_page_fraction;  // of its buffers of 2 MiB or more (bound ones)
  Interference interference;
  Status status = Status::ok;
  std::string status_reason;
};

// One point of bandwidth vs working-set size.
struct SweepPoint : StreamMeasurement {
  int domain = 0;
};

// Load-to-use latency of a working set, by pointer chase from one core over 2 MiB pages.
struct ChasePoint {
  int domain = 0;
  std::optional<MemoryRef> memory;  // the memory holding the chain
  std::uint64_t working_set_bytes = 0;
  std::vector<double> samples_ns;  // ns per dependent load
  SampleStats stats;
  std::optional<double> huge_page_fraction;  // its buffer, when 2 MiB or more
  Interference interference;
  Status status = Status::ok;
  std::string status_reason;
};

// The latency of one level or memory, at the level's working set (its memory: level memory).
struct LatencyPoint : ChasePoint {
  Level level = Level::L1;
  double cycles = 0;  // median ns × measured core frequency
  // A memory's latency on base pages (huge pages refused), beside the roof's on huge pages:
  // what a plain allocation past the TLB's reach pays, a page walk on top of each miss (1.9).
  bool base_pages = false;
};

// One cache level of a domain as a sweep finds it: the size hwloc declares, the
// plateau the level shows (the swept working sets whose cost stays near the level's), and the
// effective capacity: the largest swept size whose cost is still below the geometric middle of
// the level's plateau and the next one's. No plateau when the sweep shows none of the level's own
// (reason says why). Two sweeps: "latency" (one core, pointer chase; sizes per instance) sizes
// the latency runs; "bandwidth" (every core of the domain, load; sizes per thread) the roofs.
struct CacheCapacity {
  int domain = 0;
  Level level = Level::L1;
  SizeSweep sweep = SizeSweep::latency;
  std::uint64_t declared_bytes = 0;                  // per instance (latency) or thread (bandwidth)
  std::optional<std::uint64_t> effective_bytes;      // where the cost crosses the middle
  std::optional<std::uint64_t> plateau_start_bytes;  // the plateau's first and last swept size
  std::optional<std::uint64_t> plateau_end_bytes;
  std::optional<double> plateau_value;  // its median: ns (latency) or GB/s (bandwidth)
  std::string reason;                   // why there is no plateau, or the capacity was capped
  // False when unstable sweep points stand where the plateau or its edge would be: no capacity is
  // given then, rather than one read from points that disagree.
  bool settled = true;
};

// A run of every core of the machine on one memory (contention) or on all memories interleaved
// (congestion): the total; what each domain obtained is in its roofs of the same placement.
struct SharedBandwidth : StreamMeasurement {
  Placement placement = Placement::contention;  // contention or congestion
  std::optional<MemoryRef> memory;              // contention; none for congestion (all memories)
  std::string memory_kind;
  std::optional<double> placement_fraction;
  std::optional<double> interleave_evenness;  // congestion: 1 - distance to an even spread
};

// One point of a contention curve: bandwidth to one memory as threads are added, filling the
// memory's own domain first, then the domains by distance.
struct CurvePoint : StreamMeasurement {
  std::optional<MemoryRef> memory;
};

// One point of a loaded-latency curve: the chase's latency while the injectors ran with one
// delay between their accesses (none: the idle point, injectors still).
struct LoadedLatencyPoint {
  std::optional<std::uint32_t> delay;
  double injector_gbps = 0;        // the injectors' own line counts over the chase's samples
  std::vector<double> samples_ns;  // ns per dependent load, one per chase sample
  double p10_ns = 0;               // the samples' quantiles
  double p50_ns = 0;
  double p90_ns = 0;
  Interference interference;  // the chase's samples re-taken or kept, the point re-taken
  std::string disturbed;      // why the point stays disturbed; empty when clean
};

// A memory's latency under load, seen from one domain (Intel MLC's loaded latency, the Mess
// benchmark's curves): a pointer chase on the domain's first core while its other cores inject
// one mix of reads and writes into the same memory at rates set by a delay. The curve's idle
// latency, saturation and knee are roofline::summarize_loaded_curve's.
struct LoadedLatencyCurve {
  int domain = 0;                   // the chase's (and the injectors') domain
  std::optional<MemoryRef> memory;  // the chain's and the injected data's
  bool local = true;                // the memory is one of the domain's own
  std::string mix;                  // the injectors' lines read : written, "1", "2:1" or "1:1"
  double read_share = 1;
  unsigned chase_pu = 0;
  std::vector<unsigned> injector_pus;
  std::uint64_t chain_bytes = 0;
  std::uint64_t injector_bytes = 0;  // per injector
  std::optional<double> chain_placement;
  std::optional<double> injector_placement;
  std::vector<LoadedLatencyPoint> points;  // the idle point first, then by decreasing delay
  std::optional<double> idle_ns;           // the idle point's median
  double saturation_gbps = 0;              // the most the injectors reached
  std::optional<double> knee_gbps;         // where the median reaches 2 x idle; none: no_knee
  std::string no_knee;
  bool rises_within_intervals = true;  // by the load asked, each p90 at or above the previous p10
  bool medians_rise = true;            // by the load asked, each median at or above the previous
  Status status = Status::ok;
  std::string status_reason;

  bool present() const { return !points.empty(); }
};

// One point of a cache scaling curve (thesis figs. 2.11-2.12): bandwidth of a shared
// cache level as threads are added on the cores that share one instance of it, each thread's data
// in that level (the working set of the level's roof, per thread).
struct CacheCurvePoint : StreamMeasurement {
  int domain = 0;
  Level level = Level::L3;
};

// Core frequency measured with a dependent chain of register-register adds, all cores of a
// domain busy: alone (with an imul chain as its cross-check), or beside an ISA's FP load.
struct FrequencyRecord {
  int domain = 0;
  int threads = 0;
  std::optional<Isa> under;  // the ISA whose load ran beside the chain; none: the chain alone
  std::vector<double> samples_hz;
  SampleStats stats;
  std::vector<double> imul_samples_hz;  // chain alone only; empty when not measured
  Interference interference;
};

// One point of a model validation (METHOD §7): a mixed kernel of exact arithmetic intensity run
// with the threads, placement and working set of the roof it tests, against that roof's
// prediction min(AI × B, F).
struct ValidationPoint {
  int domain = 0;
  std::string roof;                    // the roof tested, e.g. "L2 load" or "memory 1 remote load"
  Level level = Level::L1;             // L1, L2, L3, memory
  std::optional<MemoryRef> memory;     // memory roofs (not congestion)
  std::optional<Placement> placement;  // memory roofs
  Access access = Access::load;        // the roof's access mix
  FlopOp op = FlopOp::fma;             // the FP instructions interleaved
  Precision precision = Precision::dp;
  Isa isa = Isa::sse2;
  std::string kernel;  // the mixed kernel's name
  int threads = 0;
  std::uint64_t working_set_bytes = 0;  // per thread, as run
  double ai = 0;                        // FLOP/byte, exact
  std::vector<double> samples;          // GFLOP/s, all threads together, of every pass
  SampleStats stats;
  // The point's value: its samples under the roofs' own estimator (since 1.12; a point read
  // against a p90 roof by its median would count the host's slow moments as the model's error).
  // Files before 1.12: the median.
  double gflops = 0;
  Estimator estimator = Estimator::median;
  double roof_gbps = 0;         // B
  double ceiling_gflops = 0;    // F
  double predicted_gflops = 0;  // min(AI × B, F)
  double relative_error = 0;    // (gflops − predicted) / predicted
  // The roof's own kernel measured in the same passes as the point, with its threads, placement
  // and working set (since 1.12): a roof that moved since the characterization (a shared host's
  // memory bandwidth drifts with its neighbours over minutes) is told from a model that is wrong.
  // Its samples under `estimator`, GB/s; the point's error against min(AI × it, F).
  std::optional<double> roof_gbps_alongside;
  std::optional<double> relative_error_alongside;
  Status status = Status::ok;
  std::string status_reason;  // why the point is absent
  // The placement state the probes before and after its roof's points both saw (since 1.11):
  // the point is predicted from the roof's value in that state when the roof has one
  // (Roof::by_state). None: not probed, or the host moved the cores while they ran.
  std::optional<std::string> placement_state;
};

struct Results {
  Provenance provenance;
  TopologyRecord topology;
  std::vector<Roof> roofs;
  std::vector<SweepPoint> sweep;
  std::vector<LatencyPoint> latency;
  std::vector<ChasePoint> latency_sweep;  // one core, 1 KiB to 4 × the declared LLC
  std::vector<CacheCapacity> capacities;  // from the latency and bandwidth sweeps
  std::vector<FrequencyRecord> frequency;
  std::vector<SharedBandwidth> shared;
  std::vector<CurvePoint> contention_curve;
  std::vector<CacheCurvePoint> cache_scaling;      // per domain and shared cache level
  std::vector<LoadedLatencyCurve> loaded_latency;  // per memory, chase domain and mix
  std::vector<ValidationPoint> validation;
  std::vector<std::string> warnings;
  bool complete = false;
  std::string incomplete_reason;  // why the run stopped early, when it did
};

// Calls f on every measurement record of the results (frequency, roofs, sweep, latency, shared,
// latency sweep, contention curve, cache scaling), each with its own type; R is Results or const
// Results.
template <typename R, typename F>
void for_each_measurement(R& results, F&& f) {
  for (auto& record : results.frequency) f(record);
  for (auto& record : results.roofs) f(record);
  for (auto& record : results.sweep) f(record);
  for (auto& record : results.latency) f(record);
  for (auto& record : results.latency_sweep) f(record);
  for (auto& record : results.shared) f(record);
  for (auto& record : results.contention_curve) f(record);
  for (auto& record : results.cache_scaling) f(record);
}

// The interference every measurement met, together; `measurements`: how many met any.
struct InterferenceTotal {
  int measurements = 0;
  Interference interference;
};
inline InterferenceTotal interference_total(const Results& results) {
  InterferenceTotal total;
  for_each_measurement(results, [&](const auto& record) {
    if (!record.interference.any()) return;
    ++total.measurements;
    total.interference += record.interference;
  });
  return total;
}

// The ISA of the run's bandwidth kernels, as its provenance records it (none when it does not).
std::optional<Isa> kernel_isa(const Results& results);

// The estimator of the roofs' values (provenance roof_estimator; files without it: the median).
Estimator roof_estimator(const Results& results);

// A domain's measured core clock (the median of its add chain) under an ISA's FP load, or alone
// when `under` is none or was not measured under that ISA; 0 when the domain has no clock.
double core_hz(const Results& results, int domain, std::optional<Isa> under = std::nullopt);

// A measured number, or null when there is none (or it is not finite), in every results file;
// number_member reads it back: none when the member is missing, null or not a number.
nlohmann::json number_or_null(const std::optional<double>& value);
std::optional<double> number_member(const nlohmann::json& object, const char* key);

// The JSON form of sample statistics, the same in every results file.
nlohmann::json stats_json(const SampleStats& stats);

nlohmann::json to_json(const Results& results);
// One loaded-latency curve as results.json and larm loaded-latency's file write it.
nlohmann::json loaded_curve_json(const LoadedLatencyCurve& curve);
// Throws std::runtime_error when the document is not a larm results file of a readable version.
Results results_from_json(const nlohmann::json& document);

}  // namespace larm::results
