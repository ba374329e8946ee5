// Where a size sweep may stop, and where it may step over a size.
#include "characterize/adaptive_sweep.h"

#include <algorithm>
#include <map>

#include "characterize/cache_capacity.h"
#include "characterize/working_set.h"
#include "results/statistics.h"

namespace larm::characterize {

SweepCurveLimits sweep_curve_limits(const topology::Domain& domain, int threads) {
  SweepCurveLimits limits;
  limits.cache_levels = domain.caches.size();
  for (std::size_t k = 0; k + 1 < domain.caches.size(); ++k) {
    limits.inner_levels_bytes += domain.caches[k].bytes_per_thread();
  }
  limits.smallest_memory_bytes = memory_working_set(0, threads);
  return limits;
}

SweepCurveLimits chase_curve_limits(const topology::Domain& lone) {
  SweepCurveLimits limits = sweep_curve_limits(lone, 1);
  limits.smallest_memory_bytes = 0;
  limits.probe_tolerance = kChaseProbeTolerance;
  return limits;
}

bool memory_plateau_reached(const std::vector<std::uint64_t>& sizes,
                            const std::vector<double>& costs, const SweepCurveLimits& limits) {
  if (sizes.empty() || sizes.size() != costs.size() || limits.cache_levels == 0) return false;
  if (sizes.back() < limits.smallest_memory_bytes) return false;
  const std::vector<Plateau> plateaus = find_plateaus(costs);
  if (plateaus.size() < limits.cache_levels + 1) return false;
  const Plateau& last = plateaus.back();
  if (last.last + 1 != costs.size() || last.last + 1 - last.first < kMemoryPlateauPoints) {
    return false;
  }
  if (sizes[last.first] <= limits.inner_levels_bytes) return false;
  if (last.cost < kMemoryJump * plateaus[plateaus.size() - 2].cost) return false;
  // Smoothed as the plateaus are (a running median of three): one noisy size does not decide.
  const std::vector<double> smooth = smoothed_costs(costs);
  const auto tail = smooth.end() - static_cast<std::ptrdiff_t>(kMemoryPlateauPoints);
  const auto [lo, hi] = std::minmax_element(tail, smooth.end());
  return *lo > 0 && *hi <= *lo * (1 + kMemoryPlateauTolerance);
}

bool SweepSeries::can_skip() const {
  if (points_.size() < 2 || stopped_at_ || candidate_) return false;
  const double a = points_[points_.size() - 2].second, b = points_.back().second;
  return a > 0 && b > 0 && std::max(a, b) <= std::min(a, b) * (1 + kFlatStep);
}

bool SweepSeries::add(std::uint64_t bytes, double cost) {
  const auto at = std::lower_bound(points_.begin(), points_.end(), bytes,
                                   [](const auto& p, std::uint64_t b) { return p.first < b; });
  const bool newest = at == points_.end();
  const auto inserted = points_.insert(at, {bytes, cost});
  bool transition = false;
  if (newest && inserted != points_.begin()) {
    const double before = std::prev(inserted)->second;
    transition = before <= 0 || cost <= 0 ||
                 std::max(before, cost) > std::min(before, cost) * (1 + kFlatStep);
  }
  // A rejected probe holds off the next candidate until the sweep reaches it.
  if (!stopped_at_ && !candidate_ && bytes >= probed_up_to_) {
    std::vector<std::uint64_t> sizes;
    std::vector<double> costs;
    for (const auto& [b, c] : points_) {
      sizes.push_back(b);
      costs.push_back(c);
    }
    if (memory_plateau_reached(sizes, costs, limits_)) {
      std::vector<double> tail;
      for (std::size_t k = points_.size() - kMemoryPlateauPoints; k < points_.size(); ++k) {
        tail.push_back(points_[k].second);
      }
      candidate_ = Candidate{points_.back().first, results::median(tail)};
    }
  }
  return transition;
}

void SweepSeries::confirm(std::optional<std::uint64_t> probe_bytes, std::optional<double> cost) {
  if (!candidate_) return;
  const Candidate candidate = *candidate_;
  candidate_.reset();
  if (!probe_bytes) {  // the planned sweep ends before a probe: it ends here
    stopped_at_ = candidate.bytes;
    memory_plateau_end_ = candidate.bytes;
    return;
  }
  probed_up_to_ = *probe_bytes;
  if (!cost) return;
  const double ratio = *cost / candidate.cost;
  const double tolerance = 1 + limits_.probe_tolerance;
  if (ratio <= tolerance && ratio >= 1 / tolerance) {
    stopped_at_ = *probe_bytes;
    memory_plateau_end_ = candidate.bytes;
  }
}

bool walk_sweep(SweepSeries& series, const std::vector<std::uint64_t>& sizes,
                std::optional<std::uint64_t> limit,
                const std::function<SweepMeasured(std::size_t)>& measure,
                const std::function<void(std::size_t)>& leave_out) {
  constexpr std::size_t kNone = static_cast<std::size_t>(-1);
  std::size_t stepped_over = kNone;  // a size stepped over, until the next one is measured
  // Probes measured ahead of the walk (their cost, none when it failed), until it reaches them.
  std::map<std::size_t, std::optional<double>> probes;
  const auto within_limit = [&](std::size_t k) { return !limit || sizes[k] <= *limit; };
  // A measured point into the series; the skipped size before it when it shows a transition; a
  // candidate memory plateau confirmed (or not) by a probe at twice its size. False: stop the run.
  std::function<bool(std::size_t, std::optional<double>)> take = [&](std::size_t k,
                                                                     std::optional<double> cost) {
    const bool transition = cost && series.add(sizes[k], *cost);
    if (stepped_over != kNone) {
      const std::size_t between = stepped_over;
      stepped_over = kNone;
      if (!transition) {
        leave_out(between);
      } else {
        // The curve moved: the size between is measured after all.
        const SweepMeasured again = measure(between);
        if (again.stop) return false;
        if (!take(between, again.cost)) return false;
      }
    }
    if (!series.candidate()) return true;
    std::size_t probe = k + 1;
    while (probe < sizes.size() && sizes[probe] < 2 * series.candidate()->bytes) ++probe;
    if (probe == sizes.size() || !within_limit(probe)) {
      series.confirm(std::nullopt, std::nullopt);
      return true;
    }
    const SweepMeasured at = measure(probe);
    if (at.stop) return false;
    probes[probe] = at.cost;
    series.confirm(sizes[probe], at.cost);
    return true;
  };
  for (std::size_t k = 0; k < sizes.size(); ++k) {
    // A probe joins the curve when the walk reaches it (a sweep stops at its probe, never before).
    if (const auto probe = probes.find(k); probe != probes.end()) {
      if (probe->second && !take(k, probe->second)) return false;
      continue;
    }
    if (series.stopped_at() || !within_limit(k)) {
      leave_out(k);
      continue;
    }
    // Never the last size within the limit: nothing after it would bring it back, and the sweep
    // would end a step short of its end (at 128 MiB of a 190 MiB end, here).
    if (stepped_over == kNone && k + 1 < sizes.size() && within_limit(k + 1) && series.can_skip()) {
      stepped_over = k;
      continue;
    }
    const SweepMeasured measured = measure(k);
    if (measured.stop) return false;
    if (!take(k, measured.cost)) return false;
  }
  if (stepped_over != kNone) leave_out(stepped_over);
  return true;
}

}  // namespace larm::characterize
