// Result records: JSON round trip, CSV columns, atomic writes, readable errors.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "report/text/summary_table.h"
#include "results/atomic_file.h"
#include "results/csv_writer.h"
#include "results/printable_text.h"
#include "results/store.h"
#include "tests/schema_complete.h"

namespace larm::results {
namespace {

Results sample_results() {
  Results r;
  r.provenance = larm::results::provenance_from_json(testing::complete_provenance());
  r.topology = larm::results::topology_from_json(testing::complete_topology());
  Roof l1;
  l1.domain = 0;
  l1.level = Level::L1;
  l1.access = Access::load;
  l1.isa = Isa::avx2;
  l1.threads = 2;
  l1.working_set_bytes = 16384;
  l1.samples = {100, 102, 98};
  l1.stats = summarize(l1.samples);
  l1.roof = l1.stats.median;  // no roof_estimator in the provenance: the median
  l1.placement_fraction = 1.0;
  Roof remote = l1;
  remote.level = Level::memory;
  remote.memory = MemoryRef{-1, 1};
  remote.placement = Placement::remote;
  remote.samples.clear();
  remote.stats = summarize(remote.samples);
  remote.roof = 0;
  remote.placement_fraction.reset();
  remote.status = Status::absent;
  remote.status_reason = "single NUMA node";
  Roof fma = l1;
  fma.level = Level::flops;
  fma.op = FlopOp::fma;
  fma.precision = Precision::dp;
  fma.instructions_per_cycle = 1.98;
  fma.documented_ipc = 2;
  r.roofs = {l1, remote, fma};
  SweepPoint p;
  p.access = Access::load;
  p.threads = 2;
  p.working_set_bytes = 1024;
  p.samples = {50, 51};
  p.stats = summarize(p.samples);
  r.sweep = {p};
  LatencyPoint lat;
  lat.level = Level::L1;
  lat.samples_ns = {1.0, 1.1, 0.9};
  lat.stats = summarize(lat.samples_ns);
  lat.cycles = 4;
  r.latency = {lat};
  LoadedLatencyCurve loaded;
  loaded.memory = MemoryRef{-1, 1};
  loaded.local = false;
  loaded.mix = "2:1";
  loaded.read_share = 2.0 / 3;
  loaded.chase_pu = 2;
  loaded.injector_pus = {3};
  loaded.chain_bytes = 1 << 27;
  loaded.injector_bytes = 1 << 26;
  loaded.chain_placement = 1;
  loaded.injector_placement = 0.995;
  for (const std::optional<std::uint32_t> delay : {std::optional<std::uint32_t>(), {0u}}) {
    LoadedLatencyPoint point;
    point.delay = delay;
    point.injector_gbps = delay ? 25 : 0;
    point.samples_ns = {100, 110, 120};
    point.p10_ns = quantile(point.samples_ns, 0.1);
    point.p50_ns = quantile(point.samples_ns, 0.5);
    point.p90_ns = quantile(point.samples_ns, 0.9);
    loaded.points.push_back(point);
  }
  loaded.idle_ns = 110;
  loaded.saturation_gbps = 25;
  loaded.no_knee = "the latency stays under 2 x its idle value";
  LoadedLatencyCurve absent_curve = loaded;
  absent_curve.points.clear();
  absent_curve.idle_ns.reset();
  absent_curve.status = Status::absent;
  absent_curve.status_reason = "domain 1 has one core";
  r.loaded_latency = {loaded, absent_curve};
  r.complete = true;
  return r;
}

std::filesystem::path temp_dir(const std::string& name) {
  const auto dir = std::filesystem::temp_directory_path() / (name + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir;
}

TEST(Results, JsonRoundTripKeepsEverything) {
  const Results original = sample_results();
  const nlohmann::json doc = to_json(original);
  EXPECT_EQ(doc["schema_version"], kSchemaVersion);
  const Results back = results_from_json(nlohmann::json::parse(doc.dump()));
  EXPECT_EQ(to_json(back), doc);
  ASSERT_EQ(back.roofs.size(), 3u);
  EXPECT_FALSE(back.roofs[1].present());
  EXPECT_EQ(back.roofs[1].status, Status::absent);
  EXPECT_EQ(back.roofs[1].status_reason, "single NUMA node");
  EXPECT_EQ(back.roofs[1].memory, (MemoryRef{-1, 1}));
  EXPECT_EQ(back.roofs[2].op, FlopOp::fma);
  EXPECT_DOUBLE_EQ(back.roofs[0].stats.median, 100);
  ASSERT_EQ(back.loaded_latency.size(), 2u);
  EXPECT_EQ(back.loaded_latency[0].points.size(), 2u);
  EXPECT_FALSE(back.loaded_latency[0].points[0].delay);
  EXPECT_EQ(back.loaded_latency[0].points[1].delay, 0u);
  EXPECT_DOUBLE_EQ(back.loaded_latency[0].points[1].p90_ns, 118);
  EXPECT_EQ(back.loaded_latency[0].memory, (MemoryRef{-1, 1}));
  EXPECT_FALSE(back.loaded_latency[1].present());
  EXPECT_EQ(back.loaded_latency[1].status_reason, "domain 1 has one core");
}

TEST(Results, UnknownWordsAreRefusedWithTheField) {
  nlohmann::json doc = to_json(sample_results());
  doc["roofs"][0]["level"] = "L9";
  try {
    results_from_json(doc);
    FAIL() << "read a level L9";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("/roofs/0/level: \"L9\" does not match"),
              std::string::npos)
        << e.what();
  }
  doc = to_json(sample_results());
  doc["roofs"][2]["unit"] = "GB/s";  // a ceiling in GB/s
  EXPECT_THROW(results_from_json(doc), std::runtime_error);
}

TEST(Results, MemoriesTakeTheirPositionFromTheFilesTopology) {
  Results r = sample_results();
  r.topology = larm::results::topology_from_json(
      testing::complete_topology({{"memories", {{{"os_index", 4}}, {{"os_index", 1}}}}}));
  const Results back = results_from_json(to_json(r));
  ASSERT_TRUE(back.roofs[1].memory);
  EXPECT_EQ(back.roofs[1].memory->index, 1);
  EXPECT_EQ(back.roofs[1].memory->os_index, 1u);
}

TEST(Results, OtherMajorVersionIsRefused) {
  nlohmann::json doc = to_json(sample_results());
  doc["schema_version"] = "2.0";
  EXPECT_THROW(results_from_json(doc), std::runtime_error);
  EXPECT_THROW(results_from_json(nlohmann::json::object()), std::runtime_error);
}

// The model's value is the file's "roof"; files from before it (no "roof") use the median.
TEST(Results, RoofValueIsReadBackOrTheMedianForOlderFiles) {
  Results r = sample_results();
  r.provenance.roof_estimator = Estimator::p90;
  r.roofs[0].roof = quantile(r.roofs[0].samples, 0.9);
  nlohmann::json document = to_json(r);
  EXPECT_DOUBLE_EQ(document["roofs"][0]["roof"].get<double>(), 101.6);
  EXPECT_TRUE(document["roofs"][1]["roof"].is_null());  // absent
  EXPECT_DOUBLE_EQ(results_from_json(document).roofs[0].roof, 101.6);
  EXPECT_EQ(roof_estimator(results_from_json(document)), Estimator::p90);
  document["roofs"][0].erase("roof");
  document["provenance"].erase("roof_estimator");
  EXPECT_DOUBLE_EQ(results_from_json(document).roofs[0].roof, 100);
  EXPECT_EQ(roof_estimator(results_from_json(document)), Estimator::median);
}

TEST(Results, RoofsCsvHasTheDocumentedColumns) {
  const std::string csv = roofs_csv(sample_results());
  std::istringstream in(csv);
  std::string header, first, absent;
  std::getline(in, header);
  std::getline(in, first);
  std::getline(in, absent);
  EXPECT_EQ(header.rfind("domain,memory,level,access,precision,isa,threads,unit,median,min,max,"
                         "samples,status",
                         0),
            0u);
  EXPECT_EQ(first.rfind("0,,L1,load,,avx2,2,GB/s,100,98,102,3,ok,", 0), 0u);
  // An absent roof carries no value, only its reason.
  EXPECT_EQ(absent.rfind("0,1,memory,load,,avx2,2,GB/s,,,,0,single NUMA node,remote", 0), 0u);
}

TEST(Results, CsvFieldsAreQuotedWhenNeeded) {
  EXPECT_EQ(csv_field("plain"), "plain");
  EXPECT_EQ(csv_field("a,b"), "\"a,b\"");
  EXPECT_EQ(csv_field("say \"x\""), "\"say \"\"x\"\"\"");
  // Control characters and invalid UTF-8 are written as visible escapes: no line break, escape
  // sequence or byte a reader cannot decode reaches a CSV.
  EXPECT_EQ(csv_field("a\rb"), "a\\rb");
  EXPECT_EQ(csv_field("a\nb"), "a\\nb");
  EXPECT_EQ(csv_field("esc\x1b[31m\xff,x"), "\"esc\\x1b[31m\\xff,x\"");
  EXPECT_EQ(csv_field("caf\xc3\xa9"), "caf\xc3\xa9");  // UTF-8 kept
}

TEST(Results, TableCellsCutAtACharacterNotInsideOne) {
  EXPECT_EQ(table_cell("abc", 5), "abc  ");
  EXPECT_EQ(table_cell("abcdef", 4), "abc~");
  // "é" is 2 bytes, one character: the cut keeps whole characters and pads by characters.
  EXPECT_EQ(table_cell("\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9", 3), "\xc3\xa9\xc3\xa9~");
  EXPECT_EQ(table_cell("\xc3\xa9", 3), "\xc3\xa9  ");
  EXPECT_EQ(table_cell("a\x1b[2J", 12), "a\\x1b[2J    ");
}

TEST(Results, AFileItsReadersWouldRefuseIsNotWritten) {
  const auto dir = temp_dir("larm-guard-");
  Results r = sample_results();
  r.roofs[0].roof = 9.5e35;
  EXPECT_THROW(save_results(dir, r), std::logic_error);
  EXPECT_FALSE(std::filesystem::exists(dir / "results.json"));
  r.roofs[0].roof = 100;
  r.roofs[0].threads = -3;  // in range, but the schema says a thread count is at least 1
  EXPECT_THROW(save_results(dir, r), std::logic_error);
  EXPECT_FALSE(std::filesystem::exists(dir / "results.json"));
  std::filesystem::remove_all(dir);
}

TEST(Results, SaveThenLoadAndNoTemporaryFilesLeft) {
  const auto dir = temp_dir("larm-store-");
  save_results(dir, sample_results());
  for (const char* file : {"results.json", "roofs.csv", "sweep.csv", "latency.csv"}) {
    EXPECT_TRUE(std::filesystem::exists(dir / file)) << file;
  }
  int entries = 0;
  for ([[maybe_unused]] const auto& e : std::filesystem::directory_iterator(dir)) ++entries;
  EXPECT_EQ(entries, 4);
  EXPECT_EQ(load_results(dir).roofs.size(), 3u);
  std::filesystem::remove_all(dir);
}

TEST(Results, AtomicWriteReplacesWholeContent) {
  const auto dir = temp_dir("larm-atomic-");
  write_file_atomically(dir / "f", "first version, longer");
  write_file_atomically(dir / "f", "second");
  std::ifstream in(dir / "f");
  std::string content((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_EQ(content, "second");
  EXPECT_THROW(write_file_atomically(dir / "missing" / "f", "x"), std::runtime_error);
  std::filesystem::remove_all(dir);
}

TEST(Results, WriteIfChangedLeavesIdenticalFilesAlone) {
  const auto dir = temp_dir("larm-changed-");
  EXPECT_TRUE(write_file_if_changed(dir / "f", "node results", Flush::later));
  const auto written = std::filesystem::last_write_time(dir / "f");
  EXPECT_FALSE(write_file_if_changed(dir / "f", "node results", Flush::later));
  EXPECT_EQ(std::filesystem::last_write_time(dir / "f"), written);
  EXPECT_TRUE(write_file_if_changed(dir / "f", "node resultz"));  // same size, other content
  EXPECT_TRUE(write_file_if_changed(dir / "f", "longer node results"));
  sync_file_system(dir);
  std::ifstream in(dir / "f");
  std::string content((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_EQ(content, "longer node results");
  std::filesystem::remove_all(dir);
}

TEST(Results, LoadErrorsNameTheProblem) {
  const auto dir = temp_dir("larm-bad-");
  EXPECT_THROW(load_results(dir), std::runtime_error);
  std::ofstream(dir / "results.json") << "{not json";
  try {
    load_results(dir);
    FAIL();
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("not valid JSON"), std::string::npos);
  }
  std::filesystem::remove_all(dir);
}

// A cache without its level was read (as "") and then written back as a level the schema refuses:
// what the reader accepts, the writer must write and the reader accept again.
TEST(Results, ACacheWithoutItsLevelIsRefused) {
  nlohmann::json document = to_json(sample_results());
  document["topology"]["domains"] = nlohmann::json::array(
      {{{"index", 0}, {"caches", nlohmann::json::array({{{"instance_bytes", 32768}}})}}});
  try {
    (void)results_from_json(document);
    FAIL() << "a cache without a level was accepted";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("level"), std::string::npos) << e.what();
  }
}

TEST(Results, SummaryMarksAbsentAndIncomplete) {
  Results r = sample_results();
  r.complete = false;
  r.incomplete_reason = "interrupted after 3 of 10 measurements";
  const std::string text = text::summary_table(r);
  EXPECT_NE(text.find("absent mem 1 remote: single NUMA node"), std::string::npos) << text;
  EXPECT_NE(text.find("INCOMPLETE results: interrupted"), std::string::npos);
  EXPECT_NE(text.find("100.0"), std::string::npos);
}

}  // namespace
}  // namespace larm::results
