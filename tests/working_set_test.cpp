// Working-set sizes per level (METHOD §3), from real machines' topologies.
#include <gtest/gtest.h>

#include <cmath>

#include "characterize/working_set.h"
#include "codegen/isa.h"
#include "tests/topology_fixture.h"

namespace larm::characterize {
namespace {

using larm::testing::load_fixture;

TEST(WorkingSet, EachLevelLiesBetweenTheLevelsBelowAndItsOwnShare) {
  const topology::Topology t = load_fixture("24em64t-2n6c2t-pci.xml");
  const auto sets = level_working_sets(t.domains()[0]);
  ASSERT_EQ(sets.size(), 4u);
  EXPECT_EQ(sets[0].level, Level::L1);
  EXPECT_EQ(sets[0].bytes_per_thread, 16u << 10);  // half of a 32 KiB L1
  EXPECT_EQ(sets[1].level, Level::L2);
  EXPECT_EQ(sets[1].bytes_per_thread,
            static_cast<std::uint64_t>(std::sqrt(32.0 * 1024 * 256 * 1024)));
  EXPECT_EQ(sets[2].level, Level::L3);
  const double l3_share = 12.0 * (1 << 20) / 6;  // 12 MiB shared by 6 cores
  EXPECT_GT(static_cast<double>(sets[2].bytes_per_thread), (32 + 256) * 1024.0);
  EXPECT_LT(static_cast<double>(sets[2].bytes_per_thread), l3_share);
  EXPECT_EQ(sets[3].level, Level::memory);
  // 4 × 12 MiB / 6 threads = 8 MiB, but never less than 64 MiB in total.
  EXPECT_EQ(sets[3].bytes_per_thread, ((64u << 20) + 5) / 6);
}

TEST(WorkingSet, MemoryIsFourTimesTheLastLevelPerThreadWhenLarger) {
  EXPECT_EQ(memory_working_set(32u << 20, 2), 64u << 20);
  EXPECT_EQ(memory_working_set(256u << 20, 8), 128u << 20);
  EXPECT_EQ(memory_working_set(0, 1), 64u << 20);
}

TEST(WorkingSet, LevelThatCannotBeIsolatedIsAbsentWithAReason) {
  topology::Domain d;
  d.core_pus = {0, 1};
  d.caches = {{1, 32 << 10, 64, 2, 1, 64 << 10, {0}}, {2, 32 << 10, 64, 1, 2, 32 << 10, {0, 1}}};
  const auto sets = level_working_sets(d);
  ASSERT_EQ(sets.size(), 3u);
  EXPECT_EQ(sets[1].bytes_per_thread, 0u);
  EXPECT_NE(sets[1].absent_reason.find("no more than the levels below"), std::string::npos);
}

TEST(WorkingSet, SweepCoversOneKibToBeyondTheLastLevel) {
  const topology::Topology t = load_fixture("32em64t-2n8c2t-pci-noio.xml");
  const topology::Domain& d = t.domains()[0];
  const auto sizes = sweep_sizes(d, 4);
  EXPECT_EQ(sizes.front(), 1024u);
  EXPECT_GE(sizes.back(), 4 * d.caches.back().bytes_per_thread());
  for (std::size_t i = 1; i < sizes.size(); ++i) EXPECT_GT(sizes[i], sizes[i - 1]);
  // 4 points per octave: 1 KiB to 8 KiB is 3 octaves.
  EXPECT_EQ(sizes[12], 8192u);
}

TEST(WorkingSet, StreamsAreWholeChunks) {
  const codegen::StreamSpec copy{.isa = codegen::widest_isa(), .access = larm::Access::copy};
  const std::uint64_t chunk = codegen::stream_chunk_bytes(copy);
  const std::uint64_t per_stream = codegen::bytes_per_stream(copy, 100000);
  EXPECT_EQ(per_stream % chunk, 0u);
  EXPECT_LE(2 * per_stream, 100000u);
  EXPECT_EQ(codegen::bytes_per_stream(copy, 10), chunk);  // at least one chunk
}

TEST(WorkingSet, UnrollShrinksToFitSmallWorkingSets) {
  const codegen::StreamSpec load{.isa = codegen::widest_isa(), .access = larm::Access::load};
  const auto fitted = std::get<codegen::StreamSpec>(codegen::fit_unroll(load, 1024));
  // 1 KiB of vectors: 16 of AVX-512, 64 of NEON.
  EXPECT_EQ(fitted.unroll, 1024 / codegen::traits(load.isa).vector_bytes);
  EXPECT_EQ(codegen::bytes_per_stream(fitted, 1024), 1024u);
  EXPECT_EQ(std::get<codegen::StreamSpec>(codegen::fit_unroll(load, 1 << 20)).unroll,
            load.effective_unroll());
}

}  // namespace
}  // namespace larm::characterize
