// Region points against the roofs of their domain: the verdict as data.
#include "roofline/region_placement.h"

#include <algorithm>
#include <cmath>
#include <set>

#include "results/roof_names.h"
#include "roofline/fp_mix.h"
#include "roofline/hybrid_model.h"
#include "roofline/memory_level.h"

namespace larm::roofline {
namespace {

using results::BoundKind;
using results::RegionPlacement;

// A region whose tagged data is larger than the domain's cache capacity streams from memory:
// when it runs up to this much above the roof of that memory, the roof was measured lower than
// the run reached (noise, or the host's state changed: a VM's memory roof can double) rather than
// the data coming from cache. Farther above, its accesses do hit in cache (a blocked kernel).
constexpr double kStaleRoofShare = 0.5;
// A step that lifts the bound by less than this is no step.
constexpr double kWorthwhileGain = 1.05;
// The widths of larm count's FLOP counts, as the record names them.
constexpr const char* kWidthWords[4] = {"scalar", "128-bit", "256-bit", "512-bit"};

// The largest cache capacity of a domain (one level's instances together), from the results'
// topology; 0 when unknown.
double cache_capacity(const results::Results& results, int domain) {
  const results::DomainRecord* d = results.topology.domain(domain);
  return d ? d->largest_cache_bytes() : 0;
}

results::BoundKind kind_of(const RoofLine& roof) {
  if (roof.hybrid) return BoundKind::hybrid;
  if (!roof.slope()) return BoundKind::compute;
  return roof.is_cache() ? BoundKind::cache : BoundKind::memory;
}

// The width that holds most of the counted FLOPs (0 scalar ... 3 512-bit).
int main_width(const FpCounts& counts) {
  int best = 0;
  for (int w = 1; w < 4; ++w) {
    if (counts.by_width[w] > counts.by_width[best]) best = w;
  }
  return best;
}

// The ceilings a region stands against. With its FLOPs counted by width (larm count), the one
// ceiling of its own FP mix at those widths, and, for the next step, the mix at the other ISAs
// (fused into FMAs where they have them); without, the node's peak (the widest ISA's fma, else its
// highest ceiling), its mix and width not known.
void choose_ceilings(const RegionPoint& point, const results::Results& results,
                     const PlaceOptions& options, std::vector<RoofLine>& roofs,
                     RegionPlacement& p) {
  std::vector<RoofLine> measured;
  for (const RoofLine& r : roofs) {
    if (!r.slope()) measured.push_back(r);
  }
  std::erase_if(roofs, [](const RoofLine& r) { return !r.slope(); });
  if (measured.empty()) return;
  const CeilingTable table = ceiling_table(results, point.domain, options.precision);
  if (point.fp) {
    const MixShares shares = mix_shares(*point.fp, false);
    const int width = main_width(*point.fp);
    results::FpMix mix{shares.add,
                       shares.mul,
                       shares.fma,
                       shares.div,
                       point.fp->kinds_counted,
                       kWidthWords[width],
                       isa_of_width(table, width)};
    p.fp = mix;
    if (const auto ceiling = mix_ceiling(table, *point.fp, false)) {
      const results::RoofUsed used =
          mix_roof(*ceiling, shares, options.precision, table.estimator,
                   width == 0 ? std::string(kWidthWords[0]) : std::string(name(ceiling->isa)));
      roofs.push_back(roof_line(used));
      // Where the same work could go: the mix at each measured ISA, as it is and fused.
      for (const auto& [isa, ops] : table.by_isa) {
        for (const bool fuse : {false, true}) {
          if (fuse && (!table.has_fma(isa) || std::min(shares.add, shares.mul) <= 0)) {
            continue;
          }
          const auto there = mix_ceiling(table, *point.fp, fuse, isa);
          if (!there) continue;
          p.ceiling_options.push_back({isa, fuse, there->value, there->value / ceiling->value});
        }
      }
      if (const auto widest = widest_isa(table)) {
        const bool fuse = table.has_fma(*widest) && std::min(shares.add, shares.mul) > 0;
        if (const auto w = mix_ceiling(table, *point.fp, fuse, *widest)) {
          const MixShares fused = mix_shares(*point.fp, fuse);
          p.widest_ceiling = mix_roof(*w, fused, options.precision, table.estimator, name(*widest));
          p.widest_ceiling->isa = *widest;
        }
      }
      return;
    }
  }
  // The peak: the widest ISA's FMA ceiling, else the highest of that ISA.
  const auto widest = widest_isa(table);
  const RoofLine* peak = nullptr;
  for (const RoofLine& c : measured) {
    if ((widest && c.isa != *widest) || c.op == FlopOp::addmul) continue;  // addmul: no code's
    if (peak == nullptr || (c.op == FlopOp::fma && peak->op != FlopOp::fma) ||
        (c.op == peak->op && c.value > peak->value) ||
        (peak->op != FlopOp::fma && c.op != FlopOp::fma && c.value > peak->value)) {
      peak = &c;
    }
  }
  if (peak != nullptr) roofs.push_back(*peak);
}

results::NextStep step_of(results::Step step) {
  results::NextStep next;
  next.step = step;
  return next;
}

// Huge pages for a region whose misses pay the base-page latency: its rate grows as that latency
// falls to the huge-page one, as far as the roof it uses most allows.
results::NextStep huge_pages_step(const RegionPlacement& p) {
  results::NextStep step = step_of(results::Step::huge_pages);
  const auto& l = p.lines_in_flight;
  if (l && l->pages == results::PagesAssumed::base && l->base_page_ns && l->idle_ns > 0 &&
      p.share > 0) {
    const double gain = std::min(*l->base_page_ns / l->idle_ns, 1 / p.share);
    if (gain >= kWorthwhileGain) step.gain = gain;
  }
  return step;
}

// Its bound's next step: what lifts it, with the gain the measurements give.
void choose_next_steps(const RegionPoint& point, const std::vector<RoofLine>& roofs,
                       const std::vector<RoofLine>& domain, RegionPlacement& p) {
  using results::Step;
  // The roofs a step leads to: the domain's own, whatever the data's roof replaced.
  const auto roof_value = [&](auto pick) -> std::optional<double> {
    std::optional<double> best;
    for (const RoofLine& r : domain) {
      if (pick(r) && r.value > 0 && (!best || r.value > *best)) best = r.value;
    }
    return best;
  };
  const double bound = p.bound ? p.bound->value : 0;
  // What a step can give is capped by the roofs it leaves as they are: the region reaches each
  // of them at 1/share of its rate (its bytes per level and FLOPs unchanged). A compute step
  // leaves the bandwidth roofs; a data step (reuse, placement) leaves the ceilings, and a memory
  // placement step the caches too.
  const auto cap = [&](auto kept) {
    double limit = INFINITY;
    for (const results::RoofShare& use : p.levels) {
      if (use.roof.name == p.bound->name || !(use.share > 0) || !kept(use.roof)) continue;
      limit = std::min(limit, 1 / use.share);
    }
    return limit;
  };
  const auto worthwhile = [](double gain) -> std::optional<double> {
    if (!std::isfinite(gain) || gain < kWorthwhileGain) return std::nullopt;
    return gain;
  };
  const auto gain_to = [&](std::optional<double> value, auto kept) -> std::optional<double> {
    if (!value || !(bound > 0)) return std::nullopt;
    // At the same share of the new roof, or up to the first roof it leaves and then meets.
    return worthwhile(std::min(*value / bound, cap(kept)));
  };
  const auto ceilings = [](const results::RoofUsed& r) { return r.ceiling(); };
  const auto ceilings_and_caches = [](const results::RoofUsed& r) {
    return r.ceiling() || larm::is_cache(r.level);
  };
  switch (p.kind) {
    case BoundKind::compute: {
      // The option's gain, capped by the bandwidth roofs it leaves: over its current rate.
      const auto capped = [&](double factor) {
        return std::min(factor, cap([](const results::RoofUsed& r) { return !r.ceiling(); }));
      };
      // The most it can gain, by the least change that gains it: the narrowest ISA, unfused
      // before fused, among the options within 1 % of the best capped gain.
      double most = 0;
      for (const auto& o : p.ceiling_options) most = std::max(most, capped(o.factor));
      const results::CeilingOption* best = nullptr;
      const auto narrower = [](const results::CeilingOption& a, const results::CeilingOption& b) {
        const int wa = isa_bytes(a.isa), wb = isa_bytes(b.isa);
        return wa != wb ? wa < wb : (a.fused != b.fused ? !a.fused : a.factor > b.factor);
      };
      for (const auto& o : p.ceiling_options) {
        if (capped(o.factor) < most * 0.99) continue;
        if (best == nullptr || narrower(o, *best)) best = &o;
      }
      if (best != nullptr && capped(best->factor) >= kWorthwhileGain) {
        const bool same_width = p.fp && p.fp->isa &&
                                isa_bytes(best->isa) == isa_bytes(*p.fp->isa) &&
                                p.fp->width != "scalar";
        results::NextStep step = step_of(same_width ? Step::use_fma : Step::vectorize_wider);
        step.gain = capped(best->factor);
        step.isa = best->isa;
        step.fused = best->fused;
        p.next.push_back(step);
      } else {
        p.next.push_back(step_of(Step::fewer_operations));
      }
      break;
    }
    case BoundKind::cache: {
      // Reuse in the level inside it; L1 itself: in registers.
      const Level level = p.bound->level;
      const Level inner = level == Level::L3 ? Level::L2 : level == Level::L2 ? Level::L1 : level;
      results::NextStep step = step_of(Step::more_reuse);
      step.level = inner;
      if (inner != level) {
        step.gain =
            gain_to(roof_value([&](const RoofLine& r) { return r.level == inner; }), ceilings);
      }
      p.next.push_back(step);
      break;
    }
    case BoundKind::memory: {
      switch (p.bound->placement.value_or(Placement::local)) {
        case Placement::local: {
          results::NextStep step = step_of(Step::more_reuse);
          // The last cache level measured: what blocking for it gives.
          std::optional<Level> last;
          for (const RoofLine& r : roofs) {
            if (r.is_cache() && (!last || r.level > *last)) last = r.level;
          }
          step.level = last;
          if (last) {
            step.gain =
                gain_to(roof_value([&](const RoofLine& r) { return r.level == *last; }), ceilings);
          }
          p.next.push_back(step);
          break;
        }
        case Placement::remote:
        case Placement::contention:
        case Placement::congestion: {
          // The data placement that lifts it, and the memory roof it would then stand under:
          // remote -> local, contention -> congestion (interleaved), congestion -> local.
          const Placement placement = p.bound->placement.value_or(Placement::local);
          const Step lift = placement == Placement::remote       ? Step::bind_locally
                            : placement == Placement::contention ? Step::interleave
                                                                 : Step::first_touch_in_parallel;
          const Placement target =
              placement == Placement::contention ? Placement::congestion : Placement::local;
          results::NextStep step = step_of(lift);
          step.gain = gain_to(roof_value([&](const RoofLine& r) {
                                return r.level == Level::memory && r.placement == target;
                              }),
                              ceilings_and_caches);
          p.next.push_back(step);
          break;
        }
      }
      break;
    }
    case BoundKind::hybrid:
      p.next.push_back(step_of(Step::fast_memory_share));
      break;
    case BoundKind::latency: {
      results::NextStep step = step_of(Step::independent_accesses);
      // Little's law: its rate grows with the lines it keeps in flight; a second independent
      // chain per thread doubles it, as far as the roof it uses most allows.
      if (p.share > 0) {
        const double gain = std::min(2.0, 1 / p.share);
        if (gain >= kWorthwhileGain) step.gain = gain;
      }
      p.next.push_back(step);
      p.next.push_back(huge_pages_step(p));
      break;
    }
    case BoundKind::unexplained:
      p.next.push_back(step_of(Step::investigate));
      // Past the TLB's reach on base pages, its misses pay page walks that huge pages remove.
      if (p.lines_in_flight && p.lines_in_flight->pages == results::PagesAssumed::base) {
        p.next.push_back(huge_pages_step(p));
      }
      break;
    case BoundKind::above_roofs:
      p.next.push_back(step_of(Step::investigate));
      break;
    case BoundKind::not_placed:
      break;
  }
  if (point.migrated) p.next.push_back(step_of(Step::bind_threads));
  if (point.sequential_init) p.next.push_back(step_of(Step::first_touch_in_parallel));
}

// A region whose runs differ more than its bound's interval allows is marked.
void judge_time(const RegionPoint& point, RegionPlacement& p) {
  if (!point.timing) return;
  const regions::RunTiming& timing = *point.timing;
  p.time.estimator = timing.estimator;
  p.time.spread = timing.spread;
  p.time.runs = static_cast<int>(timing.seconds.size());
  double allowed = 0;
  if (p.bound && p.bound->value > 0) {
    allowed = p.bound->low && p.bound->high ? (*p.bound->high - *p.bound->low) / p.bound->value
                                            : 2 * p.bound->tolerance;
  }
  p.time.unstable = timing.seconds.size() >= 2 && timing.spread > allowed;
}

results::RoofShare share_of(const LevelUse& use, const std::string& estimator,
                            Precision precision) {
  return {roof_used(*use.roof, estimator, precision), use.bytes, use.ai, use.rate, use.utilization};
}

// The region's share of its roof as high as the roof's interval (its low side) and the time's
// spread let it be: "unexplained" is claimed only when even that stays under kUnexplainedShare
// (one code's restriction read 32 % and 34 % of a roof whose interval reaches 21 % below it).
double unexplained_share_high(const LevelUse& top, const RegionPoint& point) {
  const double low_side = top.roof->interval ? top.roof->interval->first : top.roof->tolerance;
  const double time_spread = point.timing ? point.timing->spread / 2 : 0;
  return top.utilization / std::max(1e-9, 1 - low_side) * (1 + time_spread);
}

// The memory-level roofline (bytes per level): every roof at its own intensity, the one it uses
// most bounding it; Little's law on its memory lines decides latency.
void place_by_levels(const RegionPoint& point, const results::Results& results,
                     const LevelTraffic& traffic, std::vector<RoofLine>& roofs,
                     const std::string& estimator, Precision precision, RegionPlacement& p) {
  // Without its data tagged, its memory is taken as local: the other placements' roofs go.
  if (!p.data_roof) {
    const bool has_local = std::any_of(roofs.begin(), roofs.end(), [](const RoofLine& roof) {
      return roof.level == Level::memory && !roof.hybrid && roof.placement == Placement::local;
    });
    if (has_local) {
      std::erase_if(roofs, [](const RoofLine& roof) {
        return roof.level == Level::memory && !roof.hybrid && roof.placement != Placement::local;
      });
    }
  }
  p.bytes = traffic.allocate_counted ? results::ByteConvention::program_per_level
                                     : results::ByteConvention::per_level_with_allocate;
  const std::vector<LevelUse> uses = level_uses(point, traffic, point.flops.value_or(0), roofs);
  if (uses.empty()) {
    p.kind = BoundKind::not_placed;
    p.not_placed = results::NotPlaced::no_time;
    return;
  }
  for (const LevelUse& use : uses) p.levels.push_back(share_of(use, estimator, precision));
  const LevelUse& top = uses.front();
  p.bound = roof_used(*top.roof, estimator, precision);
  p.share = top.utilization;
  p.roof_value_at_point =
      top.roof->slope() && !p.by_bandwidth ? top.roof->value * top.ai : top.roof->value;
  for (const LevelUse& use : uses) {
    const double tolerance = std::max(top.roof->tolerance, use.roof->tolerance);
    if (top.utilization - use.utilization > tolerance * top.utilization) continue;
    p.within_noise_of.push_back(use.roof->name);
    if (&use != &top && !p.runner_up) p.runner_up = share_of(use, estimator, precision);
  }
  p.lines_in_flight = lines_in_flight(point, traffic, results);
  const bool memory_top = top.roof->level == Level::memory;
  const bool far = top.utilization < kFarBelowShare;
  using Reading = results::LinesInFlight::Reading;
  const auto read_as = [&](Reading r) {
    return p.lines_in_flight.has_value() && p.lines_in_flight->reading == r;
  };
  // Accesses that cannot overlap make it latency-bound whatever share of a bandwidth roof it
  // takes, when memory is what it leans on most (or nothing bounds it).
  // Far below the memory roof it leans on most (under kUnexplainedShare) with its misses
  // overlapping: neither a roof nor latency explains it. Far below a cache's roof or a ceiling
  // (or between a third and a half of memory's), that roof remains its bound.
  if ((memory_top || far) && read_as(Reading::cannot_overlap)) {
    p.kind = BoundKind::latency;
  } else if (unexplained_share_high(top, point) < kUnexplainedShare && memory_top &&
             !read_as(Reading::within_noise)) {
    p.kind = BoundKind::unexplained;
  } else {
    p.kind = kind_of(*top.roof);
  }
  p.far_below = far;
  if (const double above = top.utilization - 1; above > top.roof->high_side()) p.above_by = above;
}

// Without bytes per level: the lowest roof above the point (or within that roof's noise above
// it), the size of its data deciding between a cache and its memory when they are close. A FLOP
// ceiling is a cap, not one level among others: a point above it and under a bandwidth roof is
// bound by it (above it: the ceiling is low), never by the bandwidth roof whose line passes far
// above at its intensity.
void place_by_point(const RegionPoint& point, const results::Results& results,
                    const std::vector<RoofLine>& roofs, const std::string& estimator,
                    Precision precision, RegionPlacement& p) {
  const double ai = *point.ai;
  const double y = p.by_bandwidth ? *point.gbps : *point.gflops;
  const auto height = [&](const RoofLine& roof) {
    return p.by_bandwidth ? roof.value : roof.at(ai);
  };
  const RoofLine* lowest = nullptr;
  std::vector<const RoofLine*> near;
  for (const auto& roof : roofs) {
    const bool noise = roof.within(height(roof), y);
    if (noise) near.push_back(&roof);
    if ((height(roof) >= y || noise) && (lowest == nullptr || height(roof) < height(*lowest))) {
      lowest = &roof;
    }
  }
  for (const auto& roof : roofs) {
    // Under a bandwidth roof only (above every roof, the point is said to be so): the highest
    // ceiling under the point, unless a ceiling above it already bounds it.
    if (!p.by_bandwidth && !roof.slope() && height(roof) < y && lowest != nullptr &&
        (lowest->slope() || (height(*lowest) < y && height(roof) > height(*lowest)))) {
      lowest = &roof;
    }
  }
  std::sort(near.begin(), near.end(),
            [&](const auto* a, const auto* b) { return height(*a) < height(*b); });
  for (const RoofLine* roof : near) p.within_noise_of.push_back(roof->name);
  // Data too big for the caches, a little above the roof of its memory: that roof bounds it.
  if (p.data_roof && point.data_bytes && (lowest == nullptr || lowest->is_cache())) {
    const double capacity = cache_capacity(results, point.domain);
    const auto memory = std::find_if(roofs.begin(), roofs.end(), [](const RoofLine& roof) {
      return roof.level == Level::memory && !roof.hybrid;
    });
    const double above = memory != roofs.end() ? y / height(*memory) - 1 : 0;
    if (capacity > 0 && *point.data_bytes > capacity && above > 0 && above <= kStaleRoofShare) {
      lowest = &*memory;
      p.stale_roof = true;
      p.cache_bytes = capacity;
    }
  }
  if (lowest == nullptr) {
    p.kind = BoundKind::above_roofs;
    return;
  }
  p.bound = roof_used(*lowest, estimator, precision);
  p.roof_value_at_point = height(*lowest);
  p.share = y / p.roof_value_at_point;
  p.kind = kind_of(*lowest);
  p.far_below = p.share < kFarBelowShare;
  // Within the noise of two roofs or more: the measurements cannot tell which bounds it.
  for (const RoofLine* other : near) {
    if (other == lowest || near.size() < 2) continue;
    p.runner_up =
        results::RoofShare{roof_used(*other, estimator, precision), 0, ai, y, y / height(*other)};
    break;
  }
  if (const double above = p.share - 1; above > lowest->high_side()) p.above_by = above;
}

}  // namespace

RegionPlacement place(const RegionPoint& point, const results::Results& results,
                      const PlaceOptions& options) {
  RegionPlacement p;
  p.file = point.file;
  p.label = point.label;
  p.region = point.region;
  p.domain = point.domain;
  p.threads = point.threads;
  p.ai = point.ai;
  p.gflops = point.gflops;
  p.gbps = point.gbps;
  p.flops = point.flops;
  p.flops_source = point.flops_source;
  p.bytes_source = point.bytes_source;
  p.read_share = point.read_share;
  p.migrated = point.migrated;
  p.undercount = point.undercount;
  p.sequential_init = point.sequential_init;
  p.time.seconds = point.seconds;
  const std::string estimator = name(results::roof_estimator(results));
  if (!point.ai || !point.gflops || !std::isfinite(*point.ai) || !std::isfinite(*point.gflops)) {
    p.not_placed = results::NotPlaced::no_intensity;
    p.unavailable = point.unavailable;
    judge_time(point, p);
    return p;
  }
  p.by_bandwidth = !(*point.gflops > 0) || !(*point.ai > 0);
  if (p.by_bandwidth && !(point.gbps && *point.gbps > 0 && std::isfinite(*point.gbps))) {
    p.not_placed = point.seconds > 0 ? results::NotPlaced::no_counts : results::NotPlaced::no_time;
    judge_time(point, p);
    return p;
  }
  PlaceOptions chosen = options;
  chosen.access = region_family(point, results, options, p.family);
  p.access = chosen.access;
  auto roofs = domain_roofs(results, point.domain, chosen);
  const std::vector<RoofLine> all_roofs = roofs;
  results::DataEvidence data;
  if (const auto own = data_roof(point, results, roofs, chosen, data)) {
    p.data_roof = roof_used(*own, estimator, options.precision);
    // Only the memory roof the data makes possible competes with the caches and ceilings.
    std::erase_if(roofs, [](const RoofLine& roof) { return roof.level == Level::memory; });
    roofs.push_back(*own);
  }
  if (!point.data_memories.empty()) p.data = data;
  if (options.hybrid && options.hybrid->domain == point.domain) {
    const auto gbps = hybrid::region_roof_gbps(*options.hybrid, point.data_memories,
                                               point.read_share, p.hybrid_note);
    if (gbps) {
      RoofLine line;
      line.level = Level::memory;
      line.hybrid = true;
      line.source = results::RoofSource::hybrid;
      line.value = *gbps;
      line.name = results::hybrid_roof_name();
      p.hybrid_roof = roof_used(line, estimator, options.precision);
      roofs.push_back(line);
    }
  }
  if (p.by_bandwidth) {
    std::erase_if(roofs, [](const RoofLine& roof) { return !roof.slope(); });
  } else {
    choose_ceilings(point, results, options, roofs, p);
  }
  std::erase_if(
      roofs, [](const RoofLine& roof) { return !(roof.value > 0) || !std::isfinite(roof.value); });
  if (roofs.empty()) {
    p.not_placed = results::NotPlaced::no_roofs;
    judge_time(point, p);
    return p;
  }
  if (point.traffic) {
    place_by_levels(point, results, *point.traffic, roofs, estimator, options.precision, p);
  } else {
    place_by_point(point, results, roofs, estimator, options.precision, p);
  }
  judge_time(point, p);
  choose_next_steps(point, roofs, all_roofs, p);
  return p;
}

results::PlaceFile place_all(const std::vector<RegionPoint>& points,
                             const results::Results& results, const PlaceOptions& options,
                             const std::string& results_name) {
  results::PlaceFile file;
  file.results = results_name;
  file.access = options.access_follows_region ? "auto" : name(options.access);
  file.precision = options.precision;
  std::set<int> domains;
  std::set<std::string> other_hosts;  // where regions ran, when not where the roofs were measured
  const std::string results_host = results.provenance.host.value_or("");
  for (const RegionPoint& point : points) {
    file.regions.push_back(place(point, results, options));
    domains.insert(point.domain);
    // Another host, or another CPU under the same host name (a guest's "vm" on two hosts).
    const bool other_host =
        !point.host.empty() && !results_host.empty() && point.host != results_host;
    const bool other_cpu = !point.cpu_model.empty() && results.provenance.cpu_model &&
                           !results.provenance.cpu_model->empty() &&
                           point.cpu_model != *results.provenance.cpu_model;
    if (other_host || other_cpu) other_hosts.insert(point.host);
    if (!point.levels_modelled_for.empty()) file.levels_modelled_for = point.levels_modelled_for;
  }
  // A count that modelled the roofs' machine's caches ran elsewhere (it models another machine's
  // only), whatever the hosts are called: a what-if too.
  if (other_hosts.empty() && !results_host.empty() && file.levels_modelled_for == results_host) {
    for (const RegionPoint& point : points) other_hosts.insert(point.host);
  }
  if (!other_hosts.empty()) {
    file.what_if = results::PlaceFile::WhatIf{
        results_host, std::vector<std::string>(other_hosts.begin(), other_hosts.end())};
  }
  for (int domain : domains) {
    for (std::string& absent : absent_roof_kinds(results, domain, options)) {
      file.absent.push_back({domain, std::move(absent)});
    }
  }
  return file;
}

}  // namespace larm::roofline
