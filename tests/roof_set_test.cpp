// The roofline model of a results set on hand-computed cases.
#include <gtest/gtest.h>

#include "report/text/matrix_table.h"
#include "roofline/contention.h"
#include "roofline/roof_set.h"

namespace larm::roofline {
namespace {

// A roof on 2 threads by the words of the results files; a ceiling is DP, a memory roof local.
results::Roof roof(const std::string& level, const std::string& operation, double median,
                   const std::string& isa = "avx2") {
  results::Roof r;
  r.level = parse<Level>(level).value();
  if (r.is_ceiling()) {
    r.op = parse<FlopOp>(operation).value();
    r.precision = Precision::dp;
  } else {
    r.access = parse<Access>(operation).value();
  }
  r.isa = parse<Isa>(isa).value();
  r.threads = 2;
  r.samples = {median};
  r.stats = results::summarize(r.samples);
  r.roof = r.stats.median;
  if (r.level == Level::memory) {
    r.memory = MemoryRef{0, 0};
    r.placement = Placement::local;
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
  EXPECT_EQ(set.bandwidth(0, Level::L1, Access::load), 400);
  EXPECT_EQ(set.bandwidth(0, Level::memory, Access::load), 30);
  EXPECT_EQ(set.bandwidth(0, Level::memory, Access::load, MemoryRef{-1, 0}), 30);
  EXPECT_FALSE(set.bandwidth(0, Level::memory, Access::load, MemoryRef{-1, 1}).has_value());
  EXPECT_FALSE(set.bandwidth(0, Level::L2, Access::load).has_value());
  EXPECT_EQ(set.ceiling(0, Isa::avx2, Precision::dp, FlopOp::fma), 100);
  ASSERT_NE(set.peak(0, Precision::dp), nullptr);
  EXPECT_EQ(set.peak(0, Precision::dp)->op, FlopOp::fma);
  EXPECT_EQ(set.peak(0, Precision::sp), nullptr);
}

TEST(RoofSet, DocumentedPeakIsThreadsFrequencyIpcLanesAndFma) {
  results::Roof fma = roof("flops", "fma", 100, "avx2");
  EXPECT_FALSE(documented_peak_gflops(fma, 3e9).has_value());
  fma.documented_ipc = 2;
  // 2 threads × 3 GHz × 2 instr/cycle × 4 DP lanes × 2 FLOPs = 96 GFLOP/s
  EXPECT_DOUBLE_EQ(*documented_peak_gflops(fma, 3e9), 96);
  EXPECT_FALSE(documented_peak_gflops(fma, 0).has_value());
}

results::CurvePoint curve_point(int threads, double gbps) {
  results::CurvePoint p;
  p.memory = MemoryRef{0, 0};
  p.access = Access::load;
  p.threads = threads;
  p.samples = {gbps};
  p.stats = results::summarize(p.samples);
  return p;
}

TEST(Contention, KneeIsWhereAddingThreadsStopsPaying) {
  // 30 -> 31.5 is exactly 5 %: still paying; from 5 threads on, less than 5 % is left to gain.
  const std::vector<results::CurvePoint> curve{curve_point(1, 10), curve_point(2, 19),
                                               curve_point(3, 27), curve_point(4, 30),
                                               curve_point(5, 31), curve_point(6, 31.5)};
  EXPECT_EQ(contention_knee(curve), 5);
  // Still rising at its last point: no knee within the range (a 2-core node whose curve doubles).
  EXPECT_FALSE(contention_knee({curve_point(1, 10), curve_point(2, 20)}).has_value());
  EXPECT_FALSE(contention_knee({curve_point(1, 10), curve_point(2, 18.5)}).has_value());
  EXPECT_EQ(contention_knee({curve_point(1, 10), curve_point(2, 10.2)}), 1);
  EXPECT_FALSE(contention_knee({}).has_value());
  // A dip after the knee does not move it.
  EXPECT_EQ(contention_knee(
                {curve_point(1, 10), curve_point(2, 20), curve_point(3, 20.5), curve_point(4, 19)}),
            2);
}

TEST(Contention, DescriptionListsCurvesAndTotals) {
  results::Results r;
  r.contention_curve = {curve_point(1, 10), curve_point(2, 20)};
  results::SharedBandwidth total;
  total.placement = Placement::congestion;
  total.access = Access::load;
  total.threads = 2;
  total.samples = {18};
  total.stats = results::summarize(total.samples);
  r.shared = {total};
  const std::string text = describe_contention(r);
  EXPECT_NE(text.find("no knee within 2 threads"), std::string::npos) << text;
  EXPECT_NE(text.find("congestion all memories load: 18.0 GB/s in total"), std::string::npos)
      << text;
}

TEST(Matrix, ShowsLocalAndRemoteBandwidthPerDomainAndMemory) {
  results::Results r;
  r.topology = results::topology_from_json(
      {{"memories", {{{"os_index", 0}, {"kind", "DRAM"}}, {{"os_index", 1}, {"kind", "DRAM"}}}},
       {"distances", {{"kind", "latency (from OS)"}, {"values", {{10, 20}, {20, 10}}}}}});
  for (int d = 0; d < 2; ++d) {
    for (int m = 0; m < 2; ++m) {
      results::Roof memory_roof = roof("memory", "load", d == m ? 36.1 : 17.5);
      memory_roof.domain = d;
      memory_roof.memory = MemoryRef{m, static_cast<unsigned>(m)};
      memory_roof.placement = d == m ? Placement::local : Placement::remote;
      r.roofs.push_back(memory_roof);
    }
  }
  const std::string text = text::matrix_table(r);
  // Local memory bracketed: "*" means unstable in every table.
  EXPECT_NE(text.find("[36.10]"), std::string::npos) << text;
  EXPECT_EQ(text.find("36.10*"), std::string::npos) << text;
  EXPECT_NE(text.find("17.50"), std::string::npos);
  EXPECT_NE(text.find("hwloc distances (latency (from OS))"), std::string::npos);
}

}  // namespace
}  // namespace larm::roofline
