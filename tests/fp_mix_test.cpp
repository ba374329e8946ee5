// The ceiling of a region's FP mix from the measured add, mul, fma and addmul ceilings.
#include <gtest/gtest.h>

#include "roofline/fp_mix.h"

namespace larm::roofline {
namespace {

// One ISA's ceilings, GFLOP/s.
CeilingTable table(double add, double mul, std::optional<double> addmul,
                   std::optional<double> fma = std::nullopt, Isa isa = Isa::avx2) {
  CeilingTable t;
  t.by_isa[isa][FlopOp::add] = {add, add, add};
  t.by_isa[isa][FlopOp::mul] = {mul, mul, mul};
  if (addmul) t.by_isa[isa][FlopOp::addmul] = {*addmul, *addmul, *addmul};
  if (fma) t.by_isa[isa][FlopOp::fma] = {*fma, *fma, *fma};
  return t;
}

FpCounts counts(int width, double add, double mul, double fma = 0, double div = 0) {
  FpCounts c;
  c.by_width[width] = add + mul + fma + div;
  c.add = add;
  c.mul = mul;
  c.fma = fma;
  c.div = div;
  c.kinds_counted = true;
  return c;
}

TEST(FpMix, TheAddmulCeilingSaysWhetherAddsAndMultipliesOverlap) {
  // Separate pipes (AMD Zen: ADD and FMA/MUL pipes): adds and multiplies together reach the sum.
  const auto separate = mix_ceiling(table(50, 50, 100), counts(2, 1, 1), false);
  ASSERT_TRUE(separate);
  EXPECT_NEAR(separate->value, 100, 1e-9);
  EXPECT_FALSE(separate->alpha_assumed);
  // Shared pipes (Intel since Skylake: every operation on the FMA ports): the add's 50.
  EXPECT_NEAR(mix_ceiling(table(50, 50, 50), counts(2, 1, 1), false)->value, 50, 1e-9);
  // Four adds to a multiply on separate pipes: the adds' pipe decides, 5 FLOPs per 4/50 s.
  EXPECT_NEAR(mix_ceiling(table(50, 50, 100), counts(2, 4, 1), false)->value, 62.5, 1e-9);
  // In between (addmul 66.7 of 50 + 50): the overlap that reproduces it, α = 0.5.
  const double partial =
      mix_ceiling(table(50, 50, 1 / (0.02 - 0.5 * 0.01)), counts(2, 1, 1), false)->value;
  EXPECT_NEAR(partial, 1 / 0.015, 1e-9);
  // Adds only: the add ceiling, whatever the others.
  EXPECT_NEAR(mix_ceiling(table(50, 40, 60), counts(2, 1, 0), false)->value, 50, 1e-9);
}

TEST(FpMix, WithoutTheAddmulCeilingSharedPipesAreTakenAndSaid) {
  const auto c = mix_ceiling(table(50, 50, std::nullopt), counts(2, 1, 1), false);
  ASSERT_TRUE(c);
  EXPECT_NEAR(c->value, 50, 1e-9);
  EXPECT_TRUE(c->alpha_assumed);
}

TEST(FpMix, ScalarFlopsRunOneLaneOfThe128BitCeilings) {
  CeilingTable t = table(50, 50, 100, std::nullopt, Isa::sse2);
  t.precision = Precision::dp;
  const auto c = mix_ceiling(t, counts(0, 1, 1), false);
  ASSERT_TRUE(c);
  EXPECT_NEAR(c->value, 50, 1e-9);  // 100 at 2 lanes, half of it at one
  EXPECT_EQ(c->isa, Isa::sse2);
}

TEST(FpMix, FusingMultiplyAddPairsNeedsAnFmaCeiling) {
  // Half adds and half multiplies fused: all FMAs, at the fma ceiling.
  EXPECT_NEAR(mix_ceiling(table(50, 50, 100, 100), counts(2, 1, 1), true)->value, 100, 1e-9);
  EXPECT_FALSE(mix_ceiling(table(50, 50, 100), counts(2, 1, 1), true));  // no fma measured
  const MixShares s = mix_shares(counts(2, 3, 1), true);
  EXPECT_NEAR(s.fma, 0.5, 1e-12);
  EXPECT_NEAR(s.add, 0.5, 1e-12);
  EXPECT_NEAR(s.mul, 0, 1e-12);
}

TEST(FpMix, WidthsAddTheirTimesAndDivisionsAreLeftOut) {
  CeilingTable t = table(50, 50, 100, 100, Isa::sse2);
  t.by_isa[Isa::avx2] = table(100, 100, 200, 200).by_isa[Isa::avx2];
  FpCounts c = counts(1, 1, 1);
  c.by_width[1] = 1;
  c.by_width[2] = 1;
  // Half at 128 bits (100), half at 256 (200): 2 / (1/100 + 1/200).
  EXPECT_NEAR(mix_ceiling(t, c, false)->value, 2 / (1.0 / 100 + 1.0 / 200), 1e-9);
  // A tenth of the FLOPs in divisions: the ceiling of the rest.
  const auto d = counts(2, 0.45, 0.45, 0, 0.1);
  EXPECT_NEAR(mix_ceiling(table(50, 50, 100), d, false)->value, 100, 1e-9);
  EXPECT_EQ(widest_isa(t), Isa::avx2);
  EXPECT_EQ(isa_of_width(t, 0), Isa::sse2);
}

TEST(FpMix, AnOperationTheWidthsIsaLacksRunsAtTheInstructionRateOfOneThatHasIt) {
  // An x86-64-v3 build: SSE2 measured without FMA, AVX2 with it.
  CeilingTable t = table(25, 25, 45, std::nullopt, Isa::sse2);
  t.by_isa[Isa::avx2] = table(50, 50, 90, 100).by_isa[Isa::avx2];
  // Its 256-bit FMA loop with a few scalar adds (the reduction after it): the FMA's ceiling.
  FpCounts loop = counts(2, 0, 0, 1e9);
  loop.by_width[0] = 66;
  loop.add = 66;
  const auto c = mix_ceiling(t, loop, false);
  ASSERT_TRUE(c);
  EXPECT_NEAR(c->value, 100, 1e-3);
  EXPECT_EQ(c->isa, Isa::avx2);
  // Scalar FMAs (vfmadd231sd): one lane of the 256-bit FMA's four.
  EXPECT_NEAR(mix_ceiling(t, counts(0, 0, 0, 1), false)->value, 25, 1e-9);
  // 128-bit FMAs: two lanes of four.
  EXPECT_NEAR(mix_ceiling(t, counts(1, 0, 0, 1), false)->value, 50, 1e-9);
  // Re-vectorized for SSE2, FMAs are no option there.
  EXPECT_FALSE(mix_ceiling(t, counts(0, 0, 0, 1), false, Isa::sse2));
}

TEST(FpMix, CountsOfTheToolByWidthAndKind) {
  const auto c = fp_counts({{"flops_dp_128", 6e9},
                            {"flops_sp_256", 2e9},
                            {"fma_flops", 4e9},
                            {"add_flops", 2e9},
                            {"mul_flops", 2e9},
                            {"div_flops", 0}});
  ASSERT_TRUE(c);
  EXPECT_DOUBLE_EQ(c->total(), 8e9);
  EXPECT_TRUE(c->kinds_counted);
  // An older tool: FMAs only, the rest taken as adds and multiplies in equal numbers.
  const auto old = fp_counts({{"flops_dp_128", 6e9}, {"fma_flops", 2e9}});
  ASSERT_TRUE(old);
  EXPECT_FALSE(old->kinds_counted);
  const MixShares s = mix_shares(*old, false);
  EXPECT_NEAR(s.fma, 1.0 / 3, 1e-12);
  EXPECT_NEAR(s.add, 1.0 / 3, 1e-12);
  EXPECT_FALSE(fp_counts({{"bytes_loaded", 8}}));
}

}  // namespace
}  // namespace larm::roofline
