// Adaptive size sweeps. A sweep over working-set sizes is planned to 4 x the declared
// last-level cache, which on a VM or a shared host may be hundreds of MiB the run never gets; it
// stops instead once it has established the memory plateau, and inside a flat plateau it measures
// every other size, going back for the skipped one when the next size shows a transition (coarse
// where the curve is flat, fine where it moves).
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <tuple>
#include <vector>

#include "characterize/cache_capacity.h"
#include "topology/topology.h"

namespace larm::characterize {

// The memory plateau is established when the curve so far (costs rising with the level that
// serves the size: ns per load, or 1 / GB/s) has
//  - one plateau (cache_capacity.h's) more than the domain has cache levels, the last one reaching
//    the newest point: every level has shown its own, and the curve is past the last;
//  - its last kMemoryPlateauPoints costs within kMemoryPlateauTolerance of each other (a plateau
//  may
//    rise by 25 % over its length; memory's is flat);
//  - its cost at least kMemoryJump x the cost of the plateau before it: a level that slopes (a
//    VM's L3 from 1 to 32 MiB) breaks into plateaus 25 % apart, and memory is never that close to
//    the last cache (DRAM latency is several times an L3's; its bandwidth, from one core or all,
//    at most about half);
//  - that plateau starting beyond what the levels below the last cache hold (their declared size:
//    no cache holds more than it declares), so that a burst of noise among the inner levels is
//    never taken for a level;
//  - the sweep past the memory runs' smallest working set (64 MiB in all).
// A domain whose curve never shows one plateau per level (a level hidden, or two levels alike)
// runs the whole planned sweep.
inline constexpr std::size_t kMemoryPlateauPoints = 3;
inline constexpr double kMemoryPlateauTolerance = 0.10;
inline constexpr double kMemoryJump = 1.4;
// Two consecutive measured sizes within this of each other are inside a plateau: the next size is
// skipped (and measured after all when the one after it differs by more).
inline constexpr double kFlatStep = 0.05;

struct SweepCurveLimits {
  // How far the confirming probe's cost may be from the candidate plateau's, as a ratio - 1.
  double probe_tolerance = kPlateauRise;
  std::size_t cache_levels = 0;
  std::uint64_t inner_levels_bytes = 0;  // per thread (per instance for the one-core chase)
  std::uint64_t smallest_memory_bytes = 0;
};

// The limits of a sweep of `threads` threads over the domain's sizes.
SweepCurveLimits sweep_curve_limits(const topology::Domain& domain, int threads);
// The one-core pointer chase's (single_core_view): no least size, its latency runs are sized
// apart from it; its probe may cost up to kChaseProbeTolerance more or less than the plateau: past
// the last cache a chase's latency keeps rising with the page walks (in a VM, nested ones: 150 ns
// at 16 MiB, 460 ns at 2 GiB here), while a probe from the middle of the fall from L3 to memory
// lands at memory, several times higher.
inline constexpr double kChaseProbeTolerance = 0.5;
SweepCurveLimits chase_curve_limits(const topology::Domain& lone);

// sizes ascending, costs of the same points.
bool memory_plateau_reached(const std::vector<std::uint64_t>& sizes,
                            const std::vector<double>& costs, const SweepCurveLimits& limits);

// One sweep's progress: the points measured, where it stopped, the size it skipped.
class SweepSeries {
 public:
  explicit SweepSeries(SweepCurveLimits limits) : limits_(limits) {}

  // Whether the next planned size can be skipped: the last two measured sizes are flat.
  bool can_skip() const;
  // A measured point (size ascending, except a skipped one measured after all); returns whether it
  // showed a transition since the previous measured point (the skipped size between is wanted).
  bool add(std::uint64_t bytes, double cost);
  std::optional<std::uint64_t> stopped_at() const { return stopped_at_; }
  // The last size of the plateau the stop took for memory's (the probe, if any, lies past it).
  std::optional<std::uint64_t> memory_plateau_end() const { return memory_plateau_end_; }

  // A plateau that looks like memory's (memory_plateau_reached), ending at `bytes` with a median
  // cost over its last points; it is memory's if a probe at twice its size costs the same.
  struct Candidate {
    std::uint64_t bytes = 0;
    double cost = 0;
  };
  std::optional<Candidate> candidate() const { return candidate_; }
  // The probe's size and cost: within the limits' probe_tolerance of the candidate's cost, the
  // sweep stops at the probe; else it goes on (no candidate before it reaches the probe's size). No
  // probe size: the planned sweep ends first, and stops at the candidate.
  void confirm(std::optional<std::uint64_t> probe_bytes, std::optional<double> cost);

 private:
  SweepCurveLimits limits_;
  std::vector<std::pair<std::uint64_t, double>> points_;  // ascending
  std::optional<std::uint64_t> stopped_at_;
  std::optional<std::uint64_t> memory_plateau_end_;
  std::optional<Candidate> candidate_;
  std::uint64_t probed_up_to_ = 0;
};

// What measuring one size of a sweep gave: its cost (none when it failed), or that the run stops.
struct SweepMeasured {
  std::optional<double> cost;
  bool stop = false;
};

// Walks one sweep's planned sizes (ascending) with the series: once the sweep has stopped (or
// beyond `limit`, where the load sweep of a copy sweep ended) a size is left out; inside a flat
// stretch every other size is stepped over, and measured after the next one when that one shows a
// transition; a candidate memory plateau is confirmed by measuring the first planned size at
// twice its end (a transition from the last cache to memory can hold three sizes within 10 % on
// its way down). Returns false when a measurement said stop.
bool walk_sweep(SweepSeries& series, const std::vector<std::uint64_t>& sizes,
                std::optional<std::uint64_t> limit,
                const std::function<SweepMeasured(std::size_t)>& measure,
                const std::function<void(std::size_t)>& leave_out);

}  // namespace larm::characterize
