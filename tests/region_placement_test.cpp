// Placing region points on a fixture of a 2-domain node with every kind of roof.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>

#include "report/text/placement_table.h"
#include "results/store.h"
#include "roofline/region_placement.h"

namespace larm::roofline {
namespace {

// A load roof of an AVX-512 run on 8 threads, by the words of the results files.
results::Roof bandwidth(int domain, const std::string& level, double gbps,
                        const std::string& placement = "", const std::string& memory = "") {
  results::Roof r;
  r.domain = domain;
  r.level = parse<Level>(level).value();
  r.access = Access::load;
  r.isa = Isa::avx512;
  r.threads = 8;
  r.placement = parse<Placement>(placement);
  if (!memory.empty()) r.memory = MemoryRef{-1, static_cast<unsigned>(std::stoul(memory))};
  r.memory_kind = level == "memory" ? "DRAM" : "";
  r.samples = {gbps};
  r.stats = results::summarize(r.samples);
  r.roof = r.stats.median;
  return r;
}

results::Roof ceiling(int domain, const std::string& op, double gflops) {
  results::Roof r = bandwidth(domain, "flops", gflops);
  r.op = parse<FlopOp>(op).value();
  r.precision = Precision::dp;
  r.memory_kind = "";
  return r;
}

// Domain 0 of a node like the thesis's Broadwell (table 4.2): L1 760, L2 309, L3 154, local 36,
// remote 17.5, contention 16.7 (local) / 8.3 (remote), congestion 18.1; FMA 300, ADD 150.
results::Results two_domain_fixture() {
  results::Results r;
  r.topology = results::topology_from_json(nlohmann::json::parse(R"({"domains": [
      {"index": 0, "pus": [0, 1], "local_memories": [0]},
      {"index": 1, "pus": [2, 3], "local_memories": [1]}]})"));
  r.roofs = {bandwidth(0, "L1", 760.1),
             bandwidth(0, "L2", 309.2),
             bandwidth(0, "L3", 154.0),
             bandwidth(0, "memory", 36.1, "local", "0"),
             bandwidth(0, "memory", 17.5, "remote", "1"),
             bandwidth(0, "memory", 16.7, "contention", "0"),
             bandwidth(0, "memory", 8.3, "contention", "1"),
             bandwidth(0, "memory", 18.1, "congestion", ""),
             ceiling(0, "fma", 300),
             ceiling(0, "add", 150)};
  return r;
}

RegionPoint region_point(double ai, double gflops, std::map<unsigned, double> data = {}) {
  RegionPoint p;
  p.region = "r";
  p.label = "firsttouch";
  p.domain = 0;
  p.threads = 2;
  p.ai = ai;
  p.gflops = gflops;
  p.gbps = gflops / ai;
  p.data_memories = std::move(data);
  return p;
}

TEST(RegionPlacement, TheLowestRoofAboveThePointBoundsIt) {
  const auto results = two_domain_fixture();
  // AI 0.1: roofs at 76, 30.9, 15.4, 3.61, 1.75, 1.67, 0.83, 1.81 GFLOP/s.
  const PlacedRegion local = place(region_point(0.1, 3.0, {{0, 1.0}}), results, {});
  ASSERT_TRUE(local.bound);
  EXPECT_EQ(local.bound->kind(), RoofKind::local);
  EXPECT_NEAR(local.roof_gflops, 3.61, 1e-9);
  EXPECT_NEAR(local.distance_percent, (3.61 - 3.0) / 3.61 * 100, 1e-9);
  EXPECT_NE(local.verdict.find("100 % on memory 0 (local)"), std::string::npos);

  const PlacedRegion congestion = place(region_point(0.1, 1.78), results, {});
  EXPECT_EQ(congestion.bound->kind(), RoofKind::congestion);

  const PlacedRegion remote = place(region_point(0.1, 1.7, {{1, 1.0}}), results, {});
  EXPECT_EQ(remote.bound->kind(), RoofKind::remote);
  EXPECT_EQ(memory_text(remote.bound->memory), "1");
  EXPECT_NE(remote.verdict.find("100 % on memory 1 (remote)"), std::string::npos);

  // Alone on the node, data on memory 1 is read remotely; with domain 1 running the region at
  // the same time, the two share memory 1: its contention roof.
  EXPECT_EQ(place(region_point(0.1, 0.8, {{1, 1.0}}), results, {}).bound->kind(), RoofKind::remote);
  RegionPoint shared = region_point(0.1, 0.8, {{1, 1.0}});
  shared.concurrent = {{1, 8.0}};
  const PlacedRegion contention = place(shared, results, {});
  EXPECT_EQ(contention.bound->kind(), RoofKind::contention);
  EXPECT_EQ(memory_text(contention.bound->memory), "1");
  EXPECT_NE(contention.verdict.find("concentrated on memory 1"), std::string::npos);

  const PlacedRegion cache = place(region_point(0.1, 20), results, {});
  EXPECT_EQ(cache.bound->kind(), RoofKind::cache);
  EXPECT_EQ(cache.bound->name, "L2 load");
}

TEST(RegionPlacement, OnlyTheMemoryHoldingTheDataCanBoundIt) {
  // 1.0 GFLOP/s at AI 0.1 is under the local roof (3.61) and the remote one (1.75): data on
  // memory 0 makes the local roof its bound, not the remote roof of a memory it does not use.
  const PlacedRegion placed = place(region_point(0.1, 1.0, {{0, 1.0}}), two_domain_fixture(), {});
  ASSERT_TRUE(placed.bound);
  EXPECT_EQ(placed.bound->kind(), RoofKind::local);
  ASSERT_TRUE(placed.data_roof);
  EXPECT_NEAR(placed.data_roof->value, 36.1, 1e-9);
  // Half on each memory, one domain: 1 / (0.5 / 36.1 + 0.5 / 17.5) GB/s.
  const PlacedRegion mixed =
      place(region_point(0.1, 1.0, {{0, 0.5}, {1, 0.5}}), two_domain_fixture(), {});
  ASSERT_TRUE(mixed.data_roof);
  EXPECT_NEAR(mixed.data_roof->value, 1 / (0.5 / 36.1 + 0.5 / 17.5), 1e-9);
  EXPECT_EQ(mixed.bound->name, "data roof (50 % memory 0, 50 % memory 1) load");
}

TEST(RegionPlacement, CountedFmasChooseTheFmaCeilings) {
  // AI 100, 100 GFLOP/s: under the add ceiling (150) and the fma one (300), far under every
  // bandwidth roof (the lowest, 8.3 GB/s, at 830 GFLOP/s). Counted FLOPs that are
  // 99 % FMAs are bound by the fma ceiling; 10 % FMAs by the add ceiling; unknown: the lowest.
  RegionPoint dense = region_point(100, 100);
  EXPECT_EQ(place(dense, two_domain_fixture(), {}).bound->op, FlopOp::add);
  dense.fma_share = 0.99;
  const PlacedRegion fma = place(dense, two_domain_fixture(), {});
  EXPECT_EQ(fma.bound->op, FlopOp::fma);
  EXPECT_NE(fma.verdict.find("99 % of its counted FLOPs are FMAs"), std::string::npos)
      << fma.verdict;
  dense.fma_share = 0.1;
  EXPECT_EQ(place(dense, two_domain_fixture(), {}).bound->op, FlopOp::add);
}

TEST(RegionPlacement, ARegionWithoutFlopsIsPlacedByItsBandwidth) {
  // A copy kernel: 0 FLOPs, 25 GB/s from memory 0: under the local roof (36.1), 30.7 % below,
  // never "L1" nor NaN.
  RegionPoint copy = region_point(0.1, 1.0, {{0, 1.0}});
  copy.ai = 0;
  copy.gflops = 0;
  copy.gbps = 25;
  copy.read_share = 0.5;
  const PlacedRegion placed = place(copy, two_domain_fixture(), {.access_follows_region = true});
  ASSERT_TRUE(placed.bound);
  EXPECT_TRUE(placed.by_bandwidth);
  EXPECT_EQ(placed.bound->kind(), RoofKind::local);
  EXPECT_NEAR(placed.distance_percent, (36.1 - 25) / 36.1 * 100, 1e-9);
  EXPECT_NE(placed.verdict.find("no FLOPs: placed by its bandwidth"), std::string::npos);
  const std::string text = text::placement_table({placed}) + placements_json({placed}).dump();
  EXPECT_EQ(text.find("nan"), std::string::npos) << text;
  EXPECT_EQ(text.find("inf"), std::string::npos) << text;
  // No bytes either, or no time: not placed, and said.
  copy.gbps.reset();
  EXPECT_NE(place(copy, two_domain_fixture(), {}).verdict.find("not placed"), std::string::npos);
}

// Thesis fig. 4.6: ddot run from the four domains at once with its pages bound to memory 0, first
// touched by each domain, or interleaved (tests/fixtures/broadwell-table42).
TEST(RegionPlacement, TheVerdictOfTheThesisFollowsTheData) {
  const std::string dir = std::string(LARM_SOURCE_DIR) + "/tests/fixtures/broadwell-table42";
  const results::Results results = results::load_results(dir);
  const std::pair<const char*, RoofKind> cases[] = {{"bind0", RoofKind::contention},
                                                    {"firsttouch", RoofKind::local},
                                                    {"interleave", RoofKind::congestion}};
  for (const auto& [label, kind] : cases) {
    const std::string file = dir + "/regions-" + label + ".json";
    std::ifstream in(file);
    const auto points = region_points(nlohmann::json::parse(in), file);
    int placed = 0;
    for (const RegionPoint& point : points) {
      if (point.region != "ddot") continue;
      const PlacedRegion p = place(point, results, {.access_follows_region = true});
      ASSERT_TRUE(p.bound) << label << " domain " << point.domain << ": " << p.verdict;
      EXPECT_EQ(p.bound->kind(), kind) << label << " domain " << point.domain << ": " << p.verdict;
      if (kind != RoofKind::congestion) {
        // The memory that holds the domain's data: 0 when bound there, its own when first touched.
        EXPECT_EQ(memory_text(p.bound->memory),
                  std::to_string(kind == RoofKind::local ? point.domain : 0));
      }
      ++placed;
    }
    EXPECT_EQ(placed, 4) << label;
  }
}

TEST(RegionPlacement, NoiseAboveARoofDoesNotMakeTheNextRoofItsBound) {
  auto results = two_domain_fixture();
  // The local roof (36.1 GB/s) measured 34.3 to 37.9 (±4.99 %); the remote roof (17.5) ±2 %;
  // congestion (18.1) and remote are 3.4 % apart.
  auto spread = [&](const std::string& kind, std::vector<double> samples) {
    for (auto& r : results.roofs) {
      if (r.level == Level::memory && r.placement && name(*r.placement) == kind) {
        r.samples = samples;
        r.stats = results::summarize(r.samples);
      }
    }
  };
  spread("local", {34.3, 36.1, 37.9});
  spread("remote", {17.15, 17.5, 17.85});
  spread("congestion", {17.7, 18.1, 18.5});
  // AI 0.1: 3.7 GFLOP/s is 2.5 % above the local roof (3.61), within its 4.99 %: bound by it, not
  // by the L3 roof above; and within the noise of no other roof.
  const PlacedRegion above = place(region_point(0.1, 3.7, {{0, 1.0}}), results, {});
  ASSERT_TRUE(above.bound);
  EXPECT_EQ(above.bound->kind(), RoofKind::local);
  EXPECT_NEAR(above.bound->tolerance, 1.8 / 36.1, 1e-9);
  EXPECT_LT(above.distance_percent, 0);
  EXPECT_EQ(above.within_noise_of, std::vector<std::string>{"local memory 0 (DRAM) load"});
  EXPECT_EQ(above.verdict.find("cannot tell"), std::string::npos) << above.verdict;
  // Beyond the local roof's noise (3.8 is 5.3 % above): the L3 roof bounds it.
  EXPECT_EQ(place(region_point(0.1, 3.8), results, {}).bound->kind(), RoofKind::cache);
  // 1.78 lies within the remote roof's ±2 % (1.75) and congestion's ±2.2 % (1.81): bound by
  // the lower, and the verdict names both.
  const PlacedRegion two = place(region_point(0.1, 1.78), results, {});
  ASSERT_TRUE(two.bound);
  EXPECT_EQ(two.bound->kind(), RoofKind::remote);
  EXPECT_EQ(two.within_noise_of.size(), 2u);
  EXPECT_NE(two.verdict.find("within the measured noise of 2 roofs (remote memory 1 (DRAM) load "
                             "(±2.0 %) and congestion load (±2.2 %))"),
            std::string::npos)
      << two.verdict;
  // One sample per roof: no spread, so no tolerance (the exact comparison of before).
  const PlacedRegion exact = place(region_point(0.1, 3.62), two_domain_fixture(), {});
  EXPECT_EQ(exact.bound->kind(), RoofKind::cache);
}

TEST(RegionPlacement, HybridRoofOfTheRegionCanBoundIt) {
  // A hybrid fit whose slow memory (0) reads at 12 GB/s alone: a region all on memory 0 gets
  // its own roof at that bandwidth, below the local roof (36.1), and is bound by it.
  hybrid::HybridResults hybrid;
  hybrid::Fit fit;
  fit.bandwidth_gbps[hybrid::Transfer::ll] = 12;
  fit.bandwidth_gbps[hybrid::Transfer::lr] = 90;
  fit.bandwidth_gbps[hybrid::Transfer::el] = 10;
  fit.bandwidth_gbps[hybrid::Transfer::er] = 60;
  hybrid.fit = fit;
  hybrid.domain = 0;
  hybrid.fast = hybrid::MemoryChoice{.os_index = 1, .kind = "HBM", .why = ""};
  hybrid.slow = hybrid::MemoryChoice{.os_index = 0, .kind = "DRAM", .why = ""};
  RegionPoint p = region_point(0.1, 1.0, {{0, 1.0}});
  p.read_share = 1.0;
  const PlacedRegion placed = place(p, two_domain_fixture(), {.hybrid = &hybrid});
  ASSERT_TRUE(placed.hybrid_roof);
  EXPECT_NEAR(placed.hybrid_roof->value, 12.0, 1e-9);
  ASSERT_TRUE(placed.bound);
  EXPECT_TRUE(placed.bound->hybrid);
  EXPECT_NE(placed.verdict.find("own hybrid roof"), std::string::npos);
  EXPECT_EQ(placements_json({placed})[0]["hybrid_roof_gbps"], 12.0);
  // Another domain than the fit's: no hybrid roof.
  p.domain = 1;
  EXPECT_FALSE(place(p, two_domain_fixture(), {.hybrid = &hybrid}).hybrid_roof);
}

TEST(RegionPlacement, CeilingsBoundHighIntensityPoints) {
  const auto results = two_domain_fixture();
  const PlacedRegion add = place(region_point(10, 120), results, {});
  EXPECT_EQ(add.bound->kind(), RoofKind::compute);
  EXPECT_EQ(add.bound->name, "add dp avx512");
  const PlacedRegion fma = place(region_point(10, 200), results, {});
  EXPECT_EQ(fma.bound->name, "fma dp avx512");
  EXPECT_NE(fma.verdict.find("compute-bound"), std::string::npos);
}

TEST(RegionPlacement, PointsWithoutIntensityOrAboveEveryRoofAreSaidSo) {
  const auto results = two_domain_fixture();
  RegionPoint unknown = region_point(0.1, 1);
  unknown.ai.reset();
  unknown.unavailable = "no FLOP count";
  const PlacedRegion none = place(unknown, results, {});
  EXPECT_FALSE(none.bound);
  EXPECT_EQ(none.verdict, "not placed: no FLOP count");
  const PlacedRegion above = place(region_point(0.1, 500), results, {});
  EXPECT_FALSE(above.bound);
  EXPECT_NE(above.verdict.find("above every roof"), std::string::npos);
  RegionPoint elsewhere = region_point(0.1, 1);
  elsewhere.domain = 1;  // the fixture has no roof for domain 1
  EXPECT_NE(place(elsewhere, results, {}).verdict.find("no roof for domain 1"), std::string::npos);
}

TEST(RegionPlacement, FarBelowItsRoofSaysSomethingElseLimitsIt) {
  const auto results = two_domain_fixture();
  const PlacedRegion far = place(region_point(0.1, 2.0, {{0, 1.0}}), results, {});
  // With its data on memory 0, 2.0 is 45 % under the local roof (3.61); untagged, 0.3 is 64 %
  // under the lowest roof above it, the contention roof of memory 1 (0.83).
  EXPECT_EQ(far.verdict.find("far below"), std::string::npos);
  const PlacedRegion farther = place(region_point(0.1, 0.3), results, {});
  EXPECT_EQ(farther.bound->kind(), RoofKind::contention);
  EXPECT_NE(farther.verdict.find("far below"), std::string::npos);
}

TEST(RegionPlacement, ReadsPerDomainPointsOfARegionsFile) {
  // Every member the schema requires (the reader refuses less), the counts of no interest zero.
  const auto doc = nlohmann::json::parse(R"({
    "format": "larm-regions", "schema_version": "1.0", "label": "interleave", "host": "h",
    "pid": 1, "started_at": "", "wall_seconds": 2.0,
    "clock": {"source": "test", "ticks_per_second": 1e9},
    "counters": {"available": false, "reason": "none", "events": [], "events_refused": [],
                 "bytes_per_memory_instruction": null},
    "topology": {}, "open_at_finalize": [],
    "regions": [{"name": "ddot",
      "threads": [{"thread": 0, "tid": 1, "cpu": 0, "domain": 0, "migrated": true, "calls": 1,
                   "seconds": 2.0, "flops": 3e9, "flops_source": "declared", "bytes": 24e9,
                   "bytes_source": "declared", "ai": 0.125, "gflops": 1.5, "gbps": 12.0}],
      "domains": [{"domain": 0, "threads": 1, "calls": 1, "seconds": 2.0, "flops": 3e9,
                   "flops_source": "declared", "bytes": 24e9, "bytes_source": "declared",
                   "threads_without_flops": 0, "threads_without_bytes": 0,
                   "ai": 0.125, "gflops": 1.5, "gbps": 12.0},
                  {"domain": null, "threads": 1, "calls": 1, "seconds": 1.0, "flops": null,
                   "flops_source": "unavailable", "bytes": null, "bytes_source": "unavailable",
                   "threads_without_flops": 1, "threads_without_bytes": 1,
                   "ai": null, "gflops": null, "gbps": null}],
      "machine": {"threads": 1, "calls": 1, "seconds": 2.0, "flops": 3e9,
                  "flops_source": "declared", "bytes": 24e9, "bytes_source": "declared",
                  "threads_without_flops": 0, "threads_without_bytes": 0,
                  "ai": 0.125, "gflops": 1.5, "gbps": 12.0},
      "data": {"ranges": [], "memory_fractions": {"0": 0.5, "1": 0.5}, "pages_placed": 2,
               "pages_not_present": 0, "pages_unplaced": 0}}]})");
  const auto points = region_points(doc, "f.json");
  ASSERT_EQ(points.size(), 1u);  // the entry of unknown domain is skipped
  EXPECT_EQ(points[0].label, "interleave");
  EXPECT_DOUBLE_EQ(*points[0].ai, 0.125);
  EXPECT_TRUE(points[0].migrated);
  EXPECT_DOUBLE_EQ(points[0].data_memories.at(1), 0.5);
  EXPECT_THROW(region_points(nlohmann::json::parse(R"({"format": "x"})"), "x.json"),
               std::runtime_error);
  EXPECT_THROW(
      region_points(nlohmann::json::parse(R"({"format": "larm-regions", "schema_version": "2.0"})"),
                    "y.json"),
      std::runtime_error);
}

TEST(RegionPlacement, AbsentRoofKindsCarryTheirReason) {
  auto results = two_domain_fixture();
  results.roofs.erase(
      std::remove_if(results.roofs.begin(), results.roofs.end(),
                     [](const auto& r) { return r.placement == Placement::remote; }),
      results.roofs.end());
  auto absent = bandwidth(0, "memory", 0, "remote", "1");
  absent.samples.clear();
  absent.status = Status::absent;
  absent.status_reason = "single NUMA node";
  results.roofs.push_back(absent);
  const auto kinds = absent_roof_kinds(results, 0, {});
  ASSERT_EQ(kinds.size(), 1u);
  EXPECT_EQ(kinds[0], "remote: single NUMA node");
}

// The fixture with a 64-byte line and a measured memory latency of 100 ns on domain 0.
results::Results fixture_with_latency() {
  results::Results r = two_domain_fixture();
  r.topology = results::topology_from_json(nlohmann::json::parse(R"({"domains": [
      {"index": 0, "pus": [0, 1], "local_memories": [0],
       "caches": [{"level": "L1", "instance_bytes": 32768, "line_bytes": 64, "instances": 2},
                  {"level": "L3", "instance_bytes": 33554432, "line_bytes": 64, "instances": 1}]},
      {"index": 1, "pus": [2, 3], "local_memories": [1]}]})"));
  results::LatencyPoint latency;
  latency.domain = 0;
  latency.level = Level::memory;
  latency.memory = MemoryRef{0, 0};
  latency.samples_ns = {100};
  latency.stats = results::summarize(latency.samples_ns);
  r.latency.push_back(latency);
  return r;
}

// A counted region of 1 GFLOP over `seconds` on 2 threads with these bytes per level.
RegionPoint counted_point(double core_bytes, LevelTraffic traffic, double seconds) {
  RegionPoint p = region_point(1e9 / core_bytes, 1 / seconds);
  p.seconds = seconds;
  p.flops = 1e9;
  p.gbps = core_bytes / seconds * 1e-9;
  p.traffic = traffic;
  p.counted_isa = Isa::avx512;
  p.counted_width = "512-bit";
  return p;
}

TEST(RegionPlacement, WithBytesPerLevelTheMostUsedRoofBoundsItWhateverItsTime) {
  const auto results = fixture_with_latency();
  // 8 GB at the core (L1 760 GB/s), 6 GB from L2 (309), 4 GB from L3 (154), 0.5 GB from memory
  // (36.1), of which 10 MB fetched (the rest written back): the L3's 4/154 s is the longest, the
  // L3 roof bounds it, at any measured time.
  const LevelTraffic traffic{6e9, 4e9, 0.5e9, 1e7};
  std::string first;
  for (const double seconds : {0.03, 0.06, 0.5}) {
    const PlacedRegion placed = place(counted_point(8e9, traffic, seconds), results, {});
    ASSERT_TRUE(placed.bound);
    EXPECT_EQ(placed.bound->level, Level::L3) << placed.verdict;
    EXPECT_FALSE(placed.latency);
    ASSERT_FALSE(placed.levels.empty());
    EXPECT_NEAR(placed.levels.front().utilization, 4e9 / seconds * 1e-9 / 154.0, 1e-9);
    EXPECT_NEAR(placed.levels.front().ai, 1e9 / 4e9, 1e-12);
    EXPECT_NEAR(placed.distance_percent, (1 - placed.levels.front().utilization) * 100, 1e-9);
    EXPECT_NE(placed.verdict.find("memory-level roofline"), std::string::npos);
    if (first.empty()) first = placed.bound->name;
    EXPECT_EQ(placed.bound->name, first);
  }
}

TEST(RegionPlacement, TheCeilingOfItsCountedWidthBoundsAComputeHeavyRegion) {
  const auto results = fixture_with_latency();
  // 1 GFLOP in 5 ms: 200 GFLOP/s, 2/3 of the fma ceiling; its bytes use every roof less.
  PlacedRegion placed =
      place(counted_point(1e9, LevelTraffic{1e8, 1e7, 1e6, 1e6}, 0.005), results, {});
  ASSERT_TRUE(placed.bound);
  EXPECT_FALSE(placed.bound->slope()) << placed.verdict;
  // Counted 128-bit FLOPs: no ceiling of that width in these results (all AVX-512), so the
  // width filter keeps what there is rather than leave no ceiling.
  RegionPoint narrow = counted_point(1e9, LevelTraffic{1e8, 1e7, 1e6, 1e6}, 0.005);
  narrow.counted_isa = Isa::sse2;
  placed = place(narrow, results, {});
  ASSERT_TRUE(placed.bound);
  EXPECT_FALSE(placed.bound->slope());
}

TEST(RegionPlacement, FewLinesInFlightFarBelowEveryRoofIsLatencyBound) {
  const auto results = fixture_with_latency();
  // 1.28 GB of misses in 1 s on 2 threads: 20 lines/µs; × 100 ns ÷ 2 threads = 1 line in
  // flight per thread; memory used 1.28/36.1 = 3.5 %: latency-bound.
  RegionPoint chase = counted_point(2e9, LevelTraffic{1.28e9, 1.28e9, 1.28e9, 1.28e9}, 1.0);
  PlacedRegion placed = place(chase, results, {});
  ASSERT_TRUE(placed.latency) << placed.verdict;
  EXPECT_NEAR(placed.latency->lines_in_flight, 1.0, 1e-9);
  EXPECT_DOUBLE_EQ(placed.latency->latency_ns, 100);
  EXPECT_EQ(placed.verdict.rfind("latency-bound", 0), 0u) << placed.verdict;
  EXPECT_NE(text::placement_table({placed}).find("memory latency"), std::string::npos);
  // The same misses 10 times faster: 10 lines in flight, they overlap: not latency-bound.
  placed =
      place(counted_point(2e9, LevelTraffic{1.28e9, 1.28e9, 1.28e9, 1.28e9}, 0.1), results, {});
  EXPECT_FALSE(placed.latency) << placed.verdict;
  // A stream at 80 % of the memory roof: bandwidth-bound, whatever its lines in flight.
  placed =
      place(counted_point(1e9, LevelTraffic{28.9e9, 28.9e9, 28.9e9, 28.9e9}, 1.0), results, {});
  EXPECT_FALSE(placed.latency);
  ASSERT_TRUE(placed.bound);
  EXPECT_EQ(placed.bound->kind(), RoofKind::local);
  // Without a measured memory latency there is no latency verdict.
  placed = place(chase, two_domain_fixture(), {});
  EXPECT_FALSE(placed.latency);
}

TEST(RegionPlacement, ItsMemoryBandwidthOnTheLoadedLatencyCurveGivesTheLatencyItPays) {
  auto results = fixture_with_latency();
  // Memory 0 from domain 0: idle 100 ns, 120 ns at 10 GB/s, 240 ns at 20, 400 ns at 30.
  results::LoadedLatencyCurve curve;
  curve.domain = 0;
  curve.memory = MemoryRef{0, 0};
  curve.mix = "1";
  curve.idle_ns = 100;
  curve.saturation_gbps = 30;
  for (const auto& [gbps, ns] :
       std::vector<std::pair<double, double>>{{0, 100}, {10, 120}, {20, 240}, {30, 400}}) {
    results::LoadedLatencyPoint p;
    if (gbps > 0) p.delay = static_cast<std::uint32_t>(100 / gbps);
    p.injector_gbps = gbps;
    p.samples_ns = {ns};
    p.p10_ns = p.p50_ns = p.p90_ns = ns;
    curve.points.push_back(p);
  }
  results.loaded_latency.push_back(curve);
  // The chase of the latency test: 1.28 GB/s of misses, 102.56 ns there: 1.0256 lines in flight
  // per thread, latency-bound, and the verdict says at what latency.
  RegionPoint chase = counted_point(2e9, LevelTraffic{1.28e9, 1.28e9, 1.28e9, 1.28e9}, 1.0);
  PlacedRegion placed = place(chase, results, {});
  ASSERT_TRUE(placed.latency) << placed.verdict;
  EXPECT_NEAR(placed.latency->latency_ns, 100 + 1.28 * 2, 1e-9);
  EXPECT_NEAR(placed.latency->lines_in_flight, 0.02 * (100 + 1.28 * 2) / 2, 1e-9);
  EXPECT_NE(placed.verdict.find("memory 0 at 1.3 GB/s: 1.03 x its idle latency"), std::string::npos)
      << placed.verdict;
  ASSERT_TRUE(placed.memory_at_load);
  // A stream at 80 % of the memory roof (28.9 GB/s): bandwidth-bound, and its memory's latency
  // there said: 382.4 ns, 3.82 x idle.
  placed =
      place(counted_point(1e9, LevelTraffic{28.9e9, 28.9e9, 28.9e9, 28.9e9}, 1.0), results, {});
  EXPECT_FALSE(placed.latency);
  ASSERT_TRUE(placed.memory_at_load);
  EXPECT_NEAR(placed.memory_at_load->latency_ns, 240 + 0.89 * 160, 1e-9);
  EXPECT_NE(placed.verdict.find("memory 0 at 28.9 GB/s: 3.82 x its idle latency"),
            std::string::npos)
      << placed.verdict;
  const nlohmann::json j = placements_json({placed});
  EXPECT_NEAR(j[0]["memory_at_load"]["factor"].get<double>(), 3.824, 1e-9);
  // Without curves the JSON carries null.
  EXPECT_TRUE(
      placements_json({place(chase, fixture_with_latency(), {})})[0]["memory_at_load"].is_null());
}

TEST(RegionPlacement, RunsThatSpreadMoreThanTheBoundsIntervalMarkItUnstable) {
  auto results = fixture_with_latency();
  for (auto& roof : results.roofs) {
    results::RoofInterval interval;
    interval.low = roof.roof * 0.97;
    interval.high = roof.roof * 1.03;
    roof.interval = interval;
  }
  RegionPoint point = counted_point(8e9, LevelTraffic{6e9, 4e9, 0.5e9, 0.4e9}, 0.05);
  point.timing = regions::RunTiming{
      {0.05, 0.06, 0.05}, {true, true, true}, "median of 3 clean runs of 3", 0.05, 0.2};
  PlacedRegion placed = place(point, results, {});
  EXPECT_TRUE(placed.unstable);
  EXPECT_NE(placed.verdict.find("unstable"), std::string::npos);
  EXPECT_NE(placed.verdict.find("median of 3 clean runs of 3"), std::string::npos);
  point.timing->spread = 0.02;  // inside the 6 % the interval spans
  placed = place(point, results, {});
  EXPECT_FALSE(placed.unstable) << placed.verdict;
  const auto json = placements_json({placed});
  EXPECT_EQ(json[0]["unstable"], false);
  EXPECT_EQ(json[0]["time_estimator"], "median of 3 clean runs of 3");
  EXPECT_EQ(json[0]["levels"][0]["level"], "L3");
}

TEST(RegionPlacement, CountedEntriesGiveTrafficAndWidth) {
  regions::RegionsFile file;
  regions::Region region;
  region.name = "k";
  regions::Aggregate entry;
  entry.domain = 0;
  entry.threads = 1;
  entry.calls = 1;
  entry.seconds = 1;
  entry.flops = {4e9, "counted"};
  entry.bytes = {8e9, "counted"};
  entry.rates = regions::rates_of(entry.flops.value, entry.bytes.value, 1);
  entry.counted = {{"cache_accesses", 1e8},    {"bytes_l2_read", 3e9},
                   {"bytes_l2_written", 1e9},  {"bytes_l3_read", 2e9},
                   {"bytes_memory_read", 5e8}, {"bytes_memory_written", 1e8},
                   {"flops_dp_256", 3e9},      {"flops_dp_scalar", 1e9}};
  region.domains.push_back(entry);
  region.machine = entry;
  file.regions.push_back(region);
  const auto points = region_points(file, "f");
  ASSERT_EQ(points.size(), 1u);
  ASSERT_TRUE(points[0].traffic);
  EXPECT_DOUBLE_EQ(points[0].traffic->l2, 4e9);
  EXPECT_DOUBLE_EQ(points[0].traffic->l3, 2e9);
  EXPECT_DOUBLE_EQ(points[0].traffic->memory, 6e8);
  EXPECT_DOUBLE_EQ(points[0].traffic->memory_read, 5e8);
  ASSERT_TRUE(points[0].counted_isa);
  EXPECT_EQ(*points[0].counted_isa, Isa::avx2);
  // Without the cache model (no simulated access) there are no bytes per level.
  file.regions[0].domains[0].counted.erase("cache_accesses");
  EXPECT_FALSE(region_points(file, "f")[0].traffic);
}

// A region with `threads` recording threads while `busy` threads of the process worked, its
// data present on memory 0 when tagged (`present` of 100 sampled pages) in a node of `memories`.
regions::RegionsFile busy_file(int threads, double busy, int present, int memories) {
  regions::RegionsFile file;
  for (int m = 0; m < memories; ++m) file.topology["memories"].push_back({{"os_index", m}});
  regions::Region region;
  region.name = "axpy";
  regions::Aggregate entry;
  entry.domain = 0;
  entry.threads = threads;
  entry.calls = 10;
  entry.seconds = 1;
  entry.busy_threads = busy;
  region.domains.push_back(entry);
  region.machine = entry;
  regions::DataRange range;
  range.handle = "u";
  range.resident_at_tag = regions::DataRange::ResidentAtTag{
      100, static_cast<std::uint64_t>(present), {{0u, static_cast<std::uint64_t>(present)}}};
  region.data = regions::DataPlacement{};
  region.data->ranges.push_back(range);
  file.regions.push_back(region);
  return file;
}

TEST(RegionPlacement, ARegionRecordedByFewerThreadsThanWorkedIsWarnedAbout) {
  const auto has = [](const RegionPoint& point, const char* words) {
    return std::any_of(point.warnings.begin(), point.warnings.end(),
                       [&](const std::string& w) { return w.find(words) != std::string::npos; });
  };
  // Master-only: one thread recorded, two worked.
  auto point = region_points(busy_file(1, 2.0, 0, 1), "f")[0];
  EXPECT_TRUE(has(point, "recorded by 1 thread while 2.0 threads")) << point.warnings.size();
  // Every thread recorded it; a little extra CPU (a helper thread) is not enough.
  EXPECT_FALSE(has(region_points(busy_file(2, 2.0, 0, 1), "f")[0], "recorded by"));
  EXPECT_FALSE(has(region_points(busy_file(1, 1.4, 0, 1), "f")[0], "recorded by"));
  EXPECT_FALSE(has(region_points(busy_file(8, 8.6, 0, 1), "f")[0], "recorded by"));
  EXPECT_TRUE(has(region_points(busy_file(8, 16.0, 0, 1), "f")[0], "recorded by 8 threads"));
}

TEST(RegionPlacement, DataPresentOnOneMemoryWhenTaggedIsSequentialInitialization) {
  const auto warned = [](const regions::RegionsFile& file) {
    const auto point = region_points(file, "f")[0];
    for (const auto& w : point.warnings) {
      if (w.find("sequential initialization") != std::string::npos) return w;
    }
    return std::string();
  };
  // Every page present when tagged, a region on 2 threads: said, and on one memory, that it costs
  // nothing here.
  EXPECT_NE(warned(busy_file(2, 2.0, 100, 1)).find("costs nothing here"), std::string::npos);
  EXPECT_NE(warned(busy_file(2, 2.0, 100, 4)).find("first-touch the data in parallel"),
            std::string::npos);
  EXPECT_EQ(warned(busy_file(2, 2.0, 3, 4)), "");    // first touched later: in the parallel region
  EXPECT_EQ(warned(busy_file(1, 1.0, 100, 4)), "");  // one thread uses it: nothing to say
}

}  // namespace
}  // namespace larm::roofline
