// Monitors on the hwloc tree: the thesis' fig. 5.2 description parsed as written and aggregated on
// a fixture topology (checked against sums taken through hwloc's own ancestors), the description
// errors with their line, every reduction, and the linux source over fixture /proc and /sys files.
#include <gtest/gtest.h>
#include <hwloc.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include <unistd.h>

#include "instrument/monitor/default_monitors.h"
#include "instrument/monitor/description.h"
#include "instrument/monitor/linux_source.h"
#include "instrument/monitor/monitor_set.h"
#include "instrument/monitor/region_source.h"
#include "instrument/monitor/sampler.h"
#include "instrument/monitor/topology_picture.h"
#include "instrument/monitor/trace.h"
#include "instrument/monitor/trace_json.h"
#include "instrument/monitor/trace_reader.h"
#include "report/monitor_figures.h"
#include "report/monitor_trajectory.h"
#include "results/store.h"

#include <nlohmann/json.hpp>

namespace {

using namespace larm::monitor;
namespace fs = std::filesystem;

// Thesis, chapter 5, fig. 5.2 (a), (b) and (c), as printed.
const char* kFigure52 = R"(
L3_ACCES_PU{
  OBJ:=PU;
  PERF_LIB:=papi;
  EVSET:=PAPI_L3_TCA;
}

L3_ACCES_L3{
  OBJ:=L3;
  PERF_LIB:=accumulate;
  EVSET:=L3_ACCES_PU;
}

L3_var{
  OBJ:=Machine;
  PERF_LIB:=hierarchical;
  EVSET:=L3_ACCES_L3;
  REDUCTION:=1#hmonitor_evset_var;
  OUTPUT:=1;
}
)";

// A counter per PU of known value: its OS index + 1.
class FakePapi final : public EventSource {
 public:
  std::string lacks(const std::string& event, hwloc_obj_type_t type) const override {
    if (event != "PAPI_L3_TCA") return "no such event";
    return type == HWLOC_OBJ_PU ? "" : "counted on PUs";
  }
  double read(const std::string&, hwloc_obj_t object) override { return object->os_index + 1.0; }
};

class Fixture {
 public:
  explicit Fixture(const char* file) {
    hwloc_topology_init(&topology_);
    const std::string path = std::string(LARM_TOPOLOGIES_DIR) + "/" + file;
    if (hwloc_topology_set_xml(topology_, path.c_str()) != 0 || hwloc_topology_load(topology_)) {
      ADD_FAILURE() << "cannot load " << path;
    }
  }
  ~Fixture() { hwloc_topology_destroy(topology_); }
  hwloc_topology_t get() const { return topology_; }

 private:
  hwloc_topology_t topology_;
};

TEST(MonitorDescription, TheThesisFigure52ParsesAsPrinted) {
  const auto monitors = parse_description(kFigure52, "fig5.2");
  ASSERT_EQ(monitors.size(), 3u);
  EXPECT_EQ(monitors[0].name, "L3_ACCES_PU");
  EXPECT_EQ(monitors[0].object, "PU");
  EXPECT_EQ(monitors[0].source, "papi");
  EXPECT_EQ(monitors[0].events, std::vector<std::string>{"PAPI_L3_TCA"});
  EXPECT_EQ(monitors[0].line, 2);
  EXPECT_EQ(monitors[1].source, "accumulate");
  EXPECT_EQ(monitors[2].reduction, Reduction::var);
  EXPECT_TRUE(monitors[2].output);
  EXPECT_EQ(monitors[2].line, 14);
}

TEST(MonitorDescription, MalformedTextIsRefusedWithItsLine) {
  const auto refused = [](const std::string& text) {
    try {
      parse_description(text, "d");
    } catch (const DescriptionError& e) {
      return std::string(e.what());
    }
    return std::string("accepted");
  };
  EXPECT_EQ(refused(""), "d: no monitor is described");
  EXPECT_EQ(refused("\n\nA{ OBJ:=PU; PERF_LIB:=linux; EVSET:=cpu_busy;"),
            "d:3: monitor A's block is not closed");
  EXPECT_EQ(refused("A{ OBJ:=PU;\n WHAT:=1; PERF_LIB:=linux; EVSET:=cpu_busy; }"),
            "d:2: unknown key WHAT (OBJ, PERF_LIB, EVSET, REDUCTION, OUTPUT)");
  EXPECT_EQ(refused("A{ OBJ:=PU; PERF_LIB:=linux; }"), "d:1: monitor A has no EVSET");
  EXPECT_EQ(refused("A{ OBJ:=PU; OBJ:=Core; PERF_LIB:=linux; EVSET:=x; }"),
            "d:1: A's OBJ is given twice");
  EXPECT_EQ(refused("A{ OBJ:=PU; PERF_LIB:=linux; EVSET:=x; }\nA{ OBJ:=PU; PERF_LIB:=linux; "
                    "EVSET:=x; }"),
            "d:2: monitor A is defined twice");
  EXPECT_EQ(refused("A{ OBJ:=Machine; PERF_LIB:=hierarchical; EVSET:=B; }"),
            "d:1: monitor A joins its children (hierarchical) and needs a REDUCTION");
  EXPECT_NE(refused("A{ OBJ:=PU; PERF_LIB:=linux; EVSET:=x; REDUCTION:=median; }").find("median"),
            std::string::npos);
  EXPECT_EQ(refused("A{ OBJ:=PU PERF_LIB:=linux; }"),
            "d:1: A's OBJ has ':=' in its value (a ';' missing before it?)");
  EXPECT_EQ(refused("# a comment\nthis is not a block"),
            "d:2: a monitor block NAME{ ... } expected, found 'this is not a block'");
}

TEST(MonitorSet, TheThesisFigure52AggregatesAlongTheTree) {
  const Fixture topology("24em64t-2n6c2t-pci.xml");
  FakePapi papi;
  MonitorSet set(parse_description(kFigure52, "fig5.2"), topology.get(), {{"papi", &papi}},
                 "fig5.2");
  set.update();
  ASSERT_EQ(set.monitors().size(), 3u);
  const MonitorInstance& l3 = set.monitors()[1];
  ASSERT_EQ(l3.objects.size(), 2u);
  // Independently: each PU's value added to the L3 hwloc names its ancestor.
  std::map<unsigned, double> expected;  // L3 logical index -> sum
  const int pus = hwloc_get_nbobjs_by_type(topology.get(), HWLOC_OBJ_PU);
  for (int i = 0; i < pus; ++i) {
    hwloc_obj_t pu = hwloc_get_obj_by_type(topology.get(), HWLOC_OBJ_PU, static_cast<unsigned>(i));
    hwloc_obj_t cache = hwloc_get_ancestor_obj_by_type(topology.get(), HWLOC_OBJ_L3CACHE, pu);
    ASSERT_NE(cache, nullptr);
    expected[cache->logical_index] += pu->os_index + 1.0;
  }
  double total = 0;
  for (std::size_t o = 0; o < l3.objects.size(); ++o) {
    EXPECT_DOUBLE_EQ(l3.values[o][0], expected.at(l3.objects[o]->logical_index));
    total += l3.values[o][0];
  }
  EXPECT_DOUBLE_EQ(total, pus * (pus + 1) / 2.0);  // 1 + ... + 24
  const double mean = total / 2;
  double variance = 0;
  for (const auto& [cache, sum] : expected) variance += (sum - mean) * (sum - mean) / 2;
  const MonitorInstance& machine = set.monitors()[2];
  ASSERT_EQ(machine.objects.size(), 1u);
  EXPECT_DOUBLE_EQ(machine.values[0][0], variance);
  EXPECT_EQ(machine.value_names, std::vector<std::string>{"PAPI_L3_TCA"});
  EXPECT_EQ(object_name(l3.objects[0]), "L3 L#0");
  EXPECT_EQ(object_name(set.monitors()[0].objects[3]).rfind("PU P#", 0), 0u);
}

TEST(MonitorSet, EveryMistakeIsFoundBeforeAnyRead) {
  const Fixture topology("24em64t-2n6c2t-pci.xml");
  FakePapi papi;
  const auto refused = [&](const std::string& text) {
    try {
      MonitorSet(parse_description(text, "d"), topology.get(), {{"papi", &papi}}, "d");
    } catch (const DescriptionError& e) {
      return std::string(e.what());
    }
    return std::string("accepted");
  };
  EXPECT_EQ(refused("A{ OBJ:=L4; PERF_LIB:=papi; EVSET:=PAPI_L3_TCA; }"),
            "d:1: monitor A: this topology has no L4");
  EXPECT_EQ(refused("A{ OBJ:=Gizmo; PERF_LIB:=papi; EVSET:=PAPI_L3_TCA; }"),
            "d:1: monitor A: OBJ Gizmo is not an hwloc object type");
  EXPECT_EQ(refused("A{ OBJ:=PU; PERF_LIB:=papi; EVSET:=PAPI_FP_OPS; }"),
            "d:1: monitor A: papi has no event PAPI_FP_OPS on PU: no such event");
  EXPECT_EQ(refused("A{ OBJ:=Core; PERF_LIB:=papi; EVSET:=PAPI_L3_TCA; }"),
            "d:1: monitor A: papi has no event PAPI_L3_TCA on Core: counted on PUs");
  EXPECT_EQ(refused("A{ OBJ:=PU; PERF_LIB:=perfctr; EVSET:=x; }"),
            "d:1: monitor A: PERF_LIB perfctr is not a source (papi, accumulate, hierarchical, "
            "rate, ratio)");
  EXPECT_EQ(refused("A{ OBJ:=L3; PERF_LIB:=accumulate; EVSET:=B; }"),
            "d:1: monitor A reads B, which no monitor of the description is");
  EXPECT_EQ(refused("A{ OBJ:=L3; PERF_LIB:=accumulate; EVSET:=B; }\n"
                    "B{ OBJ:=PU; PERF_LIB:=accumulate; EVSET:=A; }"),
            "d:1: monitor A joins itself through B");
  EXPECT_EQ(refused("A{ OBJ:=L3; PERF_LIB:=papi; EVSET:=PAPI_L3_TCA; }"),
            "d:1: monitor A: papi has no event PAPI_L3_TCA on L3: counted on PUs");
  EXPECT_EQ(refused("A{ OBJ:=PU; PERF_LIB:=papi; EVSET:=PAPI_L3_TCA; }\n"
                    "B{ OBJ:=L3; PERF_LIB:=accumulate; EVSET:=A; }\n"
                    "C{ OBJ:=PU; PERF_LIB:=accumulate; EVSET:=B; }"),
            "d:3: monitor C on PU joins B on L3, which is not below it");
  // L1d above Core with the same PUs under each (that machine's L1 per core): refused by the
  // levels' depths, which the PU sets cannot tell apart.
  EXPECT_EQ(refused("A{ OBJ:=PU; PERF_LIB:=papi; EVSET:=PAPI_L3_TCA; }\n"
                    "B{ OBJ:=L1d; PERF_LIB:=accumulate; EVSET:=A; }\n"
                    "C{ OBJ:=Core; PERF_LIB:=accumulate; EVSET:=B; }"),
            "d:3: monitor C on Core joins B on L1d, which is not below it");
}

TEST(MonitorReduction, EachReductionOfAKnownVector) {
  const std::vector<double> v = {1, 2, 3, 0, 4};
  EXPECT_DOUBLE_EQ(reduce(Reduction::sum, v), 10);
  EXPECT_DOUBLE_EQ(reduce(Reduction::mean, v), 2);
  EXPECT_DOUBLE_EQ(reduce(Reduction::min, v), 0);
  EXPECT_DOUBLE_EQ(reduce(Reduction::max, v), 4);
  EXPECT_DOUBLE_EQ(reduce(Reduction::var, v), 2);
  EXPECT_DOUBLE_EQ(reduce(Reduction::sd, v), std::sqrt(2.0));
  EXPECT_DOUBLE_EQ(reduce(Reduction::balance, v), 2);
  EXPECT_DOUBLE_EQ(reduce(Reduction::count, v), 4);
  EXPECT_DOUBLE_EQ(reduce(Reduction::balance, {0, 0}), 1);
  EXPECT_DOUBLE_EQ(reduce(Reduction::sum, {}), 0);
}

void write(const fs::path& file, const std::string& text) {
  fs::create_directories(file.parent_path());
  std::ofstream(file) << text;
}

TEST(LinuxSource, ReadsTheIntervalsOfFixtureProcAndSysFiles) {
  const fs::path root =
      fs::temp_directory_path() / ("larm-monitor-test-" + std::to_string(::getpid()));
  fs::remove_all(root);
  const fs::path proc = root / "proc", sys = root / "sys";
  const fs::path node0 = sys / "devices/system/node/node0";
  write(proc / "stat",
        "cpu  1 2 3 4\ncpu0 100 0 50 800 50 0 0 0 0 0\ncpu1 10 0 0 990 0 0 0 0 0 0\n");
  write(node0 / "numastat", "numa_hit 1000\nnuma_miss 10\nlocal_node 900\nother_node 110\n");
  write(node0 / "meminfo", "Node 0 MemTotal:  1000 kB\nNode 0 MemUsed:    250 kB\n");
  // A thread named with a blank and a parenthesis, last on CPU 1, utime 30 + stime 10 ticks.
  std::string fields =
      "S 1 1 1 0 -1 0 0 0 0 0 30 10 0 0 20 0 1 0 1 1 1 1 1 1 1 1 1 0 0 0 0 0 0 0 17 1";
  write(proc / "42/task/42/stat", "42 (my (app) x) " + fields);
  write(proc / "42/numa_maps",
        "7f00 default anon=3 dirty=3 N0=3 kernelpagesize_kB=4\n"
        "7f10 default file=/lib/x.so mapped=2 N0=1 N1=1 kernelpagesize_kB=4\n"
        "7f20 default anon=1 N0=1 kernelpagesize_kB=2048\n");
  LinuxSource source(proc, sys);
  for (const char* event :
       {"cpu_busy", "task_threads", "numa_hit", "mem_used_bytes", "process_pages"}) {
    source.use(event);
  }
  source.set_process(42);
  source.refresh();
  // The second interval: CPU 0 busy 60 of 100 ticks, steal 10; the thread 5 ticks more.
  write(proc / "stat", "cpu0 150 0 60 830 50 0 0 10 0 0\ncpu1 10 0 0 1090 0 0 0 0 0 0\n");
  write(node0 / "numastat", "numa_hit 1600\nnuma_miss 10\nlocal_node 1500\nother_node 110\n");
  fields = "S 1 1 1 0 -1 0 0 0 0 0 33 12 0 0 20 0 1 0 1 1 1 1 1 1 1 1 1 0 0 0 0 0 0 0 17 0";
  write(proc / "42/task/42/stat", "42 (my (app) x) " + fields);
  source.refresh();

  hwloc_obj cpu0{}, cpu1{}, node{};
  cpu0.type = cpu1.type = HWLOC_OBJ_PU;
  cpu0.os_index = 0;
  cpu1.os_index = 1;
  node.type = HWLOC_OBJ_NUMANODE;
  node.os_index = 0;
  EXPECT_DOUBLE_EQ(source.read("cpu_busy", &cpu0), 0.6);
  EXPECT_DOUBLE_EQ(source.read("cpu_steal", &cpu0), 0.1);
  EXPECT_DOUBLE_EQ(source.read("cpu_busy", &cpu1), 0);
  const double tick = 1.0 / static_cast<double>(::sysconf(_SC_CLK_TCK));
  EXPECT_NEAR(source.read("task_cpu_seconds", &cpu0), 5 * tick, 1e-12);  // now on CPU 0
  EXPECT_DOUBLE_EQ(source.read("task_threads", &cpu0), 1);
  EXPECT_DOUBLE_EQ(source.read("task_migrations", &cpu0), 1);
  EXPECT_DOUBLE_EQ(source.read("task_threads", &cpu1), 0);
  EXPECT_DOUBLE_EQ(source.read("numa_hit", &node), 600);
  EXPECT_DOUBLE_EQ(source.read("local_node", &node), 600);
  EXPECT_DOUBLE_EQ(source.read("numa_miss", &node), 0);
  EXPECT_DOUBLE_EQ(source.read("mem_used_bytes", &node), 250 * 1024);
  EXPECT_DOUBLE_EQ(source.read("process_pages", &node), 5);
  EXPECT_DOUBLE_EQ(source.read("process_bytes", &node), 4 * 4096 + 2048 * 1024);
  node.os_index = 1;
  EXPECT_DOUBLE_EQ(source.read("process_pages", &node), 1);
  EXPECT_EQ(source.lacks("cpu_busy", HWLOC_OBJ_CORE), "it is counted on PUs");
  EXPECT_NE(source.lacks("cpu_wat", HWLOC_OBJ_PU).find("its events are"), std::string::npos);
  fs::remove_all(root);
}

TEST(DefaultMonitors, AreAValidDescriptionOnEveryFixtureTopology) {
  for (const auto& entry : fs::directory_iterator(LARM_TOPOLOGIES_DIR)) {
    if (entry.path().extension() != ".xml") continue;
    const Fixture topology(entry.path().filename().c_str());
    LinuxSource source;
    const std::string text = default_description(topology.get());
    EXPECT_NO_THROW(MonitorSet(parse_description(text, "default"), topology.get(),
                               {{"linux", &source}}, "default"))
        << entry.path() << "\n"
        << text;
  }
}

TEST(Sampler, TakesAFirstAndALastSampleAndKeepsAFailureInsteadOfThrowing) {
  const Fixture topology("24em64t-2n6c2t-pci.xml");
  FakePapi papi;
  MonitorSet set(parse_description(kFigure52, "fig5.2"), topology.get(), {{"papi", &papi}},
                 "fig5.2");
  {
    int calls = 0;
    Sampler sampler(set, std::chrono::hours(1), [&](double, const MonitorSet&) { ++calls; });
    sampler.start();
    sampler.stop();  // long before the first period ends
    EXPECT_EQ(sampler.samples(), 2);
    EXPECT_EQ(calls, 2);
    EXPECT_EQ(sampler.error(), nullptr);
  }
  std::atomic<int> calls = 0;
  Sampler failing(set, std::chrono::microseconds(100), [&](double, const MonitorSet&) {
    if (++calls == 3) throw std::runtime_error("disk full");
  });
  failing.start();
  while (calls < 3) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  std::this_thread::sleep_for(std::chrono::milliseconds(5));
  failing.stop();
  EXPECT_EQ(calls, 3);  // nothing sampled after the failure
  EXPECT_EQ(failing.samples(), 2);
  ASSERT_NE(failing.error(), nullptr);
  EXPECT_THROW(std::rethrow_exception(failing.error()), std::runtime_error);
}

TEST(TopologyPicture, ColoursGoFromGreenThroughYellowToRed) {
  EXPECT_EQ(heat_colour(0), "#00c000");
  EXPECT_EQ(heat_colour(0.5), "#ffd000");
  EXPECT_EQ(heat_colour(1), "#e00000");
  EXPECT_EQ(heat_colour(7), "#e00000");
  EXPECT_EQ(heat_colour(-1), "#00c000");
  EXPECT_EQ(heat_colour(std::nan("")), "#00c000");
}

TEST(TopologyPicture, TheExportedXmlCarriesEachObjectsColourAndValue) {
  const Fixture topology("24em64t-2n6c2t-pci.xml");
  PictureLayer l3;
  l3.monitor = "misses";
  l3.value_name = "PAPI_L3_TCM";
  l3.type = HWLOC_OBJ_L3CACHE;
  l3.logical_indexes = {0, 1};
  l3.values = {10000, 1};   // the thesis' fig. 5.8: one L3 10,000 times the other
  PictureLayer again = l3;  // a second layer on the same level keeps the first one's colours
  again.monitor = "other";
  again.values = {1, 10000};
  const fs::path xml =
      fs::temp_directory_path() / ("larm-picture-test-" + std::to_string(::getpid()) + ".xml");
  write_pictured_topology(topology.get(), {l3, again}, xml);

  hwloc_topology_t read_back;
  hwloc_topology_init(&read_back);
  ASSERT_EQ(hwloc_topology_set_xml(read_back, xml.c_str()), 0);
  ASSERT_EQ(hwloc_topology_load(read_back), 0);
  hwloc_obj_t first = hwloc_get_obj_by_type(read_back, HWLOC_OBJ_L3CACHE, 0);
  hwloc_obj_t second = hwloc_get_obj_by_type(read_back, HWLOC_OBJ_L3CACHE, 1);
  ASSERT_NE(first, nullptr);
  ASSERT_NE(second, nullptr);
  EXPECT_STREQ(hwloc_obj_get_info_by_name(first, "lstopoStyle"), "Background=#e00000");
  EXPECT_STREQ(hwloc_obj_get_info_by_name(second, "lstopoStyle"), "Background=#00c000");
  EXPECT_STREQ(hwloc_obj_get_info_by_name(first, "larm misses PAPI_L3_TCM"), "10000");
  EXPECT_STREQ(hwloc_obj_get_info_by_name(second, "larm other PAPI_L3_TCM"), "10000");
  hwloc_obj_t pu = hwloc_get_obj_by_type(read_back, HWLOC_OBJ_PU, 0);
  EXPECT_EQ(hwloc_obj_get_info_by_name(pu, "lstopoStyle"), nullptr);
  hwloc_topology_destroy(read_back);
  fs::remove(xml);
}

}  // namespace

namespace {

TEST(MonitorSet, RatesAndRatiosDeriveValuesOnTheirOwnLevel) {
  const Fixture topology("24em64t-2n6c2t-pci.xml");
  FakePapi papi;
  const std::string text = std::string(kFigure52) +
                           "rate_PU{ OBJ:=PU; PERF_LIB:=rate; EVSET:=L3_ACCES_PU; }\n"
                           "rate_L3{ OBJ:=L3; PERF_LIB:=accumulate; EVSET:=rate_PU; }\n"
                           "per_count{ OBJ:=PU; PERF_LIB:=ratio; EVSET:=rate_PU,L3_ACCES_PU; }\n";
  // Before the set is made: its first interval starts at its construction.
  const auto before = std::chrono::steady_clock::now();
  MonitorSet set(parse_description(text, "d"), topology.get(), {{"papi", &papi}}, "d");
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  set.update();
  const double most =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - before).count();
  const auto find = [&](const std::string& name) -> const MonitorInstance& {
    for (const MonitorInstance& m : set.monitors()) {
      if (m.spec.name == name) return m;
    }
    throw std::runtime_error("no monitor " + name);
  };
  const MonitorInstance& counts = find("L3_ACCES_PU");
  const MonitorInstance& rate = find("rate_PU");
  ASSERT_EQ(rate.objects.size(), counts.objects.size());
  // The same interval for every object: each rate is its count over it, between 50 ms and the
  // time measured around the update.
  const double interval = counts.values[0][0] / rate.values[0][0];
  EXPECT_GE(interval, 0.05);
  EXPECT_LE(interval, most + 1e-3);
  for (std::size_t o = 0; o < rate.objects.size(); ++o) {
    EXPECT_EQ(rate.objects[o], counts.objects[o]);
    EXPECT_NEAR(rate.values[o][0] * interval, counts.values[o][0], 1e-9 * counts.values[o][0]);
  }
  // Joined like any monitor: the L3 sums of the rates are the rates of the L3 sums.
  const MonitorInstance& l3_rate = find("rate_L3");
  const MonitorInstance& l3 = find("L3_ACCES_L3");
  for (std::size_t o = 0; o < l3.objects.size(); ++o) {
    EXPECT_NEAR(l3_rate.values[o][0] * interval, l3.values[o][0], 1e-9 * l3.values[o][0]);
  }
  const auto refused = [&](const std::string& extra) {
    try {
      MonitorSet(parse_description(std::string(kFigure52) + extra, "d"), topology.get(),
                 {{"papi", &papi}}, "d");
    } catch (const DescriptionError& e) {
      return std::string(e.what());
    }
    return std::string("accepted");
  };
  // A ratio, value by value: each PU's rate over its count is one over the interval.
  const MonitorInstance& per_count = find("per_count");
  EXPECT_EQ(per_count.value_names, std::vector<std::string>{"PAPI_L3_TCA/PAPI_L3_TCA"});
  for (std::size_t o = 0; o < per_count.objects.size(); ++o) {
    EXPECT_NEAR(per_count.values[o][0] * interval, 1.0, 1e-9);
  }
  EXPECT_EQ(refused("R{ OBJ:=PU; PERF_LIB:=ratio; EVSET:=L3_ACCES_PU; }"),
            "d:21: monitor R: a ratio reads two monitors (EVSET:=NUMERATOR,DENOMINATOR)");
  EXPECT_EQ(refused("R{ OBJ:=PU; PERF_LIB:=ratio; EVSET:=L3_ACCES_PU,L3_ACCES_L3; }"),
            "d:21: monitor R on PU is the ratio of L3_ACCES_PU on PU to L3_ACCES_L3 on L3: a "
            "ratio lives on the level of the monitors it reads");
  EXPECT_EQ(refused("R{ OBJ:=PU; PERF_LIB:=ratio; EVSET:=L3_ACCES_PU,nosuch; }"),
            "d:21: monitor R reads nosuch, which no monitor of the description is");
  EXPECT_EQ(refused("R{ OBJ:=L3; PERF_LIB:=rate; EVSET:=L3_ACCES_PU; }"),
            "d:21: monitor R on L3 is the rate of L3_ACCES_PU on PU: a rate lives on the level of "
            "the monitor it reads");
  EXPECT_EQ(refused("R{ OBJ:=PU; PERF_LIB:=rate; EVSET:=L3_ACCES_PU,L3_ACCES_L3; }"),
            "d:21: monitor R: a rate monitor reads one monitor (EVSET:=MONITOR)");
}

TEST(RegionSource, CountsEachRegionsIncreaseOnThePuOfItsThread) {
  const Fixture topology("24em64t-2n6c2t-pci.xml");
  std::vector<RegionProgress> progress = {{"solve", 0, 10, 2, 0.5, 100, 800},
                                          {"solve", 0, 11, 1, 0.25, 50, 400},
                                          {"solve", 3, 12, 4, 1.0, 0, 0},
                                          {"io", 3, 12, 1, 2.0, 0, 0}};
  RegionSource source([&] { return progress; });
  EXPECT_EQ(source.lacks("seconds:solve", HWLOC_OBJ_PU), "");
  EXPECT_NE(source.lacks("seconds:solve", HWLOC_OBJ_CORE), "");
  EXPECT_NE(source.lacks("seconds", HWLOC_OBJ_PU), "");
  EXPECT_NE(source.lacks("time:solve", HWLOC_OBJ_PU), "");
  EXPECT_NE(RegionSource().lacks("seconds:solve", HWLOC_OBJ_PU).find("larm_monitor_init"),
            std::string::npos);
  const std::string text =
      "r{ OBJ:=PU; PERF_LIB:=region; EVSET:=calls:solve,seconds:solve,flops:solve,"
      "bytes:solve,seconds:io; }\n"
      "m{ OBJ:=Machine; PERF_LIB:=accumulate; EVSET:=r; }\n";
  MonitorSet set(parse_description(text, "d"), topology.get(), {{"region", &source}}, "d");
  set.update();
  const MonitorInstance& pus = set.monitors()[0];
  const MonitorInstance& machine = set.monitors()[1];
  const auto at_pu = [&](unsigned os_index) {
    for (std::size_t o = 0; o < pus.objects.size(); ++o) {
      if (pus.objects[o]->os_index == os_index) return pus.values[o];
    }
    return std::vector<double>();
  };
  EXPECT_EQ(at_pu(0), (std::vector<double>{3, 0.75, 150, 1200, 0}));  // two threads on PU 0
  EXPECT_EQ(at_pu(3), (std::vector<double>{4, 1.0, 0, 0, 2.0}));
  EXPECT_EQ(at_pu(1), (std::vector<double>{0, 0, 0, 0, 0}));
  EXPECT_EQ(machine.values[0], (std::vector<double>{7, 1.75, 150, 1200, 2.0}));
  // The next update counts what was recorded since; a reset counts from there.
  progress[0].calls = 5;
  progress[0].bytes = 2000;
  progress[2].calls = 1;  // reset, then one call
  set.update();
  EXPECT_EQ(at_pu(0)[0], 3);
  EXPECT_EQ(at_pu(0)[3], 1200);
  EXPECT_EQ(at_pu(3)[0], 1);
  EXPECT_EQ(at_pu(3)[4], 0);
}

TEST(TraceJson, HoldsTheCsvRowsAndTheMonitorsAndFiguresDrawEachTracedMonitor) {
  const Fixture topology("24em64t-2n6c2t-pci.xml");
  FakePapi papi;
  MonitorSet set(parse_description(kFigure52, "fig5.2"), topology.get(), {{"papi", &papi}},
                 "fig5.2");
  const fs::path dir =
      fs::temp_directory_path() / ("larm-trace-json-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  {
    TraceWriter trace(dir / "trace.csv");
    for (int sample = 0; sample < 3; ++sample) {
      set.update();
      trace.write(0.1 * sample, set);
    }
    EXPECT_EQ(trace.rows(), 3u * (24 + 2 + 1));
  }
  TraceContext context;
  context.description = "fig5.2";
  context.period_seconds = 0.1;
  context.program = "test";
  write_trace_json(dir / "trace.csv", set, context, dir / "trace.json");
  std::ifstream in(dir / "trace.json");
  const nlohmann::json doc = nlohmann::json::parse(in);
  EXPECT_EQ(doc.at("format"), "larm-monitor-trace");
  ASSERT_EQ(doc.at("rows").size(), 3u * 27);
  EXPECT_EQ(doc.at("monitors").size(), 3u);
  EXPECT_EQ(doc.at("monitors")[1].at("objects").size(), 2u);
  const nlohmann::json& last = doc.at("rows").back();
  EXPECT_DOUBLE_EQ(last[0].get<double>(), 0.2);
  EXPECT_EQ(last[1], "L3_var");
  EXPECT_EQ(last[3], "Machine L#0");
  EXPECT_DOUBLE_EQ(last[5].get<double>(), set.monitors()[2].values[0][0]);

  const auto figures = larm::report::monitor_figures(dir / "trace.csv");
  ASSERT_EQ(figures.size(), 3u);
  EXPECT_EQ(figures[1].name, "monitor_L3_ACCES_L3");
  ASSERT_EQ(figures[1].data.size(), 1u);
  // One block per L3, each with the three samples.
  const std::string& data = figures[1].data[0].second;
  EXPECT_NE(data.find("# object L3 L#1"), std::string::npos);
  EXPECT_EQ(std::count(data.begin(), data.end(), '\n'), 1 + 2 * (1 + 3 + 2));
  EXPECT_THROW(larm::report::monitor_figures(dir / "trace.json"), std::runtime_error);
  fs::remove_all(dir);
}

}  // namespace

namespace {

// A trace.json by hand: region "solve" followed per PU (PUs 0 and 1 in domain 0, PU 7 in domain
// 1 of the four-domain fixture), and "io" with bytes only.
TEST(Trajectories, EachSampleGivesADomainsRegionPointOverItsInterval) {
  const fs::path dir =
      fs::temp_directory_path() / ("larm-trajectory-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  nlohmann::json doc = {
      {"format", "larm-monitor-trace"},
      {"schema_version", 1},
      {"description", "d"},
      {"program", "self"},
      {"time_zero", {{"clock", "CLOCK_MONOTONIC"}, {"seconds", 1.0}}},
      {"period_seconds", 0.5},
      {"monitors",
       {{{"name", "r"},
         {"level", "PU"},
         {"source", "region"},
         {"events", {"flops:solve", "bytes:solve", "bytes:io"}},
         {"reduction", "none"},
         {"output", true},
         {"objects", {"PU P#0", "PU P#1", "PU P#7"}},
         {"values", {"flops:solve", "bytes:solve", "bytes:io"}}}}},
      {"columns", {"time_s", "monitor", "level", "object", "value_name", "value"}},
      {"rows", nlohmann::json::array()}};
  const auto row = [&](double t, const char* object, const char* value, double v) {
    doc["rows"].push_back({t, "r", "PU", object, value, v});
  };
  row(0.5, "PU P#0", "flops:solve", 1e9);
  row(0.5, "PU P#1", "flops:solve", 1e9);
  row(0.5, "PU P#0", "bytes:solve", 4e9);
  row(0.5, "PU P#1", "bytes:solve", 4e9);
  row(0.5, "PU P#7", "flops:solve", 3e9);
  row(0.5, "PU P#7", "bytes:solve", 1e9);
  row(0.5, "PU P#0", "bytes:io", 1e9);
  row(1.5, "PU P#0", "flops:solve", 4e9);
  row(1.5, "PU P#0", "bytes:solve", 2e9);
  std::ofstream(dir / "trace.json") << doc.dump();
  const larm::results::Results results =
      larm::results::load_results(fs::path(LARM_SOURCE_DIR) / "tests/fixtures/broadwell-table42");
  const auto trajectories = larm::report::region_trajectories(dir, results);
  ASSERT_EQ(trajectories.points.size(), 3u);
  // Domain 0 at 0.5 s: PUs 0 and 1 summed, over the 0.5 s since time 0.
  EXPECT_EQ(trajectories.points[0].domain, 0);
  EXPECT_DOUBLE_EQ(trajectories.points[0].ai, 0.25);
  EXPECT_DOUBLE_EQ(trajectories.points[0].gflops, 4.0);
  EXPECT_EQ(trajectories.points[1].domain, 1);
  EXPECT_DOUBLE_EQ(trajectories.points[1].ai, 3.0);
  EXPECT_DOUBLE_EQ(trajectories.points[1].gflops, 6.0);
  // At 1.5 s: over the second since the previous sample.
  EXPECT_DOUBLE_EQ(trajectories.points[2].seconds, 1.5);
  EXPECT_DOUBLE_EQ(trajectories.points[2].ai, 2.0);
  EXPECT_DOUBLE_EQ(trajectories.points[2].gflops, 4.0);
  // io has bytes only: no trajectory, and nothing said (it is not a FLOP region).
  for (const auto& p : trajectories.points) EXPECT_EQ(p.region, "solve");
  // A trace that breaks its schema is refused with the file's name.
  doc["rows"].push_back({-1.0, "r", "PU", "PU P#0", "flops:solve", 1.0});
  std::ofstream(dir / "trace.json") << doc.dump();
  try {
    larm::report::region_trajectories(dir, results);
    ADD_FAILURE() << "a negative time accepted";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("trace.json"), std::string::npos) << e.what();
  }
  fs::remove_all(dir);
}

// The writer stops at what the reader takes: a trace.json within its bound, samples past it left
// out (and counted), never a trace larm cannot read back.
TEST(TraceWriter, StopsWhereTheReaderWould) {
  const Fixture topology("24em64t-2n6c2t-pci.xml");
  FakePapi papi;
  MonitorSet set(parse_description(kFigure52, "fig5.2"), topology.get(), {{"papi", &papi}},
                 "fig5.2");
  const fs::path dir =
      fs::temp_directory_path() / ("larm-trace-bound-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  constexpr std::uint64_t kBound = 64 << 10;
  std::uint64_t rows = 0;
  {
    TraceWriter trace(dir / "trace.csv", kBound);
    for (int sample = 0; sample < 2000; ++sample) {
      set.update();
      trace.write(0.01 * sample, set);
    }
    EXPECT_TRUE(trace.full());
    EXPECT_GT(trace.samples_left_out(), 0u);
    EXPECT_GT(trace.rows(), 0u);
    rows = trace.rows();
  }
  TraceContext context;
  context.description = "fig5.2";
  context.program = "test";
  write_trace_json(dir / "trace.csv", set, context, dir / "trace.json");
  EXPECT_LE(fs::file_size(dir / "trace.json"), kBound);
  const TraceSummary summary = read_trace_json(dir / "trace.json");
  EXPECT_EQ(summary.rows, rows);
  EXPECT_NO_THROW(check_trace_csv(dir / "trace.csv", summary));
  fs::remove_all(dir);
}

// Figures named after monitors whose names a file name cannot hold: none shares a file, none
// passes NAME_MAX.
TEST(MonitorFigures, NamesThatCollideOrRunLongGetFilesOfTheirOwn) {
  const fs::path dir =
      fs::temp_directory_path() / ("larm-figure-names-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  const std::vector<std::string> names = {"x.y", "x_y", "x:y", std::string(300, 'm'),
                                          std::string(300, 'm') + "2"};
  {
    std::ofstream csv(dir / "trace.csv");
    csv << "time_s,monitor,level,object,value_name,value\n";
    for (const std::string& n : names) csv << "0.1," << n << ",Machine,Machine L#0,v,1\n";
  }
  const auto figures = larm::report::monitor_figures(dir / "trace.csv");
  ASSERT_EQ(figures.size(), names.size());
  std::set<std::string> files;
  for (const auto& f : figures) {
    files.insert(f.name);
    EXPECT_LE(f.name.size() + 4, 255u) << f.name;  // with ".svg"
  }
  EXPECT_EQ(files.size(), names.size());
  EXPECT_EQ(figures[1].name, "monitor_x_y");  // a name that is a file name is kept as it is
  fs::remove_all(dir);
}

}  // namespace
