// The FLOP ceiling of a region's own work: its counted FLOPs by kind (add, mul, FMA, div) and by
// vector width, set against the measured add, mul, fma and addmul ceilings of each width used
// together (docs/method.md, "The ceiling of a region's FP mix").
//
// Per width w, with a, m, f the region's add, mul and FMA FLOPs there and P_add, P_mul, P_fma the
// measured ceilings, the time on shared FP pipes is t_shared = a/P_add + m/P_mul + f/P_fma, and on
// separate adder and multiplier pipes (FMAs issue where multiplies do) t_separate = max(a/P_add,
// m/P_mul + f/P_fma). The addmul ceiling, adds and multiplies 1:1 on independent accumulators,
// measures which the core has: its time per FLOP sets the overlap α in [0, 1] that reproduces it,
// t = t_shared - α (t_shared - t_separate), and the mix's ceiling is (a + m + f) / t. Widths add
// their times (they share the pipes); scalar FLOPs run at the 128-bit ceilings' instruction rate,
// one lane each. An operation that the width's ISA has no ceiling of (an AVX2 build's scalar and
// 128-bit FMAs: SSE2 has none) runs at the instruction rate of the narrowest ISA that has it.
// Divisions and square roots have no measured ceiling: the ceiling is of the other
// FLOPs, and their share is said.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "results/placement_records.h"
#include "results/records.h"

namespace larm::roofline {

// A region's FLOPs as larm count's tool counts them: by width (both precisions together) and by
// kind; none without the tool's width counts.
struct FpCounts {
  // FLOPs per width: index 0 scalar, 1 128-bit, 2 256-bit, 3 512-bit.
  double by_width[4] = {0, 0, 0, 0};
  double add = 0, mul = 0, fma = 0, div = 0;
  bool kinds_counted = false;  // add, mul and div counted apart (protocol 3); else fma only
  double total() const { return by_width[0] + by_width[1] + by_width[2] + by_width[3]; }
};
std::optional<FpCounts> fp_counts(const std::map<std::string, double>& counted);

// The measured ceilings of one domain and precision, by ISA and operation.
struct CeilingTable {
  struct Entry {
    double value = 0;
    double low = 0, high = 0;  // its interval (the value itself without one)
  };
  std::map<Isa, std::map<FlopOp, Entry>> by_isa;
  Precision precision = Precision::dp;
  std::string estimator;  // the results' roof estimator
  const Entry* find(Isa isa, FlopOp op) const;
  // Whether the ISA's FMA ceiling was measured (FMAs exist there). From the results, never from
  // this build's code generator: a file of another architecture is read the same way.
  bool has_fma(Isa isa) const { return find(isa, FlopOp::fma) != nullptr; }
};

// An ISA's vector bytes as the vocabulary fixes them (16, 32, 32, 64; NEON 16); 0 for SVE and
// RVV, whose length is the CPU's.
int isa_bytes(Isa isa);
CeilingTable ceiling_table(const results::Results& results, int domain, Precision precision);

// The mix's shares of its FLOPs (FMAs fused from multiply-add pairs when `fuse`).
struct MixShares {
  double add = 0, mul = 0, fma = 0, div = 0;
};
MixShares mix_shares(const FpCounts& counts, bool fuse);

// The ceiling of the mix at its counted widths, each at its ISA (`isa_of_width`), or at one ISA
// for every width (`at`: the region's work re-vectorized for it); none when a ceiling it needs was
// not measured. `alpha_assumed` says the addmul ceiling was missing (results before 1.9): shared
// pipes, the lower ceiling, were taken.
struct MixCeiling {
  double value = 0, low = 0, high = 0;
  Isa isa = Isa::sse2;  // the ISA of the width that holds most of its FLOPs
  bool alpha_assumed = false;
};
std::optional<MixCeiling> mix_ceiling(const CeilingTable& table, const FpCounts& counts, bool fuse,
                                      std::optional<Isa> at = std::nullopt);

// The ISA whose ceilings a width runs at (scalar at the 128-bit one's), among those measured.
std::optional<Isa> isa_of_width(const CeilingTable& table, int width);
// The widest ISA with measured ceilings (by vector width, FMA preferred at equal width).
std::optional<Isa> widest_isa(const CeilingTable& table);

// The mix's ceiling as a roof the verdict uses, and its name ("add+mul dp sse2").
results::RoofUsed mix_roof(const MixCeiling& ceiling, const MixShares& shares, Precision precision,
                           const std::string& estimator, const std::string& width_word);

}  // namespace larm::roofline
