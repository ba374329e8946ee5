// Placing region points on a fixture of a 2-domain node with every kind of roof.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <sstream>
#include <tuple>

#include "report/text/placement_text.h"
#include "results/placement_records.h"
#include "results/printable_text.h"
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

results::Roof ceiling(int domain, const std::string& op, double gflops, Isa isa = Isa::avx512) {
  results::Roof r = bandwidth(domain, "flops", gflops);
  r.op = parse<FlopOp>(op).value();
  r.isa = isa;
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

using results::BoundKind;

// The roof kind of a placement's bound.
RoofKind bound_kind(const results::RegionPlacement& p) {
  return p.bound->kind();
}

TEST(RegionPlacement, TheLowestRoofAboveThePointBoundsIt) {
  const auto results = two_domain_fixture();
  // AI 0.1: roofs at 76, 30.9, 15.4, 3.61, 1.75, 1.67, 0.83, 1.81 GFLOP/s.
  const auto local = place(region_point(0.1, 3.0, {{0, 1.0}}), results, {});
  ASSERT_TRUE(local.bound);
  EXPECT_EQ(local.kind, BoundKind::memory);
  EXPECT_EQ(bound_kind(local), RoofKind::local);
  EXPECT_NEAR(local.roof_value_at_point, 3.61, 1e-9);
  EXPECT_NEAR(local.share, 3.0 / 3.61, 1e-9);
  EXPECT_EQ(local.bytes, results::ByteConvention::core);
  ASSERT_TRUE(local.data);
  EXPECT_EQ(local.data->local, std::vector<unsigned>{0});

  EXPECT_EQ(bound_kind(place(region_point(0.1, 1.78), results, {})), RoofKind::congestion);

  const auto remote = place(region_point(0.1, 1.7, {{1, 1.0}}), results, {});
  EXPECT_EQ(bound_kind(remote), RoofKind::remote);
  EXPECT_EQ(remote.bound->memory, 1u);
  ASSERT_FALSE(remote.next.empty());
  EXPECT_EQ(remote.next.front().step, results::Step::bind_locally);
  // The local roof over the remote one: what binding its data locally could give.
  EXPECT_NEAR(*remote.next.front().gain, 36.1 / 17.5, 1e-9);

  // Alone on the node, data on memory 1 is read remotely; with domain 1 running the region at
  // the same time, the two share memory 1: its contention roof.
  EXPECT_EQ(bound_kind(place(region_point(0.1, 0.8, {{1, 1.0}}), results, {})), RoofKind::remote);
  RegionPoint shared = region_point(0.1, 0.8, {{1, 1.0}});
  shared.concurrent = {{1, 8.0}};
  const auto contention = place(shared, results, {});
  EXPECT_EQ(bound_kind(contention), RoofKind::contention);
  EXPECT_EQ(contention.bound->memory, 1u);
  EXPECT_EQ(contention.next.front().step, results::Step::interleave);
  EXPECT_NE(text::headline(contention).find("contention on memory 1"), std::string::npos)
      << text::headline(contention);

  const auto cache = place(region_point(0.1, 20), results, {});
  EXPECT_EQ(cache.kind, BoundKind::cache);
  EXPECT_EQ(cache.bound->name, "L2 load");
  EXPECT_EQ(cache.next.front().step, results::Step::more_reuse);
  EXPECT_EQ(cache.next.front().level, Level::L1);
}

TEST(RegionPlacement, OnlyTheMemoryHoldingTheDataCanBoundIt) {
  // 1.0 GFLOP/s at AI 0.1 is under the local roof (3.61) and the remote one (1.75): data on
  // memory 0 makes the local roof its bound, not the remote roof of a memory it does not use.
  const auto placed = place(region_point(0.1, 1.0, {{0, 1.0}}), two_domain_fixture(), {});
  ASSERT_TRUE(placed.bound);
  EXPECT_EQ(bound_kind(placed), RoofKind::local);
  ASSERT_TRUE(placed.data_roof);
  EXPECT_NEAR(placed.data_roof->value, 36.1, 1e-9);
  // Half on each memory, one domain: 1 / (0.5 / 36.1 + 0.5 / 17.5) GB/s.
  const auto mixed = place(region_point(0.1, 1.0, {{0, 0.5}, {1, 0.5}}), two_domain_fixture(), {});
  ASSERT_TRUE(mixed.data_roof);
  EXPECT_NEAR(mixed.data_roof->value, 1 / (0.5 / 36.1 + 0.5 / 17.5), 1e-9);
  EXPECT_EQ(mixed.bound->name, "data roof (50 % memory 0, 50 % memory 1) load");
  EXPECT_EQ(mixed.bound->source, results::RoofSource::data_mix);
}

TEST(RegionPlacement, ARegionWithoutFlopsIsPlacedByItsBandwidth) {
  // A copy kernel: 0 FLOPs, 25 GB/s from memory 0: under the local roof (36.1), at 69 % of it,
  // never "L1" nor NaN.
  RegionPoint copy = region_point(0.1, 1.0, {{0, 1.0}});
  copy.ai = 0;
  copy.gflops = 0;
  copy.gbps = 25;
  copy.seconds = 1;
  copy.read_share = 0.5;
  const auto placed = place(copy, two_domain_fixture(), {.access_follows_region = true});
  ASSERT_TRUE(placed.bound);
  EXPECT_TRUE(placed.by_bandwidth);
  EXPECT_EQ(bound_kind(placed), RoofKind::local);
  EXPECT_NEAR(placed.share, 25 / 36.1, 1e-9);
  const std::string text = text::placement_table({placed}, true) + results::to_json(placed).dump();
  EXPECT_EQ(text.find("nan"), std::string::npos) << text;
  EXPECT_EQ(text.find("inf"), std::string::npos) << text;
  // No bytes either: not placed, and said.
  copy.gbps.reset();
  const auto none = place(copy, two_domain_fixture(), {});
  EXPECT_EQ(none.kind, BoundKind::not_placed);
  EXPECT_EQ(none.not_placed, results::NotPlaced::no_counts);
  EXPECT_EQ(text::headline(none).rfind("not placed", 0), 0u);
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
      const auto p = place(point, results, {.access_follows_region = true});
      ASSERT_TRUE(p.bound) << label << " domain " << point.domain << ": " << text::headline(p);
      EXPECT_EQ(bound_kind(p), kind) << label << " domain " << point.domain;
      if (kind != RoofKind::congestion) {
        // The memory that holds the domain's data: 0 when bound there, its own when first touched.
        EXPECT_EQ(p.bound->memory, kind == RoofKind::local ? point.domain : 0);
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
  const auto above = place(region_point(0.1, 3.7, {{0, 1.0}}), results, {});
  ASSERT_TRUE(above.bound);
  EXPECT_EQ(bound_kind(above), RoofKind::local);
  EXPECT_NEAR(above.bound->tolerance, 1.8 / 36.1, 1e-9);
  EXPECT_GT(above.share, 1);
  EXPECT_FALSE(above.above_by);  // within its noise
  EXPECT_EQ(above.within_noise_of, std::vector<std::string>{"local memory 0 (DRAM) load"});
  EXPECT_FALSE(above.runner_up);
  // Beyond the local roof's noise (3.8 is 5.3 % above): the L3 roof bounds it.
  EXPECT_EQ(place(region_point(0.1, 3.8), results, {}).kind, BoundKind::cache);
  // 1.78 lies within the remote roof's ±2 % (1.75) and congestion's ±2.2 % (1.81): bound by
  // the lower, the other its runner-up.
  const auto two = place(region_point(0.1, 1.78), results, {});
  ASSERT_TRUE(two.bound);
  EXPECT_EQ(bound_kind(two), RoofKind::remote);
  EXPECT_EQ(two.within_noise_of.size(), 2u);
  ASSERT_TRUE(two.runner_up);
  EXPECT_EQ(two.runner_up->roof.name, "congestion load");
  // One sample per roof: no spread, so no tolerance.
  EXPECT_EQ(place(region_point(0.1, 3.62), two_domain_fixture(), {}).kind, BoundKind::cache);
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
  const auto placed = place(p, two_domain_fixture(), {.hybrid = &hybrid});
  ASSERT_TRUE(placed.hybrid_roof);
  EXPECT_NEAR(placed.hybrid_roof->value, 12.0, 1e-9);
  EXPECT_EQ(placed.kind, BoundKind::hybrid);
  EXPECT_EQ(placed.next.front().step, results::Step::fast_memory_share);
  EXPECT_EQ(results::to_json(placed)["hybrid_roof"]["value"], 12.0);
  // Another domain than the fit's: no hybrid roof.
  p.domain = 1;
  EXPECT_FALSE(place(p, two_domain_fixture(), {.hybrid = &hybrid}).hybrid_roof);
}

TEST(RegionPlacement, AbovePeakUnderABandwidthRoofIsComputeBound) {
  // 10 % above the 300 GFLOP/s peak at an intensity where every bandwidth roof passes far above:
  // the ceiling bounds it (low), not the lowest bandwidth roof above the point.
  const auto placed = place(region_point(1e5, 330), two_domain_fixture(), {});
  EXPECT_EQ(placed.kind, BoundKind::compute);
  EXPECT_EQ(placed.bound->name, "fma dp avx512");
  EXPECT_NEAR(placed.share, 1.1, 1e-9);
  EXPECT_TRUE(placed.above_by);
}

TEST(RegionPlacement, WithoutCountedFlopsTheCeilingIsTheNodesPeak) {
  // Declared FLOPs say neither their width nor their mix: the widest ISA's FMA ceiling, the peak.
  const auto results = two_domain_fixture();
  const auto placed = place(region_point(100, 120), results, {});
  EXPECT_EQ(placed.kind, BoundKind::compute);
  EXPECT_EQ(placed.bound->name, "fma dp avx512");
  EXPECT_NEAR(placed.share, 0.4, 1e-9);
  EXPECT_FALSE(placed.fp);
  EXPECT_EQ(text::headline(placed).rfind("compute-bound: 40 % of fma dp avx512", 0), 0u)
      << text::headline(placed);
}

TEST(RegionPlacement, PointsWithoutIntensityOrAboveEveryRoofAreSaidSo) {
  const auto results = two_domain_fixture();
  RegionPoint unknown = region_point(0.1, 1);
  unknown.ai.reset();
  unknown.unavailable = "no FLOP count";
  const auto none = place(unknown, results, {});
  EXPECT_FALSE(none.bound);
  EXPECT_EQ(none.not_placed, results::NotPlaced::no_intensity);
  EXPECT_EQ(text::headline(none), "not placed: no FLOP count");
  const auto above = place(region_point(0.1, 500), results, {});
  EXPECT_EQ(above.kind, BoundKind::above_roofs);
  EXPECT_NE(text::headline(above).find("above every roof"), std::string::npos);
  RegionPoint elsewhere = region_point(0.1, 1);
  elsewhere.domain = 1;  // the fixture has no roof for domain 1
  const auto no_roofs = place(elsewhere, results, {});
  EXPECT_EQ(no_roofs.not_placed, results::NotPlaced::no_roofs);
  EXPECT_NE(text::headline(no_roofs).find("no roof for domain 1"), std::string::npos);
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

// The fixture with a 64-byte line, a measured memory latency of 100 ns on domain 0, and sse2 and
// avx2 ceilings: add and mul 50 and 100 GFLOP/s, fma at avx2 200, addmul as given (separate pipes
// reach add + mul, shared ones add alone).
results::Results fixture_with_latency(double sse2_addmul = 100, double avx2_addmul = 200) {
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
  for (const auto& [op, isa, value] :
       std::vector<std::tuple<const char*, Isa, double>>{{"add", Isa::sse2, 50},
                                                         {"mul", Isa::sse2, 50},
                                                         {"addmul", Isa::sse2, sse2_addmul},
                                                         {"add", Isa::avx2, 100},
                                                         {"mul", Isa::avx2, 100},
                                                         {"fma", Isa::avx2, 200},
                                                         {"addmul", Isa::avx2, avx2_addmul}}) {
    r.roofs.push_back(ceiling(0, op, value, isa));
  }
  return r;
}

// larm count's traffic: `read` fetched by L2, L3 and memory (of which `allocate` for stores),
// `written` back to each.
LevelTraffic traffic(double l2, double l3, double memory, double fetched) {
  LevelTraffic t;
  t.l2 = l2;
  t.l3 = l3;
  t.memory = memory;
  t.memory_read = t.memory_load_fetched = fetched;
  t.allocate_counted = true;
  return t;
}

// A counted region of 1 GFLOP over `seconds` on 2 threads with these bytes per level, its FLOPs
// of one width and kind.
RegionPoint counted_point(double core_bytes, LevelTraffic t, double seconds, int width = 3,
                          double fma_share = 1) {
  RegionPoint p = region_point(1e9 / core_bytes, 1 / seconds);
  p.seconds = seconds;
  p.flops = 1e9;
  p.gbps = core_bytes / seconds * 1e-9;
  p.traffic = t;
  FpCounts fp;
  fp.by_width[width] = 1e9;
  fp.fma = 1e9 * fma_share;
  fp.add = fp.mul = 1e9 * (1 - fma_share) / 2;
  fp.kinds_counted = true;
  p.fp = fp;
  return p;
}

TEST(RegionPlacement, WithBytesPerLevelTheMostUsedRoofBoundsItWhateverItsTime) {
  const auto results = fixture_with_latency();
  // 8 GB at the core (L1 760 GB/s), 6 GB from L2 (309), 4 GB from L3 (154), 0.5 GB from memory
  // (36.1), of which 10 MB fetched (the rest written back): the L3's 4/154 s is the longest, the
  // L3 roof bounds it, at any measured time.
  std::string first;
  for (const double seconds : {0.03, 0.06, 0.5}) {
    const auto placed =
        place(counted_point(8e9, traffic(6e9, 4e9, 0.5e9, 1e7), seconds), results, {});
    ASSERT_TRUE(placed.bound);
    EXPECT_EQ(placed.bound->level, Level::L3) << text::headline(placed);
    EXPECT_NE(placed.kind, BoundKind::latency);
    ASSERT_FALSE(placed.levels.empty());
    EXPECT_NEAR(placed.levels.front().share, 4e9 / seconds * 1e-9 / 154.0, 1e-9);
    EXPECT_NEAR(placed.levels.front().ai, 1e9 / 4e9, 1e-12);
    EXPECT_NEAR(placed.share, placed.levels.front().share, 1e-12);
    EXPECT_EQ(placed.bytes, results::ByteConvention::program_per_level);
    if (first.empty()) first = placed.bound->name;
    EXPECT_EQ(placed.bound->name, first);
  }
}

TEST(RegionPlacement, WriteAllocateFetchesAreLeftOutOfALevelsBytes) {
  // A triad's memory lines: 2 read streams and a written one: read 3 lines (one for the store's
  // write-allocate), written back 1. The roofs count its own 3 (2 loads, a store): so do its bytes.
  const auto t = level_traffic({{"cache_accesses", 1e6},
                                {"bytes_memory_read", 3e9},
                                {"bytes_memory_allocate", 1e9},
                                {"bytes_memory_written", 1e9},
                                {"bytes_l2_read", 3e9},
                                {"bytes_l2_allocate", 1e9},
                                {"bytes_l2_written", 1e9}});
  ASSERT_TRUE(t);
  EXPECT_DOUBLE_EQ(t->memory, 3e9);
  EXPECT_DOUBLE_EQ(t->memory_load_fetched, 2e9);
  EXPECT_DOUBLE_EQ(t->l2, 3e9);
  EXPECT_TRUE(t->allocate_counted);
  // Counts of an older tool: fetched lines as they are, and the record says so.
  const auto old = level_traffic(
      {{"cache_accesses", 1e6}, {"bytes_memory_read", 3e9}, {"bytes_memory_written", 1e9}});
  ASSERT_TRUE(old);
  EXPECT_DOUBLE_EQ(old->memory, 4e9);
  EXPECT_FALSE(old->allocate_counted);
}

TEST(RegionPlacement, TheCeilingOfItsOwnFpMixBoundsAComputeHeavyRegion) {
  // 1 GFLOP of 256-bit FMAs in 5.5 ms: 182 GFLOP/s, 91 % of the avx2 fma ceiling; its bytes use
  // every roof less. The widest ISA measured, avx512 (fma 300), is the next step: x1.5.
  auto placed =
      place(counted_point(1e9, traffic(1e8, 1e7, 1e6, 1e6), 0.0055, 2), fixture_with_latency(), {});
  ASSERT_TRUE(placed.bound);
  EXPECT_EQ(placed.kind, BoundKind::compute);
  EXPECT_EQ(placed.bound->name, "fma dp avx2");
  EXPECT_EQ(placed.bound->source, results::RoofSource::fp_mix);
  EXPECT_NEAR(placed.bound->value, 200, 1e-9);
  ASSERT_TRUE(placed.fp);
  EXPECT_EQ(placed.fp->width, "256-bit");
  ASSERT_FALSE(placed.next.empty());
  EXPECT_EQ(placed.next.front().step, results::Step::vectorize_wider);
  EXPECT_EQ(placed.next.front().isa, Isa::avx512);
  EXPECT_NEAR(*placed.next.front().gain, 1.5, 1e-9);
  EXPECT_LE(text::headline(placed).size(), text::kHeadlineColumns);
}

TEST(RegionPlacement, AddsAndMultipliesAreSetAgainstTheirMixsCeilingNotTheAddOne) {
  // Half adds and half multiplies at 128 bits, 95 GFLOP/s. Separate pipes (addmul measured at
  // add + mul, 100): the mix reaches 100, the region 95 % of it; shared ones (addmul at 50): 50,
  // the region above it beyond its interval, which says which estimate is off.
  const RegionPoint point = counted_point(1e9, traffic(1e8, 1e7, 1e6, 1e6), 1 / 95.0, 1, 0);
  const auto separate = place(point, fixture_with_latency(100, 200), {});
  EXPECT_EQ(separate.kind, BoundKind::compute);
  EXPECT_EQ(separate.bound->name, "add+mul dp sse2");
  EXPECT_NEAR(separate.bound->value, 100, 1e-9);
  EXPECT_NEAR(separate.share, 0.95, 1e-9);
  // The way up: wider, with FMAs: avx2's fused mix reaches 200 (x2), avx512's fma 300 (x3).
  ASSERT_FALSE(separate.next.empty());
  EXPECT_EQ(separate.next.front().step, results::Step::vectorize_wider);
  EXPECT_EQ(separate.next.front().isa, Isa::avx512);
  EXPECT_TRUE(separate.next.front().fused);
  EXPECT_NEAR(*separate.next.front().gain, 3, 1e-9);
  ASSERT_TRUE(separate.widest_ceiling);
  EXPECT_EQ(separate.widest_ceiling->name, "fma dp avx512");
  const auto shared = place(point, fixture_with_latency(50, 100), {});
  EXPECT_NEAR(shared.bound->value, 50, 1e-9);
  ASSERT_TRUE(shared.above_by);
  EXPECT_NE(text::headline(shared).find("above it"), std::string::npos) << text::headline(shared);
}

TEST(RegionPlacement, OneLineInFlightIsLatencyBoundWhateverItsShare) {
  const auto results = fixture_with_latency();
  // 1.28 GB of misses in 1 s on 2 threads: 20 lines/µs; × 100 ns ÷ 2 threads = 1 line in
  // flight per thread; memory used 1.28/36.1 = 3.5 %: latency-bound.
  RegionPoint chase = counted_point(2e9, traffic(1.28e9, 1.28e9, 1.28e9, 1.28e9), 1.0, 0);
  chase.fp.reset();
  auto placed = place(chase, results, {});
  EXPECT_EQ(placed.kind, BoundKind::latency) << text::headline(placed);
  ASSERT_TRUE(placed.lines_in_flight);
  EXPECT_NEAR(placed.lines_in_flight->value, 1.0, 1e-9);
  EXPECT_DOUBLE_EQ(placed.lines_in_flight->latency_ns, 100);
  EXPECT_EQ(placed.lines_in_flight->reading, results::LinesInFlight::Reading::cannot_overlap);
  EXPECT_EQ(placed.next.front().step, results::Step::independent_accesses);
  EXPECT_EQ(text::headline(placed).rfind("latency-bound", 0), 0u) << text::headline(placed);
  EXPECT_NE(text::placement_table({placed}, false).find("latency"), std::string::npos);
  // The same misses 5 times faster: 5 lines in flight, they overlap; at 18 % of the memory roof,
  // nothing measured explains it.
  placed = place(counted_point(2e9, traffic(1.28e9, 1.28e9, 1.28e9, 1.28e9), 0.2, 0), results, {});
  EXPECT_EQ(placed.kind, BoundKind::unexplained) << text::headline(placed);
  EXPECT_EQ(placed.lines_in_flight->reading, results::LinesInFlight::Reading::overlap);
  // 10 times faster: 35 % of the roof, within what a shared host's memory gives a stream from one
  // minute to the next: bound by memory, far below it.
  placed = place(counted_point(2e9, traffic(1.28e9, 1.28e9, 1.28e9, 1.28e9), 0.1, 0), results, {});
  EXPECT_EQ(placed.kind, BoundKind::memory) << text::headline(placed);
  EXPECT_TRUE(placed.far_below);
  // A stream at 80 % of the memory roof: bandwidth-bound.
  placed = place(counted_point(1e9, traffic(28.9e9, 28.9e9, 28.9e9, 28.9e9), 1.0, 0), results, {});
  EXPECT_EQ(placed.kind, BoundKind::memory);
  EXPECT_EQ(bound_kind(placed), RoofKind::local);
  // Under half of its L2 roof, with no memory traffic to speak of: still bound by L2, far below.
  placed = place(counted_point(1e9, traffic(100e9, 1e6, 1e6, 1e6), 1.0, 0), results, {});
  EXPECT_EQ(placed.kind, BoundKind::cache) << text::headline(placed);
  EXPECT_TRUE(placed.far_below);
  // Without a measured memory latency there is no latency verdict.
  placed = place(chase, two_domain_fixture(), {});
  EXPECT_NE(placed.kind, BoundKind::latency);
}

TEST(RegionPlacement, UnexplainedOnlyWhenTheRoofsLowSideLeavesItUnderAThird) {
  auto results = fixture_with_latency();
  // 28 % of the 36.1 GB/s memory roof (many lines in flight): unexplained while the roof's
  // interval is narrow; with its low side 21 % below (28/0.79 = 35 %), memory stays its bound.
  const double gbps = 0.28 * 36.1e9;
  auto point = counted_point(2e9, traffic(gbps, gbps, gbps, gbps), 1.0, 0);
  auto placed = place(point, results, {});
  EXPECT_EQ(placed.kind, BoundKind::unexplained) << text::headline(placed);
  bool widened = false;
  for (auto& roof : results.roofs) {
    if (roof.domain == 0 && roof.level == Level::memory && roof.roof > 0) {
      roof.interval = results::RoofInterval{0.79 * roof.roof, 1.01 * roof.roof, {}, std::nullopt};
      widened = true;
    }
  }
  ASSERT_TRUE(widened);
  placed = place(point, results, {});
  EXPECT_EQ(placed.kind, BoundKind::memory) << text::headline(placed);
  EXPECT_TRUE(placed.far_below);
}

TEST(RegionPlacement, NearTheThresholdItIsWithinTheNoiseOfBoth) {
  auto results = fixture_with_latency();
  // The latency roof's samples 80 to 120 ns: 2 lines in flight at 100 ns reads 1.6 to 2.4.
  results.latency.front().samples_ns = {80, 100, 120};
  results.latency.front().stats = results::summarize(results.latency.front().samples_ns);
  // 2.56 GB of misses in 1 s on 2 threads: 2 lines in flight per thread at 100 ns.
  const auto placed =
      place(counted_point(2e9, traffic(2.56e9, 2.56e9, 2.56e9, 2.56e9), 1.0, 0), results, {});
  ASSERT_TRUE(placed.lines_in_flight);
  EXPECT_EQ(placed.lines_in_flight->reading, results::LinesInFlight::Reading::within_noise);
  EXPECT_DOUBLE_EQ(placed.lines_in_flight->straddled, kMaxLinesInFlight);
  EXPECT_NE(placed.kind, BoundKind::latency);
  EXPECT_NE(text::headline(placed).find("or latency"), std::string::npos) << text::headline(placed);
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
  // per thread, latency-bound, and the record says at what latency.
  RegionPoint chase = counted_point(2e9, traffic(1.28e9, 1.28e9, 1.28e9, 1.28e9), 1.0, 0);
  auto placed = place(chase, results, {});
  EXPECT_EQ(placed.kind, BoundKind::latency);
  ASSERT_TRUE(placed.lines_in_flight);
  EXPECT_NEAR(placed.lines_in_flight->latency_ns, 100 + 1.28 * 2, 1e-9);
  EXPECT_NEAR(placed.lines_in_flight->value, 0.02 * (100 + 1.28 * 2) / 2, 1e-9);
  EXPECT_EQ(placed.lines_in_flight->source, results::LatencySource::loaded_curve);
  ASSERT_TRUE(placed.lines_in_flight->at_load);
  // A stream at 80 % of the memory roof (28.9 GB/s): bandwidth-bound, its latency there 382.4 ns.
  placed = place(counted_point(1e9, traffic(28.9e9, 28.9e9, 28.9e9, 28.9e9), 1.0, 0), results, {});
  EXPECT_EQ(placed.kind, BoundKind::memory);
  EXPECT_NEAR(placed.lines_in_flight->at_load->latency_ns, 240 + 0.89 * 160, 1e-9);
  EXPECT_NEAR(placed.lines_in_flight->latency_ns, 382.4, 1e-9);
  const auto details = text::details(placed);
  EXPECT_TRUE(std::any_of(details.begin(), details.end(), [](const std::string& d) {
    return d.find("x3.82 at its 28.9 GB/s") != std::string::npos;
  })) << testing::PrintToString(details);
  // A curve whose chain pays twice the roof's idle latency (other pages, another placement): its
  // rise carries over, not its nanoseconds.
  for (auto& p : results.loaded_latency.front().points) {
    for (double* ns : {&p.p10_ns, &p.p50_ns, &p.p90_ns}) *ns *= 2;
    p.samples_ns = {p.p50_ns};
  }
  results.loaded_latency.front().idle_ns = 200;
  placed = place(chase, results, {});
  EXPECT_NEAR(placed.lines_in_flight->latency_ns, 100 + 1.28 * 2, 1e-9);
  EXPECT_NEAR(placed.lines_in_flight->at_load->latency_ns, 2 * (100 + 1.28 * 2), 1e-9);
  // Under its idle point (a noisy curve), no rise: the idle latency.
  results.loaded_latency.front().points[1].p50_ns = 150;
  placed = place(counted_point(2e9, traffic(10e9, 10e9, 10e9, 10e9), 1.0, 0), results, {});
  EXPECT_NEAR(placed.lines_in_flight->latency_ns, 100, 1e-9);
}

TEST(RegionPlacement, RunsThatSpreadMoreThanTheBoundsIntervalMarkItUnstable) {
  auto results = fixture_with_latency();
  for (auto& roof : results.roofs) {
    results::RoofInterval interval;
    interval.low = roof.roof * 0.97;
    interval.high = roof.roof * 1.03;
    roof.interval = interval;
  }
  RegionPoint point = counted_point(8e9, traffic(6e9, 4e9, 0.5e9, 0.4e9), 0.05);
  point.timing = regions::RunTiming{
      {0.05, 0.06, 0.05}, {true, true, true}, "median of 3 clean runs of 3", 0.05, 0.2};
  auto placed = place(point, results, {});
  EXPECT_TRUE(placed.time.unstable);
  EXPECT_EQ(text::headline(placed).rfind("[unstable]", 0), 0u);
  EXPECT_EQ(placed.time.estimator, "median of 3 clean runs of 3");
  EXPECT_EQ(placed.time.runs, 3);
  point.timing->spread = 0.02;  // inside the 6 % the interval spans
  placed = place(point, results, {});
  EXPECT_FALSE(placed.time.unstable);
  const auto json = results::to_json(placed);
  EXPECT_EQ(json["time"]["unstable"], false);
  EXPECT_EQ(json["time"]["estimator"], "median of 3 clean runs of 3");
  EXPECT_EQ(json["levels"][0]["roof"]["level"], "L3");
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
  entry.counted = {
      {"cache_accesses", 1e8}, {"bytes_l2_read", 3e9},     {"bytes_l2_written", 1e9},
      {"bytes_l3_read", 2e9},  {"bytes_memory_read", 5e8}, {"bytes_memory_written", 1e8},
      {"flops_dp_256", 3e9},   {"flops_dp_scalar", 1e9},   {"add_flops", 2e9},
      {"mul_flops", 2e9},      {"div_flops", 0},           {"fma_flops", 0}};
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
  ASSERT_TRUE(points[0].fp);
  EXPECT_DOUBLE_EQ(points[0].fp->by_width[2], 3e9);
  EXPECT_DOUBLE_EQ(points[0].fp->by_width[0], 1e9);
  EXPECT_TRUE(points[0].fp->kinds_counted);
  // Without the cache model (no simulated access) there are no bytes per level.
  file.regions[0].domains[0].counted.erase("cache_accesses");
  EXPECT_FALSE(region_points(file, "f")[0].traffic);
}

// A region with `threads` recording threads while `busy` threads of the process worked, on the
// given domains, its data on memory 0 in a node of `memories`.
regions::RegionsFile busy_file(int threads, double busy, std::vector<int> domains, int memories) {
  regions::RegionsFile file;
  for (int m = 0; m < memories; ++m) file.topology["memories"].push_back({{"os_index", m}});
  regions::Region region;
  region.name = "axpy";
  for (int d : domains) {
    regions::Aggregate entry;
    entry.domain = d;
    entry.threads = threads;
    entry.calls = 10;
    entry.seconds = 1;
    region.domains.push_back(entry);
  }
  region.machine = region.domains.front();
  region.machine.busy_threads = busy;
  regions::DataRange range;
  range.handle = "u";
  range.resident_at_tag = regions::DataRange::ResidentAtTag{100, 100, {{0u, 100u}}};
  region.data = regions::DataPlacement{};
  region.data->ranges.push_back(range);
  region.data->memory_fractions = {{0u, 1.0}};
  file.regions.push_back(region);
  return file;
}

TEST(RegionPlacement, ARegionRecordedByFewerThreadsThanWorkedIsWarnedAbout) {
  // Master-only: one thread recorded, two worked.
  auto point = region_points(busy_file(1, 2.0, {0}, 1), "f")[0];
  ASSERT_TRUE(point.undercount);
  EXPECT_EQ(point.undercount->recorded_threads, 1);
  // Every thread recorded it; a little extra CPU (a helper thread) is not enough.
  EXPECT_FALSE(region_points(busy_file(2, 2.0, {0}, 1), "f")[0].undercount);
  EXPECT_FALSE(region_points(busy_file(1, 1.4, {0}, 1), "f")[0].undercount);
  EXPECT_FALSE(region_points(busy_file(8, 8.6, {0}, 1), "f")[0].undercount);
  EXPECT_TRUE(region_points(busy_file(8, 16.0, {0}, 1), "f")[0].undercount);
  const auto p = place(region_points(busy_file(1, 2.0, {0}, 1), "f")[0], two_domain_fixture(), {});
  const auto lines = text::warnings(p);
  ASSERT_FALSE(lines.empty());
  EXPECT_EQ(lines.front().rfind("warning: recorded by 1 thread while 2.0 threads", 0), 0u);
}

TEST(RegionPlacement, SequentialInitializationIsClaimedOnlyFromWhereThePagesAre) {
  // Pages present when tagged say nothing; pages all on one memory of several while threads of
  // two domains run the region say one domain's thread placed them.
  EXPECT_FALSE(region_points(busy_file(2, 2.0, {0}, 1), "f")[0].sequential_init);  // one memory
  EXPECT_FALSE(region_points(busy_file(2, 2.0, {0}, 4), "f")[0].sequential_init);  // one domain
  const auto points = region_points(busy_file(2, 2.0, {0, 1}, 2), "f");
  ASSERT_EQ(points.size(), 2u);
  ASSERT_TRUE(points[0].sequential_init);
  EXPECT_EQ(points[0].sequential_init->memory, 0u);
  EXPECT_EQ(points[0].sequential_init->domains, (std::vector<int>{0, 1}));
}

TEST(RegionPlacement, EveryHeadlineAndDetailFitsItsColumns) {
  const auto results = fixture_with_latency();
  std::vector<results::RegionPlacement> all = {
      place(region_point(0.1, 3.0, {{0, 1.0}}), results, {}),
      place(region_point(0.1, 1.0, {{0, 0.5}, {1, 0.5}}), results, {}),
      place(counted_point(2e9, traffic(1.28e9, 1.28e9, 1.28e9, 1.28e9), 1.0, 0), results, {}),
      place(counted_point(1e9, traffic(1e8, 1e7, 1e6, 1e6), 1 / 95.0, 1, 0), results, {}),
      place(counted_point(8e9, traffic(6e9, 4e9, 0.5e9, 1e7), 0.03), results, {})};
  for (const auto& p : all) {
    EXPECT_LE(results::display_length(text::headline(p)), text::kHeadlineColumns)
        << text::headline(p);
  }
  const std::string table = text::placement_table(all, true);
  std::istringstream lines(table);
  for (std::string line; std::getline(lines, line);) {
    EXPECT_LE(results::display_length(line), text::kVerdictColumns) << line;
  }
}

TEST(RegionPlacement, PlaceJsonReadsBackAsWritten) {
  const auto results = fixture_with_latency();
  std::vector<RegionPoint> points = {
      region_point(0.1, 3.0, {{0, 1.0}}),
      counted_point(2e9, traffic(1.28e9, 1.28e9, 1.28e9, 1.28e9), 1.0, 0),
      counted_point(1e9, traffic(1e8, 1e7, 1e6, 1e6), 1 / 95.0, 1, 0)};
  const results::PlaceFile file = place_all(points, results, {}, "r");
  const nlohmann::json json = results::to_json(file);
  EXPECT_EQ(results::to_json(results::place_from_json(json)), json);
  // Another format or schema version: refused, named.
  nlohmann::json other = json;
  other["schema_version"] = "2.0";
  EXPECT_THROW(results::place_from_json(other), std::runtime_error);
  EXPECT_THROW(results::place_from_json(nlohmann::json::array()), std::runtime_error);
  other = json;
  other["regions"][0]["share"] = -1;
  EXPECT_THROW(results::place_from_json(other), std::runtime_error);
}

// Regions that ran on another host than the roofs': a what-if, said first in every output that
// reads the place record, and kept in place.json.
TEST(RegionPlacement, RegionsOfAnotherHostAreAWhatIf) {
  auto results = fixture_with_latency();
  results.provenance.host = "roofs-node";
  std::vector<RegionPoint> points = {region_point(0.1, 3.0, {{0, 1.0}})};
  points[0].host = "roofs-node";
  EXPECT_FALSE(place_all(points, results, {}, "r").what_if);
  EXPECT_EQ(text::what_if_line(place_all(points, results, {}, "r")), "");
  points.push_back(points[0]);
  points[1].host = "laptop";
  const results::PlaceFile file = place_all(points, results, {}, "r");
  ASSERT_TRUE(file.what_if);
  EXPECT_EQ(file.what_if->results_host, "roofs-node");
  EXPECT_EQ(file.what_if->regions_hosts, std::vector<std::string>{"laptop"});
  const std::string header = text::place_file_header(file);
  EXPECT_EQ(header.rfind("What-if: these regions ran on laptop, the roofs are roofs-node's", 0), 0u)
      << header;
  const nlohmann::json json = results::to_json(file);
  EXPECT_EQ(results::to_json(results::place_from_json(json)), json);
}

// Two guests both called "vm" on other CPUs: the CPU's name tells them apart.
TEST(RegionPlacement, AnotherCpuUnderTheSameHostNameIsAWhatIf) {
  auto results = fixture_with_latency();
  results.provenance.host = "vm";
  results.provenance.cpu_model = "AMD EPYC 9655";
  std::vector<RegionPoint> points = {region_point(0.1, 3.0, {{0, 1.0}})};
  points[0].host = "vm";
  points[0].cpu_model = "AMD EPYC 9655";
  EXPECT_FALSE(place_all(points, results, {}, "r").what_if);
  points[0].cpu_model = "AMD EPYC 7763";
  const results::PlaceFile file = place_all(points, results, {}, "r");
  ASSERT_TRUE(file.what_if);
  EXPECT_NE(text::what_if_line(file).find("ran on vm (another machine of that name)"),
            std::string::npos)
      << text::what_if_line(file);
}

// A count given the roofs' machine's results modelled its caches: the bytes per level are that
// machine's, which the what-if says instead of its caveat; another machine's again is said too.
TEST(RegionPlacement, BytesPerLevelModelledForTheRoofsMachineAreSaid) {
  auto results = fixture_with_latency();
  results.provenance.host = "roofs-node";
  std::vector<RegionPoint> points = {counted_point(2e9, traffic(1e9, 1e9, 1e9, 1e9), 1.0, 0)};
  points[0].host = "laptop";
  EXPECT_NE(text::what_if_line(place_all(points, results, {}, "r"))
                .find("the bytes each cache level serves are the machine they ran on's"),
            std::string::npos);
  points[0].levels_modelled_for = "roofs-node";
  results::PlaceFile file = place_all(points, results, {}, "r");
  EXPECT_EQ(file.levels_modelled_for, "roofs-node");
  EXPECT_NE(text::what_if_line(file).find("were modelled with roofs-node's caches"),
            std::string::npos)
      << text::what_if_line(file);
  const nlohmann::json json = results::to_json(file);
  EXPECT_EQ(results::to_json(results::place_from_json(json)), json);
  // The same host name: still a what-if, the count having modelled another machine's caches.
  points[0].host = "roofs-node";
  ASSERT_TRUE(place_all(points, results, {}, "r").what_if);
  // Modelled for a third machine, placed on the machine it ran on: said, not a what-if of hosts.
  points[0].levels_modelled_for = "big-node";
  file = place_all(points, results, {}, "r");
  EXPECT_FALSE(file.what_if);
  EXPECT_EQ(text::what_if_line(file).rfind("The bytes each cache level served were modelled with "
                                           "big-node's caches",
                                           0),
            0u)
      << text::what_if_line(file);
}

}  // namespace
}  // namespace larm::roofline
