// What the region API records: counts, times, nesting, sources, the CSV, threads.
#include <sys/mman.h>
#include <cmath>
#include <fstream>
#include <sstream>
#include <thread>
#include <vector>

#include "results/region_records.h"
#include "tests/regions/region_test_support.h"

namespace larm::test {
namespace {

TEST_F(RegionTest, RecordsCallsDeclaredWorkAndRates) {
  ASSERT_EQ(larm_init(out_dir().c_str()), 0);
  for (int call = 0; call < 3; ++call) {
    ASSERT_EQ(larm_region_begin("work"), 0);
    spin_for(200);
    ASSERT_EQ(larm_region_add("work", 1000.0, 4000.0), 0);
    ASSERT_EQ(larm_region_end("work"), 0);
  }
  ASSERT_EQ(larm_finalize(), 0);
  const auto doc = read_regions();
  EXPECT_EQ(doc.at("format"), "larm-regions");
  EXPECT_EQ(doc.at("label"), "default");
  const auto* work = find_region(doc, "work");
  ASSERT_NE(work, nullptr);
  const auto& thread = work->at("threads").at(0);
  EXPECT_EQ(thread.at("calls"), 3);
  EXPECT_GE(thread.at("seconds").get<double>(), 600e-6);
  EXPECT_LT(thread.at("seconds").get<double>(), 0.5);
  EXPECT_EQ(thread.at("flops").get<double>(), 3000.0);
  EXPECT_EQ(thread.at("bytes").get<double>(), 12000.0);
  EXPECT_EQ(thread.at("flops_source"), "declared");
  const auto& machine = work->at("machine");
  EXPECT_DOUBLE_EQ(machine.at("ai").get<double>(), 0.25);
  EXPECT_NEAR(machine.at("gflops").get<double>(),
              3000.0 / machine.at("seconds").get<double>() * 1e-9, 1e-12);
  ASSERT_EQ(work->at("domains").size(), 1u);
  EXPECT_EQ(work->at("domains").at(0).at("domain"), 0);
  EXPECT_EQ(thread.at("domain"), 0);

  std::ifstream csv(std::filesystem::path(out_dir()) / "regions.csv");
  std::string header, line;
  std::getline(csv, header);
  EXPECT_EQ(header.rfind("label,region,scope,domain", 0), 0u);
  int rows = 0;
  while (std::getline(csv, line)) {
    EXPECT_EQ(line.rfind("default,work,", 0), 0u) << line;
    ++rows;
  }
  EXPECT_EQ(rows, 3);  // thread, domain, machine
}

TEST_F(RegionTest, ReadWriteSplitIsRecordedAndSummed) {
  ::setenv("LARM_COUNTERS", "off", 1);
  ASSERT_EQ(larm_init(out_dir().c_str()), 0);
  ASSERT_EQ(larm_region_begin("rw"), 0);
  ASSERT_EQ(larm_region_add_rw("rw", 100.0, 3000.0, 1000.0), 0);
  ASSERT_EQ(larm_region_add("rw", 0.0, 400.0), 0);  // bytes without a split add to bytes only
  ASSERT_EQ(larm_region_end("rw"), 0);
  ASSERT_EQ(larm_region_begin("plain"), 0);
  ASSERT_EQ(larm_region_add("plain", 1.0, 8.0), 0);
  ASSERT_EQ(larm_region_end("plain"), 0);
  // Half a split is refused: it would make a wrong read share.
  EXPECT_EQ(larm_region_add_rw("rw", 1.0, 10.0, -1.0), -1);
  ASSERT_EQ(larm_finalize(), 0);
  const auto doc = read_regions();
  EXPECT_EQ(doc.at("schema_version"), larm::regions::kRegionsSchemaVersion);
  EXPECT_EQ(doc.at("run"), "timed");  // not under larm count
  const auto& rw = find_region(doc, "rw")->at("machine");
  // When the region ran: its first begin before its last end, both after the start.
  ASSERT_TRUE(rw.contains("first_begin_s") && rw.contains("last_end_s"));
  EXPECT_GE(rw.at("first_begin_s").get<double>(), 0.0);
  EXPECT_LE(rw.at("first_begin_s").get<double>(), rw.at("last_end_s").get<double>());
  EXPECT_EQ(rw.at("bytes").get<double>(), 4400.0);
  EXPECT_EQ(rw.at("bytes_read").get<double>(), 3000.0);
  EXPECT_EQ(rw.at("bytes_written").get<double>(), 1000.0);
  EXPECT_EQ(rw.at("bytes_read_source"), "declared");
  EXPECT_EQ(rw.at("flops").get<double>(), 100.0);
  const auto parsed = regions::regions_from_json(doc);
  for (const auto& region : parsed.regions) {
    if (region.name != "rw") continue;
    ASSERT_TRUE(region.machine.read_share());
    EXPECT_DOUBLE_EQ(*region.machine.read_share(), 0.75);
  }
  const auto& plain = find_region(doc, "plain")->at("machine");
  EXPECT_TRUE(plain.at("bytes_read").is_null());
  EXPECT_EQ(plain.at("bytes_read_source"), "unavailable");
}

TEST_F(RegionTest, VersionOneZeroFilesReadWithoutASplit) {
  ::setenv("LARM_COUNTERS", "off", 1);
  ASSERT_EQ(larm_init(out_dir().c_str()), 0);
  larm_region_begin("old");
  larm_region_add_rw("old", 1.0, 8.0, 8.0);
  larm_region_end("old");
  ASSERT_EQ(larm_finalize(), 0);
  auto doc = read_regions();
  doc["schema_version"] = "1.0";
  for (auto& region : doc["regions"]) {
    for (const char* key :
         {"bytes_read", "bytes_read_source", "bytes_written", "bytes_written_source"}) {
      region["machine"].erase(key);
    }
  }
  const auto parsed = regions::regions_from_json(doc);
  EXPECT_FALSE(parsed.regions.at(0).machine.read_share());
  EXPECT_EQ(parsed.regions.at(0).machine.bytes_read.source, "unavailable");
}

TEST_F(RegionTest, NoCountersAndNothingDeclaredGivesNoArithmeticIntensity) {
  ::setenv("LARM_COUNTERS", "off", 1);
  ASSERT_EQ(larm_init(out_dir().c_str()), 0);
  larm_region_begin("opaque");
  larm_region_end("opaque");
  larm_region_begin("flops-only");
  larm_region_add("flops-only", 10.0, -1.0);
  larm_region_end("flops-only");
  ASSERT_EQ(larm_finalize(), 0);
  const auto doc = read_regions();
  EXPECT_FALSE(doc.at("counters").at("available").get<bool>());
  EXPECT_EQ(doc.at("counters").at("reason"), "LARM_COUNTERS=off");
  const auto& opaque = find_region(doc, "opaque")->at("machine");
  EXPECT_EQ(opaque.at("flops_source"), "unavailable");
  EXPECT_TRUE(opaque.at("ai").is_null());  // never a silent 0
  EXPECT_TRUE(opaque.at("gflops").is_null());
  EXPECT_NE(opaque.at("ai_unavailable").get<std::string>().find("no FLOP"), std::string::npos);
  const auto& flops_only = find_region(doc, "flops-only")->at("machine");
  EXPECT_EQ(flops_only.at("flops"), 10.0);
  EXPECT_EQ(flops_only.at("bytes_source"), "unavailable");
  EXPECT_TRUE(flops_only.at("ai").is_null());
  EXPECT_FALSE(flops_only.at("gflops").is_null());
}

TEST_F(RegionTest, CountersUnavailableHereAreSaidSo) {
  // This CI runs in a virtual machine without a PMU: PAPI (when built in) must say why.
  ASSERT_EQ(larm_init(out_dir().c_str()), 0);
  larm_region_begin("r");
  larm_region_add("r", 8.0, 16.0);
  larm_region_end("r");
  ASSERT_EQ(larm_finalize(), 0);
  const auto doc = read_regions();
  const auto& counters = doc.at("counters");
  if (!counters.at("available").get<bool>()) {
    EXPECT_FALSE(counters.at("reason").get<std::string>().empty());
    EXPECT_EQ(find_region(doc, "r")->at("machine").at("flops_source"), "declared");
  } else {
    EXPECT_FALSE(counters.at("events").empty());
  }
}

TEST_F(RegionTest, NestedRegionsAreInclusive) {
  ASSERT_EQ(larm_init(out_dir().c_str()), 0);
  larm_region_begin("outer");
  spin_for(1000);
  larm_region_begin("inner");
  spin_for(2000);
  larm_region_end("inner");
  larm_region_end("outer");
  ASSERT_EQ(larm_finalize(), 0);
  const auto doc = read_regions();
  const double outer = find_region(doc, "outer")->at("machine").at("seconds");
  const double inner = find_region(doc, "inner")->at("machine").at("seconds");
  EXPECT_GE(inner, 2e-3);
  EXPECT_GE(outer, inner + 1e-3);
}

TEST_F(RegionTest, RecursiveRegionCountsEveryCallButItsTimeOnce) {
  ASSERT_EQ(larm_init(out_dir().c_str()), 0);
  larm_region_begin("around");
  larm_region_begin("recurse");
  larm_region_begin("recurse");
  spin_for(3000);
  larm_region_end("recurse");
  larm_region_end("recurse");
  larm_region_end("around");
  ASSERT_EQ(larm_finalize(), 0);
  const auto doc = read_regions();
  const auto& thread = find_region(doc, "recurse")->at("threads").at(0);
  EXPECT_EQ(thread.at("calls"), 2);
  EXPECT_GE(thread.at("seconds").get<double>(), 3e-3);
  // Counted twice, it would exceed the region around it.
  EXPECT_LE(thread.at("seconds").get<double>(),
            find_region(doc, "around")->at("machine").at("seconds").get<double>());
}

TEST_F(RegionTest, LabelComesFromTheEnvironment) {
  ::setenv("LARM_LABEL", "interleave", 1);
  ::setenv("LARM_OUT", out_dir().c_str(), 1);
  ASSERT_EQ(larm_init(nullptr), 0);
  larm_region_begin("r");
  larm_region_end("r");
  ASSERT_EQ(larm_finalize(), 0);
  EXPECT_EQ(read_regions().at("label"), "interleave");
}

TEST_F(RegionTest, GetAndResetWorkOnTheCallingThread) {
  ASSERT_EQ(larm_init(out_dir().c_str()), 0);
  larm_region_begin("r");
  spin_for(1000);
  larm_region_end("r");
  double seconds = 0;
  long calls = 0;
  ASSERT_EQ(larm_region_get("r", &seconds, &calls), 0);
  EXPECT_EQ(calls, 1);
  EXPECT_GE(seconds, 1e-3);
  ASSERT_EQ(larm_region_reset("r"), 0);
  ASSERT_EQ(larm_region_get("r", &seconds, &calls), 0);
  EXPECT_EQ(calls, 0);
  EXPECT_EQ(seconds, 0.0);
  EXPECT_EQ(larm_region_get("never", &seconds, &calls), -1);
  ASSERT_EQ(larm_finalize(), 0);
}

TEST_F(RegionTest, RaiiGuardOpensAndClosesTheRegion) {
  ASSERT_EQ(larm_init(out_dir().c_str()), 0);
  {
    larm::Region region("guarded");
    spin_for(100);
  }
  ASSERT_EQ(larm_finalize(), 0);
  EXPECT_EQ(find_region(read_regions(), "guarded")->at("machine").at("calls"), 1);
}

// Threads record side by side: each thread's counts are exact, and the machine's time is the
// longest thread's.
TEST_F(RegionTest, ThreadsRecordIndependently) {
  ASSERT_EQ(larm_init(out_dir().c_str()), 0);
  constexpr int kThreads = 8;
  constexpr int kCalls = 5000;
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([t] {
      for (int call = 0; call < kCalls; ++call) {
        larm_region_begin("shared");
        larm_region_begin(t % 2 == 0 ? "even" : "odd");
        larm_region_add("shared", 2.0, 8.0);
        larm_region_end(t % 2 == 0 ? "even" : "odd");
        larm_region_end("shared");
      }
    });
  }
  for (auto& thread : threads) thread.join();
  ASSERT_EQ(larm_finalize(), 0);
  const auto doc = read_regions();
  const auto* shared = find_region(doc, "shared");
  ASSERT_NE(shared, nullptr);
  EXPECT_EQ(shared->at("threads").size(), static_cast<std::size_t>(kThreads));
  double longest = 0;
  for (const auto& thread : shared->at("threads")) {
    EXPECT_EQ(thread.at("calls"), kCalls);
    EXPECT_EQ(thread.at("flops").get<double>(), 2.0 * kCalls);
    longest = std::max(longest, thread.at("seconds").get<double>());
  }
  const auto& machine = shared->at("machine");
  EXPECT_EQ(machine.at("threads"), kThreads);
  EXPECT_EQ(machine.at("calls"), kThreads * kCalls);
  EXPECT_EQ(machine.at("flops").get<double>(), 2.0 * kCalls * kThreads);
  EXPECT_DOUBLE_EQ(machine.at("seconds").get<double>(), longest);
  EXPECT_EQ(find_region(doc, "even")->at("machine").at("calls"), kThreads / 2 * kCalls);
}

TEST_F(RegionTest, DataTagGivesTheMemoryHoldingThePages) {
  ASSERT_EQ(larm_init(out_dir().c_str()), 0);
  std::vector<double> touched(1 << 20, 1.0);  // 8 MiB, first-touched by this thread
  ASSERT_EQ(larm_region_data("sum", touched.data(), touched.size() * sizeof(double)), 0);
  // Tagged before the first touch: placed at the region's end.
  const std::size_t bytes = 64 << 12;
  void* untouched = std::aligned_alloc(4096, bytes);
  ASSERT_EQ(larm_region_data("later", untouched, bytes), 0);
  larm_region_begin("later");
  std::memset(untouched, 1, bytes);
  larm_region_end("later");
  ASSERT_EQ(larm_finalize(), 0);
  std::free(untouched);
  const auto doc = read_regions();
  const auto& sum = find_region(doc, "sum")->at("data");
  EXPECT_GT(sum.at("pages_placed").get<int>(), 1000);
  EXPECT_DOUBLE_EQ(sum.at("memory_fractions").at("0").get<double>(), 1.0);
  const auto& later = find_region(doc, "later")->at("data");
  EXPECT_EQ(later.at("pages_placed"), 64);
  EXPECT_EQ(later.at("pages_not_present"), 0);
}

TEST_F(RegionTest, DataHandleTaggedRowByRowIsMergedAndSaysItWasAlreadyTouched) {
  ASSERT_EQ(larm_init(out_dir().c_str()), 0);
  // An array allocated and initialized a row at a time by one thread, before the parallel code (as
  // NPB MG's rows, whose page glibc's malloc touches with each chunk header).
  constexpr int kRows = 5000;
  constexpr std::size_t kRowBytes = 34 * sizeof(double);
  std::vector<double*> rows;
  for (int i = 0; i < kRows; ++i) {
    rows.push_back(static_cast<double*>(std::malloc(kRowBytes)));
    std::memset(rows.back(), 0, kRowBytes);
    ASSERT_EQ(larm_data_tag("u", rows.back(), kRowBytes), 0);
  }
  // A block tagged before anything touched it (mmap: no allocator header in it), then
  // first-touched inside the region.
  const std::size_t block = 64 << 12;
  void* fresh = ::mmap(nullptr, block, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  ASSERT_NE(fresh, MAP_FAILED);
  ASSERT_EQ(larm_data_tag("fresh", fresh, block), 0);
  ASSERT_EQ(larm_region_uses("smooth", "u"), 0);
  ASSERT_EQ(larm_region_uses("smooth", "fresh"), 0);
  ASSERT_EQ(larm_region_uses("smooth", "u"), 0);  // twice: used once
  larm_region_begin("smooth");
  std::memset(fresh, 1, block);
  for (double* row : rows) row[0] = 1;
  larm_region_end("smooth");
  ASSERT_EQ(larm_finalize(), 0);
  for (double* row : rows) std::free(row);
  ::munmap(fresh, block);
  const auto doc = read_regions();
  const auto& ranges = find_region(doc, "smooth")->at("data").at("ranges");
  ASSERT_EQ(ranges.size(), 2u);
  const auto& u = ranges[0].at("handle") == "u" ? ranges[0] : ranges[1];
  const auto& f = ranges[0].at("handle") == "u" ? ranges[1] : ranges[0];
  EXPECT_EQ(u.at("ranges_tagged"), kRows);
  // The rows sit next to each other in the heap: a few runs, not one per row.
  EXPECT_LT(u.at("runs").get<int>(), 50) << u.dump();
  EXPECT_GE(u.at("bytes").get<std::uint64_t>(), kRows * kRowBytes);
  const auto& u_at_tag = u.at("resident_at_tag");
  EXPECT_GT(u_at_tag.at("pages_sampled").get<int>(), 100);
  EXPECT_EQ(u_at_tag.at("pages_present"), u_at_tag.at("pages_sampled")) << u.dump();
  const auto& f_at_tag = f.at("resident_at_tag");
  EXPECT_EQ(f_at_tag.at("pages_sampled"), 64);
  EXPECT_EQ(f_at_tag.at("pages_present"), 0);
  EXPECT_EQ(f.at("pages_not_present"), 0) << "touched in the region: placed at its end";
}

}  // namespace
}  // namespace larm::test
