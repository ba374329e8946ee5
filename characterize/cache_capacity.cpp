// Cost plateaus of the latency and bandwidth sweeps, matched to the declared cache levels.
#include "characterize/cache_capacity.h"

#include <algorithm>
#include <cmath>
#include <iterator>
#include <limits>
#include <string>

#include "characterize/working_set.h"
#include "results/statistics.h"

namespace larm::characterize {
namespace {

// Each point replaced by the median of itself and its neighbours (the mean of two at the ends),
// so that one noisy point neither ends a plateau nor starts one.
std::vector<double> smoothed(const std::vector<double>& cost) {
  std::vector<double> out(cost.size());
  for (std::size_t k = 0; k < cost.size(); ++k) {
    const std::size_t lo = k == 0 ? 0 : k - 1;
    const std::size_t hi = std::min(cost.size() - 1, k + 1);
    std::vector<double> window(cost.begin() + static_cast<std::ptrdiff_t>(lo),
                               cost.begin() + static_cast<std::ptrdiff_t>(hi) + 1);
    out[k] = window.size() == 2 ? (window[0] + window[1]) / 2 : results::median(window);
  }
  return out;
}

// One swept size and its cost (rising with the level that serves it) and value as recorded;
// unsettled when its samples spread past the threshold or interfered samples were kept.
struct CurvePoint {
  std::uint64_t bytes = 0;
  double cost = 0;
  double value = 0;
  bool settled = true;
};

// The unsettled sizes strictly between lo and hi, in words ("20.0 KiB and 44.0 KiB").
std::string unsettled_between(const std::vector<CurvePoint>& all, std::uint64_t lo,
                              std::uint64_t hi) {
  std::vector<std::string> sizes;
  for (const CurvePoint& p : all) {
    if (p.settled || p.bytes <= lo || p.bytes >= hi) continue;
    // A size measured again (a refinement) and settled then is settled.
    const bool settled_again = std::any_of(all.begin(), all.end(), [&](const CurvePoint& q) {
      return q.bytes == p.bytes && q.settled;
    });
    const std::string text = results::bytes_text(p.bytes);
    if (!settled_again && std::find(sizes.begin(), sizes.end(), text) == sizes.end()) {
      sizes.push_back(text);
    }
  }
  std::string text;
  for (std::size_t i = 0; i < sizes.size(); ++i) {
    text += (i == 0 ? "" : i + 1 == sizes.size() ? " and " : ", ") + sizes[i];
  }
  return text;
}

double median_between(const std::vector<double>& values, std::size_t first, std::size_t last) {
  return results::median(
      std::vector<double>(values.begin() + static_cast<std::ptrdiff_t>(first),
                          values.begin() + static_cast<std::ptrdiff_t>(last) + 1));
}

// The plateaus of a smoothed cost curve (find_plateaus).
std::vector<Plateau> plateaus_of(const std::vector<double>& m) {
  std::vector<Plateau> plateaus;
  std::size_t k = 0;
  while (k < m.size()) {
    std::size_t last = k;
    double lo = m[k], hi = m[k];
    while (last + 1 < m.size()) {
      const double nlo = std::min(lo, m[last + 1]), nhi = std::max(hi, m[last + 1]);
      if (nhi > nlo * (1 + kPlateauRise)) break;
      lo = nlo;
      hi = nhi;
      ++last;
    }
    if (last + 1 - k < kPlateauPoints) {
      ++k;  // a transition point
      continue;
    }
    const double median = median_between(m, k, last);
    // A level's cost never falls as the working set grows: a plateau back at (or near) the cost
    // of an earlier one makes everything between them noise (a neighbour's burst over a few
    // consecutive sizes), and one plateau with it.
    auto earlier = std::find_if(plateaus.begin(), plateaus.end(), [&](const Plateau& p) {
      return median <= p.cost * (1 + kPlateauRise);
    });
    if (earlier != plateaus.end()) {
      earlier->last = last;
      earlier->cost = median_between(m, earlier->first, last);
      plateaus.erase(earlier + 1, plateaus.end());
    } else {
      plateaus.push_back({k, last, median});
    }
    k = last + 1;
  }
  return plateaus;
}

// The levels' capacities from a curve (any order); declared(cache) is the size the sweep's sizes
// are comparable to.
// Only settled points make a plateau or place its edge: an edge with unsettled points on either
// side of it is not placed, and the level says so instead of giving a number.
template <typename Declared>
std::vector<results::CacheCapacity> match(const topology::Domain& domain, SizeSweep sweep,
                                          std::vector<CurvePoint> all, Declared declared) {
  if (all.empty()) return {};  // nothing measured: no capacity to state
  std::sort(all.begin(), all.end(), [](auto& a, auto& b) { return a.bytes < b.bytes; });
  std::vector<CurvePoint> curve;
  std::copy_if(all.begin(), all.end(), std::back_inserter(curve),
               [](const CurvePoint& p) { return p.settled; });
  std::vector<double> cost;
  for (const CurvePoint& p : curve) cost.push_back(p.cost);
  const std::vector<double> m = smoothed(cost);
  const std::vector<Plateau> plateaus = plateaus_of(m);
  // The last plateau is memory's, not a cache's, when it reaches the sweep's last octave (the
  // sweep ends well past the caches); the plateau after each cache's gives its threshold.
  std::size_t cache_plateaus = plateaus.size();
  if (cache_plateaus > 1 && 2 * curve[plateaus.back().last].bytes >= curve.back().bytes) {
    --cache_plateaus;
  }

  std::vector<results::CacheCapacity> capacities;
  // Effective: the last size before the cost first passes the geometric middle of plateau p's
  // cost and the next level's plateau's (or the sweep's last point's). The edge lies between that
  // size and the next settled one: unsettled sizes there leave it unplaced (text: which).
  struct Edge {
    std::uint64_t bytes = 0;
    std::string unsettled;
  };
  const auto effective = [&](const Plateau& p, std::size_t next_level) {
    const double after = next_level < plateaus.size() ? plateaus[next_level].cost : m.back();
    const double middle = std::sqrt(p.cost * after);
    std::size_t k = p.last;
    while (k + 1 < m.size() && m[k + 1] <= middle) ++k;
    const std::uint64_t beyond =
        k + 1 < curve.size() ? curve[k + 1].bytes : std::numeric_limits<std::uint64_t>::max();
    return Edge{curve[k].bytes, unsettled_between(all, curve[k].bytes, beyond)};
  };
  // A cache holds no more than its size: a plateau that runs on past its level's declared size
  // had the levels above serve those sizes as fast (on the 16-core Xeon guest, a host slowing the
  // cores in phases made one load plateau of 1 KiB - 12 MiB per thread, and the "L1" roof ran at
  // 5.9 MiB per thread). Its effective capacity is then the declared size, and the reason says so.
  const auto capped = [&](results::CacheCapacity& c, const Edge& edge) {
    const std::uint64_t bytes = edge.bytes;
    if (!edge.unsettled.empty() && bytes < c.declared_bytes) {
      c.effective_bytes.reset();
      c.settled = false;
      c.reason = "its edge is not settled: the " + std::string(name(sweep)) +
                 " sweep leaves its plateau after " + results::bytes_text(bytes) +
                 ", where the points at " + edge.unsettled +
                 " are unstable; no effective capacity is given";
      return;
    }
    c.reason.clear();
    c.settled = true;
    if (bytes <= c.declared_bytes) {
      c.effective_bytes = bytes;
      return;
    }
    c.effective_bytes = c.declared_bytes;
    c.reason =
        std::string("its ") + std::string(name(sweep)) + " plateau runs on to " +
        results::bytes_text(bytes) + ", past its declared " +
        results::bytes_text(c.declared_bytes) +
        " (the levels above served those sizes as fast): effective capacity taken as declared";
  };
  std::size_t next = 0;
  std::uint64_t below = 0;  // the declared size of the level before, comparable to the sweep's
  const Plateau* below_plateau = nullptr;
  for (const topology::CacheLevel& cache : domain.caches) {
    results::CacheCapacity c;
    c.domain = domain.index;
    c.level = cache.level();
    c.sweep = sweep;
    c.declared_bytes = declared(cache);
    // A plateau that starts within half of the level before is that level's data, slowed over a
    // few sizes by the host: not this level's, and the level before ends past it (on a 16-core
    // Xeon guest whose host halved its cores in phases, "L2" plateaus at 4-8 KiB per thread and
    // "L3" at 360 KiB - 1 MiB, inside the 48 KiB L1 and the 2 MiB L2, put those roofs in the
    // level below).
    bool skipped = false;
    while (next < cache_plateaus && 2 * curve[plateaus[next].first].bytes <= below) {
      ++next;
      skipped = true;
    }
    if (skipped && below_plateau != nullptr) {
      capped(capacities.back(), effective(*below_plateau, next));
    }
    const std::uint64_t below_bytes = below;
    below = c.declared_bytes;
    below_plateau = nullptr;
    if (next < cache_plateaus && curve[plateaus[next].first].bytes <= c.declared_bytes) {
      const Plateau& p = plateaus[next];
      c.plateau_start_bytes = curve[p.first].bytes;
      c.plateau_end_bytes = curve[p.last].bytes;
      std::vector<double> values;
      for (std::size_t k = p.first; k <= p.last; ++k) values.push_back(curve[k].value);
      c.plateau_value = results::median(values);
      capped(c, effective(p, next + 1));
      below_plateau = &p;
      ++next;
    } else if (const std::string unsettled =
                   unsettled_between(all, below_bytes, c.declared_bytes + 1);
               !unsettled.empty()) {
      c.settled = false;
      c.reason = std::string("the ") + std::string(name(sweep)) + " sweep shows no settled " +
                 "plateau of " + cache.name() + "'s own up to its declared " +
                 results::bytes_text(c.declared_bytes) + ": the points at " + unsettled +
                 " are unstable; no effective capacity is given";
    } else {
      c.reason = std::string("the ") + std::string(name(sweep)) + " sweep shows no plateau of " +
                 cache.name() + "'s own up to its declared " +
                 results::bytes_text(c.declared_bytes) +
                 ": the cache usable here is smaller than declared";
    }
    capacities.push_back(c);
  }
  return capacities;
}

}  // namespace

std::vector<Plateau> find_plateaus(const std::vector<double>& cost) {
  return plateaus_of(smoothed(cost));
}

std::vector<double> smoothed_costs(const std::vector<double>& cost) {
  return smoothed(cost);
}

std::vector<results::CacheCapacity> latency_capacities(
    const topology::Domain& domain, const std::vector<results::ChasePoint>& sweep) {
  std::vector<CurvePoint> curve;
  for (const results::ChasePoint& p : sweep) {
    if (p.domain == domain.index && p.stats.count > 0 && p.stats.median > 0) {
      curve.push_back(
          {p.working_set_bytes, p.stats.median, p.stats.median, p.status != Status::unstable});
    }
  }
  return match(domain, SizeSweep::latency, std::move(curve),
               [](const topology::CacheLevel& c) { return c.instance_bytes; });
}

std::vector<results::CacheCapacity> bandwidth_capacities(
    const topology::Domain& domain, const std::vector<results::SweepPoint>& sweep) {
  std::vector<CurvePoint> curve;
  for (const results::SweepPoint& p : sweep) {
    // The roofs run every core of the domain: the one-core sweep and the sweeps of
    // the thread counts between (thesis fig. 2.11) do not size them.
    // (A record without its thread count, threads 0, is taken as the all-core sweep.)
    const bool every_core = p.threads <= 0 || p.threads >= static_cast<int>(domain.core_pus.size());
    if (p.domain == domain.index && p.access == Access::load && p.stats.count > 0 &&
        p.stats.median > 0 && every_core) {
      curve.push_back(
          {p.working_set_bytes, 1 / p.stats.median, p.stats.median, p.status != Status::unstable});
    }
  }
  return match(domain, SizeSweep::bandwidth, std::move(curve),
               [](const topology::CacheLevel& c) { return c.bytes_per_thread(); });
}

std::vector<std::uint64_t> chase_sweep_sizes(const topology::Domain& domain,
                                             int points_per_octave) {
  const std::uint64_t llc = domain.caches.empty() ? 0 : domain.caches.back().instance_bytes;
  return sizes_up_to(std::max<std::uint64_t>(4 * llc, kSweepLeastBytes), points_per_octave);
}

}  // namespace larm::characterize
