// The roofline model of a results set on hand-computed cases.
#include <gtest/gtest.h>

#include "roofline/roof_set.h"

namespace larm::roofline {
namespace {

results::Roof roof(const std::string& level, const std::string& access, double median,
                   const std::string& isa = "avx2") {
  results::Roof r;
  r.level = level;
  r.access = access;
  r.isa = isa;
  r.threads = 2;
  r.samples = {median};
  r.stats = results::summarize(r.samples);
  r.status = "ok";
  if (level == "flops") r.precision = "dp";
  if (level == "memory") {
    r.memory = "0";
    r.placement = "local";
  }
  return r;
}

TEST(RoofSet, AttainableIsTheLowerOfSlopeAndCeiling) {
  EXPECT_DOUBLE_EQ(attainable(0.5, 100, 200), 50);
  EXPECT_DOUBLE_EQ(attainable(4, 100, 200), 200);
  EXPECT_DOUBLE_EQ(ridge_point(100, 200), 2);
}

TEST(RoofSet, FindsPresentRoofsAndPeak) {
  results::Results r;
  r.roofs = {roof("L1", "load", 400), roof("memory", "load", 30), roof("flops", "fma", 100),
             roof("flops", "add", 50, "avx512")};
  results::Roof absent = roof("L2", "load", 0);
  absent.samples.clear();
  r.roofs.push_back(absent);
  const RoofSet set(r);
  EXPECT_EQ(set.bandwidth(0, "L1", "load"), 400);
  EXPECT_EQ(set.bandwidth(0, "memory", "load"), 30);
  EXPECT_FALSE(set.bandwidth(0, "L2", "load").has_value());
  EXPECT_EQ(set.ceiling(0, "avx2", "dp", "fma"), 100);
  ASSERT_NE(set.peak(0, "dp"), nullptr);
  EXPECT_EQ(set.peak(0, "dp")->access, "fma");
  EXPECT_EQ(set.peak(0, "sp"), nullptr);
}

TEST(RoofSet, DocumentedPeakIsThreadsFrequencyIpcLanesAndFma) {
  results::Roof fma = roof("flops", "fma", 100, "avx2");
  EXPECT_FALSE(documented_peak_gflops(fma, 3e9).has_value());
  fma.documented_ipc = 2;
  // 2 threads × 3 GHz × 2 instr/cycle × 4 DP lanes × 2 FLOPs = 96 GFLOP/s
  EXPECT_DOUBLE_EQ(*documented_peak_gflops(fma, 3e9), 96);
  EXPECT_FALSE(documented_peak_gflops(fma, 0).has_value());
}

}  // namespace
}  // namespace larm::roofline
