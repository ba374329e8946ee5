// The plan: every measurement of a characterization, enumerated as
// (domain × memory × access × threads) before anything runs, with its estimated time.
#pragma once

#include <array>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "characterize/shared_prefix.h"
#include "codegen/kernel_spec.h"
#include "kernels/loaded_latency.h"
#include "topology/topology.h"

namespace larm::characterize {

// capacity: one point of the one-core latency sweep that finds each cache's effective capacity.
enum class MeasurementKind { frequency, capacity, bandwidth, flops, sweep, latency, curve, loaded };
const char* name(MeasurementKind kind);
std::optional<MeasurementKind> parse_measurement_kind(std::string_view text);
// The kinds --only chooses from: every kind but frequency, which comes with the others.
const std::vector<MeasurementKind>& selectable_kinds();

// The sweeps draw curves and find where plateaus end; they are not roofs, and the roofs are sized
// from them: they run in the first pass only, the bandwidth sweep with all its samples, the
// latency sweep with a few short ones. The loaded-latency curves are pictures of one memory
// under load, measured once. The scaling curves (bandwidth as threads are added) are
// pictures too, and their model takes ratios of their points: they run once, like the bandwidth
// sweep (on the 96-core x3950, 4 memories' curves of 32 points each were priced at 39 s of its
// 161 s in 3 passes).
inline bool first_pass_only(MeasurementKind kind) {
  return kind == MeasurementKind::capacity || kind == MeasurementKind::sweep ||
         kind == MeasurementKind::curve || kind == MeasurementKind::loaded;
}
// The measurements drawn once with half the samples, half as long: the bandwidth sweeps and
// the scaling curves.
inline bool drawn_once(MeasurementKind kind) {
  return kind == MeasurementKind::sweep || kind == MeasurementKind::curve;
}
// A loaded-latency curve's points (kernels/loaded_latency.h): an idle point, then these delays
// between the injectors' accesses, 10 points from a few accesses per microsecond to all they can
// (longer delays read as idle); each point the run's samples of a chase of at least 2 ms (a
// pass's 10 ms would make one memory's curves five times as long).
inline constexpr std::array<std::uint32_t, 9> kLoadedDelays = {1024, 256, 64, 16, 8, 4, 2, 1, 0};
inline constexpr double kLoadedSampleSeconds = 0.002;
inline constexpr int kCapacitySamples = 3;
inline constexpr int kCapacityPointsPerOctave = 4;
inline constexpr double kCapacitySampleSeconds = 0.005;
// The bandwidth sweeps draw a curve and find its plateaus: their samples are half as long as a
// roof's, and half as many (rounded up); so are the scaling curves'.
inline constexpr double kSweepSampleFraction = 0.5;
inline int sweep_samples(int samples) {
  return (samples + 1) / 2;
}
// Pass `pass`'s share of a measurement's samples over `passes` interleaved passes: the shares add
// up to `samples`, the first passes taking one more where they do not divide (5 over 2: 3 + 2;
// 11 over 3: 4 + 4 + 3).
inline int pass_share(int samples, int passes, int pass) {
  const auto upto = [&](int p) { return (samples * p + passes - 1) / passes; };
  return passes <= 1 ? samples : upto(pass + 1) - upto(pass);
}

struct PlannedMeasurement {
  MeasurementKind kind = MeasurementKind::bandwidth;
  int domain = 0;                   // -1: every core of the machine (contention, congestion, curve)
  std::optional<Level> level;       // none for frequency
  std::optional<MemoryRef> memory;  // the memory holding the data; none for congestion
  std::optional<Placement> placement;   // memory level only
  codegen::KernelSpec spec;             // the stream or flops kernel
  SharedPrefix<unsigned> pus;           // one thread per PU
  SharedPrefix<int> pu_domains;         // domain of each PU, for machine-wide runs
  std::uint64_t working_set_bytes = 0;  // per thread, before rounding to kernel chunks
  // Loaded latency only: the injectors' mixes, one curve each, and each injector's bytes (the
  // chain's are working_set_bytes; the chase runs on the first PU, the others inject).
  std::vector<kernels::InjectorMix> mixes;
  std::uint64_t injector_bytes = 0;
  // Memory latency only: the chain on base pages (results::LatencyPoint::base_pages).
  bool base_pages = false;
  std::string absent_reason;  // not run: recorded as absent with this reason
  double estimated_seconds = 0;

  std::string label() const;
};

struct PlanOptions {
  bool quick = false;
  int samples = 11;
  int passes = 3;  // interleaved passes over the plan, each with ceil(samples / passes) samples
  double min_sample_seconds = 0.01;
  larm::Isa isa = codegen::widest_isa();  // bandwidth kernels; covers the FLOP ISAs
  std::vector<larm::Isa> flop_isas;       // the ceilings' ISAs
  std::string isa_basis;     // for a saved topology: why these ISAs (its CPU's, or the widest)
  std::vector<int> domains;  // empty: every domain
  std::set<MeasurementKind> only;  // empty: every kind
  int sweep_points_per_octave = 4;
  // Pricing only: the share of each declared last-level cache a run gets (llc_probe.h). The
  // measurements stay those of the declared sizes; their estimates follow the sizes the run will
  // use (memory working sets of 4 x the usable cache, sweeps stopping past it). 1: as declared.
  double usable_llc_fraction = 1;
  // Pricing only: how long this run's probe of the usable last-level cache took (on this
  // machine; part of Plan::fixed_seconds).
  double llc_probe_seconds = 0;
  // Every domain runs its own size sweeps, capacity sweep and cache scaling curves; otherwise a
  // domain alike another (twin_domains.h) is sized from the other's.
  bool sweep_every_domain = false;
};

// The most samples per measurement and size-sweep points per octave a plan takes: far above any
// useful run (the default is 11 samples, 4 points), low enough that a plan stays in memory and
// its estimate in hours rather than years.
inline constexpr int kMaxSamples = 1000;
inline constexpr int kMaxSweepPointsPerOctave = 64;
// The longest time budget (--max-time) in seconds: 115 days.
inline constexpr double kMaxRunSeconds = 1e7;

// What is wrong with options for topology, in one line, or "" when nothing is: samples and passes
// (1 <= passes <= samples <= kMaxSamples), sample length (1 ms to 1 s), sweep points, the usable
// share of the last-level cache, domains the topology has, and, on the live machine, ISAs this
// CPU runs. The command line and a journal's header are checked by it alike.
std::string plan_options_problem(const PlanOptions& options, const topology::Topology& topology);

// The machine's cores, one PU per core, ordered to fill memory m's own domains first, then the
// other domains by their distance to m (hwloc distances; domain order when there are none).
std::vector<std::pair<unsigned, int>> cores_by_distance(const topology::Topology& topology,
                                                        int memory);

// Thread counts of a contention curve over n cores: every count up to 16, then 16 steps.
std::vector<int> curve_thread_counts(int cores);

// The share of domain d's last-level cache that `threads` of its cores, taken in its order,
// reach: one instance per max_sharing_cores of them (hwloc's logical order, which a domain's
// cores follow, keeps an instance's cores together). A contention curve's first points run on
// a few cores: their memory working set is 4 x the cache those cores can fill, not the machine's.
double reached_llc_share(const topology::Domain& d, std::size_t threads);

// How many of a machine-wide measurement's threads run on each domain.
std::map<int, std::size_t> threads_by_domain(const SharedPrefix<int>& pu_domains);

// The bytes of last-level cache a machine-wide run's threads reach: each domain's, llc(domain),
// times the share its threads reach.
template <typename LlcOf>
std::uint64_t reached_llc_bytes(const topology::Topology& topology,
                                const std::map<int, std::size_t>& threads, LlcOf llc) {
  std::uint64_t bytes = 0;
  for (const auto& [index, n] : threads) {
    const topology::Domain& d = topology.domains()[static_cast<std::size_t>(index)];
    bytes += static_cast<std::uint64_t>(static_cast<double>(llc(d)) * reached_llc_share(d, n));
  }
  return bytes;
}

// The bytes of its chain a pointer chase walks to warm up (kernels::LatencyRequest; 0: the
// whole cycle): half of a memory latency's chain, which is 4 x the cache one thread gets or more
// (working_set.h), so twice that cache.
inline std::uint64_t chase_warm_up_bytes(const PlannedMeasurement& m) {
  return m.kind == MeasurementKind::latency && m.level == Level::memory ? m.working_set_bytes / 2
                                                                        : 0;
}

// Defaults of a quick or full run: samples 5/11 in 2/3 passes, sample length 10 ms, sweep 2/4
// per octave.
PlanOptions default_plan_options(bool quick);

struct Plan {
  std::vector<PlannedMeasurement> measurements;
  larm::Isa isa = codegen::widest_isa();  // PlanOptions': the bandwidth kernels'
  std::vector<larm::Isa> flop_isas;       // and the FLOP ceilings'
  std::string isa_basis;                  // PlanOptions': why these, for a saved topology
  double estimated_seconds = 0;           // the measurements': the sum of theirs
  // The run's part outside its measurements, on this machine (0 for a topology file, which runs
  // nothing): larm doctor before the run and after it, and the probe of the usable last-level
  // cache. 1.3 s of a quick run's 8 on the Zen 3 guest, which the estimate left out until then.
  double fixed_seconds = 0;
  double total_seconds() const { return estimated_seconds + fixed_seconds; }
  double usable_llc_fraction = 1;  // PlanOptions': the run's chase sweeps stop past it
  // Domain -> the twin whose sweeps size its roofs and latencies (twin_domains.h); its own
  // sweeps, capacity sweep and cache scaling curves are not in the plan.
  std::map<int, int> sized_from;
  int to_run = 0;
  int absent = 0;
};

Plan make_plan(const topology::Topology& topology, const PlanOptions& options);

// The domain as the estimate prices it: its last level at `fraction` of its declared size (the
// share a run gets, llc_probe.h), and still twice per thread what the level under it holds (a
// level of its own), never more than declared.
topology::Domain usable_view(const topology::Domain& domain, double fraction);

// How estimated_seconds is computed, for `larm plan` and docs/method.md.
extern const char* const kEstimateMethod;

}  // namespace larm::characterize
