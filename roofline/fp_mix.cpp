// The FP-mix ceiling.
#include "roofline/fp_mix.h"

#include <algorithm>
#include <cmath>

#include "results/roof_names.h"

namespace larm::roofline {
namespace {

// The bytes of one element of the precision: a scalar FLOP's width.
double element_bytes(Precision precision) {
  return precision == Precision::dp ? 8 : 4;
}

// Time per FLOP of the shares with each operation's FLOP rate from `rate` (none when one it needs
// is missing) and the overlap alpha of adds and multiplies.
template <typename Rate>
std::optional<double> time_per_flop(const MixShares& s, double alpha, Rate rate) {
  const double other = s.add + s.mul + s.fma;
  if (!(other > 0)) return std::nullopt;
  double t[3] = {0, 0, 0};
  const std::pair<double, FlopOp> parts[3] = {
      {s.add, FlopOp::add}, {s.mul, FlopOp::mul}, {s.fma, FlopOp::fma}};
  for (int k = 0; k < 3; ++k) {
    if (!(parts[k].first > 0)) continue;
    const std::optional<double> p = rate(parts[k].second);
    if (!p || !(*p > 0)) return std::nullopt;
    t[k] = parts[k].first / *p;
  }
  const double shared = t[0] + t[1] + t[2];
  const double separate = std::max(t[0], t[1] + t[2]);
  return (shared - alpha * (shared - separate)) / other;
}

// The FLOP rate of `op` at a width of `bytes` (a scalar's: its element's), from `isa`'s ceiling of
// it scaled to the width's lanes, or, where `isa` has no such ceiling and `borrow` allows, from
// the narrowest ISA at or above the width that has one, at the same instruction rate: an AVX2
// build's scalar and 128-bit FMAs run at the 256-bit FMA's instructions per second, a lane or two
// of its four. `pick` takes the ceiling's value, low or high end.
template <typename Pick>
std::optional<double> op_rate(const CeilingTable& table, Isa isa, FlopOp op, double bytes,
                              bool borrow, Pick pick) {
  const auto scaled = [&](Isa from) -> std::optional<double> {
    const CeilingTable::Entry* e = table.find(from, op);
    if (e == nullptr || !(pick(*e) > 0)) return std::nullopt;
    const int from_bytes = isa_bytes(from);
    return from_bytes > 0 ? pick(*e) * bytes / from_bytes : pick(*e);
  };
  if (const auto own = scaled(isa)) return own;
  if (!borrow) return std::nullopt;
  std::optional<Isa> best;
  for (const auto& [other, ops] : table.by_isa) {
    const int b = isa_bytes(other);
    if (b <= 0 || b < bytes || table.find(other, op) == nullptr) continue;
    if (!best || b < isa_bytes(*best)) best = other;
  }
  return best ? scaled(*best) : std::nullopt;
}

// The overlap of adds and multiplies the addmul ceiling measured at this ISA: 0 for shared pipes,
// 1 for separate ones; none without the three ceilings.
std::optional<double> overlap(const CeilingTable& table, Isa isa) {
  const auto* add = table.find(isa, FlopOp::add);
  const auto* mul = table.find(isa, FlopOp::mul);
  const auto* both = table.find(isa, FlopOp::addmul);
  if (add == nullptr || mul == nullptr || both == nullptr || !(add->value > 0) ||
      !(mul->value > 0) || !(both->value > 0)) {
    return std::nullopt;
  }
  const double shared = 0.5 / add->value + 0.5 / mul->value;
  const double separate = std::max(0.5 / add->value, 0.5 / mul->value);
  if (!(shared - separate > 0)) return 0.0;
  return std::clamp((shared - 1 / both->value) / (shared - separate), 0.0, 1.0);
}

}  // namespace

int isa_bytes(Isa isa) {
  return fixed_vector_bytes(isa).value_or(0);
}

std::optional<FpCounts> fp_counts(const std::map<std::string, double>& counted) {
  const auto get = [&](const char* key) -> std::optional<double> {
    const auto found = counted.find(key);
    if (found == counted.end() || !std::isfinite(found->second) || found->second < 0) {
      return std::nullopt;
    }
    return found->second;
  };
  FpCounts c;
  const char* const widths[4][2] = {{"flops_dp_scalar", "flops_sp_scalar"},
                                    {"flops_dp_128", "flops_sp_128"},
                                    {"flops_dp_256", "flops_sp_256"},
                                    {"flops_dp_512", "flops_sp_512"}};
  bool any = false;
  for (int w = 0; w < 4; ++w) {
    for (const char* key : widths[w]) {
      if (const auto v = get(key)) {
        c.by_width[w] += *v;
        any = true;
      }
    }
  }
  if (!any || !(c.total() > 0)) return std::nullopt;
  c.fma = get("fma_flops").value_or(0);
  const auto add = get("add_flops"), mul = get("mul_flops"), div = get("div_flops");
  c.kinds_counted = add && mul && div;
  if (c.kinds_counted) {
    c.add = *add;
    c.mul = *mul;
    c.div = *div;
  }
  return c;
}

const CeilingTable::Entry* CeilingTable::find(Isa isa, FlopOp op) const {
  const auto i = by_isa.find(isa);
  if (i == by_isa.end()) return nullptr;
  const auto j = i->second.find(op);
  return j == i->second.end() ? nullptr : &j->second;
}

CeilingTable ceiling_table(const results::Results& results, int domain, Precision precision) {
  CeilingTable table;
  table.precision = precision;
  table.estimator = name(results::roof_estimator(results));
  for (const results::Roof& r : results.roofs) {
    if (r.domain != domain || !r.is_ceiling() || !r.in_model() || r.precision != precision ||
        !(r.roof > 0)) {
      continue;
    }
    CeilingTable::Entry e{r.roof, r.roof, r.roof};
    if (r.interval && r.interval->low > 0) {
      e.low = std::min(r.roof, r.interval->low);
      e.high = std::max(r.roof, r.interval->high);
    }
    table.by_isa[r.isa][r.op] = e;
  }
  return table;
}

MixShares mix_shares(const FpCounts& counts, bool fuse) {
  MixShares s;
  const double total = counts.total();
  if (!(total > 0)) return s;
  if (counts.kinds_counted) {
    s.add = counts.add / total;
    s.mul = counts.mul / total;
    s.fma = counts.fma / total;
    s.div = counts.div / total;
  } else {
    // The FMA count only: the rest taken as adds and multiplies in equal numbers.
    s.fma = counts.fma / total;
    s.add = s.mul = (1 - s.fma) / 2;
  }
  if (fuse) {
    const double pairs = std::min(s.add, s.mul);  // each pair of FLOPs is one FMA's two
    s.add -= pairs;
    s.mul -= pairs;
    s.fma += 2 * pairs;
  }
  return s;
}

std::optional<Isa> isa_of_width(const CeilingTable& table, int width) {
  const int bytes = width <= 1 ? 16 : width == 2 ? 32 : 64;
  std::optional<Isa> best;
  for (const auto& [isa, ops] : table.by_isa) {
    if (isa_bytes(isa) != bytes) continue;
    // At a width two ISAs share (AVX and AVX2), the one with FMA: it has every operation.
    if (!best || (table.has_fma(isa) && !table.has_fma(*best))) best = isa;
  }
  return best;
}

std::optional<Isa> widest_isa(const CeilingTable& table) {
  // By vector bytes; a scalable ISA (SVE, RVV: no fixed width) after the fixed ones of its
  // family, it runs at the CPU's length.
  const auto width = [](Isa isa) { return isa_bytes(isa) > 0 ? isa_bytes(isa) : 1 << 20; };
  std::optional<Isa> best;
  for (const auto& [isa, ops] : table.by_isa) {
    if (!best || width(isa) > width(*best) ||
        (width(isa) == width(*best) && table.has_fma(isa) && !table.has_fma(*best))) {
      best = isa;
    }
  }
  return best;
}

std::optional<MixCeiling> mix_ceiling(const CeilingTable& table, const FpCounts& counts, bool fuse,
                                      std::optional<Isa> at) {
  const MixShares shares = mix_shares(counts, fuse);
  const double total = counts.total();
  const double counted = total * (1 - shares.div);  // the FLOPs the ceilings measure
  if (!(counted > 0)) return std::nullopt;
  MixCeiling out;
  double t_value = 0, t_low = 0, t_high = 0;  // seconds per FLOP × FLOPs, summed over widths
  double most = -1;
  for (int w = 0; w < 4; ++w) {
    const double flops = counts.by_width[w];
    if (!(flops > 0)) continue;
    const std::optional<Isa> isa = at ? at : isa_of_width(table, w);
    if (!isa) return std::nullopt;
    // The width's bytes: re-vectorized at `at`, every FLOP at its full width; as counted, a
    // scalar FLOP is one element.
    const int isa_width = isa_bytes(*isa);
    const double bytes = at       ? std::max(isa_width, 1)
                         : w == 0 ? element_bytes(table.precision)
                                  : std::max(isa_width, 16 << (w - 1));
    const auto alpha = overlap(table, *isa);
    if (!alpha) out.alpha_assumed = true;
    const double a = alpha.value_or(0);
    // Re-vectorized, the ISA's own operations only (an FMA where it has none is no option).
    const bool borrow = !at;
    const auto at_end = [&](auto pick) {
      return time_per_flop(shares, a, [&](FlopOp op) {
        return op_rate(table, *isa, op, isa_width > 0 ? bytes : 0, borrow, pick);
      });
    };
    const auto value = at_end([](const CeilingTable::Entry& e) { return e.value; });
    // The interval: every ceiling at its low end gives the ceiling's low end (time is monotone
    // in each ceiling).
    const auto low = at_end([](const CeilingTable::Entry& e) { return e.low; });
    const auto high = at_end([](const CeilingTable::Entry& e) { return e.high; });
    if (!value || !low || !high) return std::nullopt;
    const double share = flops / total;
    t_value += share * *value;
    t_low += share * *low;
    t_high += share * *high;
    if (flops > most) {
      most = flops;
      out.isa = *isa;
    }
  }
  if (!(t_value > 0)) return std::nullopt;
  out.value = 1 / t_value;
  out.low = 1 / t_low;
  out.high = 1 / t_high;
  return out;
}

results::RoofUsed mix_roof(const MixCeiling& ceiling, const MixShares& shares, Precision precision,
                           const std::string& estimator, const std::string& width_word) {
  results::RoofUsed roof;
  roof.level = Level::flops;
  roof.isa = ceiling.isa;
  roof.precision = precision;
  roof.value = ceiling.value;
  roof.low = ceiling.low;
  roof.high = ceiling.high;
  roof.tolerance = ceiling.value > 0
                       ? std::max(1 - ceiling.low / ceiling.value, ceiling.high / ceiling.value - 1)
                       : 0;
  roof.source = results::RoofSource::fp_mix;
  roof.estimator = estimator;
  // Its one operation when the mix has one (an FMA loop's ceiling is the fma ceiling).
  const bool only_add = shares.mul == 0 && shares.fma == 0;
  const bool only_mul = shares.add == 0 && shares.fma == 0;
  const bool only_fma = shares.add == 0 && shares.mul == 0;
  roof.op = only_add   ? FlopOp::add
            : only_mul ? FlopOp::mul
            : only_fma ? FlopOp::fma
                       : FlopOp::addmul;
  roof.name = results::mix_ceiling_name(
      {{FlopOp::fma, shares.fma}, {FlopOp::add, shares.add}, {FlopOp::mul, shares.mul}}, precision,
      width_word);
  return roof;
}

}  // namespace larm::roofline
