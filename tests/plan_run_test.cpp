// A run of a plan (characterize/characterize.h) over a fake Measurer: its decisions — passes in
// rotated order, adaptive samples, extra passes within the time budget, interference and
// placement states, --require-placement, interruption and resume from the journal — checked
// deterministically, without the hardware.
#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <functional>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "characterize/characterize.h"
#include "characterize/run_journal.h"
#include "codegen/isa.h"
#include "kernels/sampler.h"
#include "results/statistics.h"
#include "tests/schema_complete.h"
#include "tests/topology_fixture.h"

namespace larm::characterize {
namespace {

using larm::testing::load_fixture;

// What the fake gives a measurement's pass: its samples' one value.
using ValueOf = std::function<double(const PlannedMeasurement&, int call_of_this_measurement)>;

// Measures nothing: every pass of a roof or ceiling gets samples of value_of's value, a frequency
// 3e7 times it; machine-wide runs are recorded absent. Its clock advances 10 ms a sample.
class FakeMeasurer final : public Measurer {
 public:
  explicit FakeMeasurer(const topology::Topology& topology, ValueOf value_of)
      : topology_(topology), value_of_(std::move(value_of)) {}

  void measure(const PlannedMeasurement& m, int samples, std::uint64_t* repetitions,
               const results::Results& /*pooled*/, results::Results& out) override {
    if (interrupt_at && static_cast<int>(calls.size()) + 1 == *interrupt_at) {
      throw kernels::Interrupted();
    }
    calls.push_back(m.label());
    now_ += 0.01 * samples;
    *repetitions = 1000;
    const std::vector<double> values(static_cast<std::size_t>(samples),
                                     value_of_(m, passes_of_[m.label()]++));
    if (m.kind == MeasurementKind::frequency) {
      results::FrequencyRecord f;
      f.domain = m.domain;
      f.threads = static_cast<int>(m.pus.size());
      f.samples_hz = std::vector<double>(values.size(), 3e7 * values.front());
      f.stats = results::summarize(f.samples_hz);
      out.frequency.push_back(f);
      return;
    }
    if (m.domain < 0 ||
        (m.kind != MeasurementKind::bandwidth && m.kind != MeasurementKind::flops)) {
      record_absent(topology_, m, "not faked", out);
      return;
    }
    results::Roof roof = roof_base(topology_, m);
    roof.samples = values;
    roof.stats = results::summarize(roof.samples);
    roof.roof = results::estimate(roof.samples, Estimator::p90);
    if (interfered && interfered(m))
      roof.interference = {.samples = 1, .kept = 0, .reason = "fake"};
    roof.status = misplaced && misplaced(m)
                      ? Status::misplaced
                      : results::sampled_status(roof.stats, roof.interference, 0.10);
    out.roofs.push_back(roof);
  }

  bool probes_placement() const override { return static_cast<bool>(state_at); }

  std::optional<PlacementProbe> placement_now() override {
    if (!state_at) return std::nullopt;
    PlacementProbe probe;
    PlacementPair pair;
    pair.pu_b = 1;
    pair.one_way_ns = 50;
    pair.declared = "L3";
    pair.declared_cache = true;
    if (state_at(probes_++)) {
      pair.one_way_ns = 250;
      pair.far = true;
      pair.apart_now = true;
    }
    probe.pairs = {pair};
    probe.seconds = 0.001;
    return probe;
  }

  double seconds() const override { return now_; }

  std::vector<std::string> calls;
  std::optional<int> interrupt_at;                            // the call that is stopped
  std::function<bool(const PlannedMeasurement&)> misplaced;   // none: every page in place
  std::function<bool(const PlannedMeasurement&)> interfered;  // none: no interference
  std::function<bool(int probe)> state_at;                    // far when true; none: no probes

 private:
  const topology::Topology& topology_;
  ValueOf value_of_;
  std::map<std::string, int> passes_of_;
  int probes_ = 0;
  double now_ = 1000;
};

// A small plan: each domain's frequency and FLOP ceilings of this build's baseline ISA (SSE2 on
// x86-64, whose FMAs are absent; NEON on AArch64).
Plan small_plan(const topology::Topology& t, int samples, int passes) {
  PlanOptions o = default_plan_options(true);
  o.isa = codegen::isa_family().front();
  o.flop_isas = {o.isa};
  o.only = {MeasurementKind::flops};
  o.samples = samples;
  o.passes = passes;
  return make_plan(t, o);
}

RunOptions run_options(int samples, int passes) {
  RunOptions o;
  o.sampling.samples = samples;
  o.passes = passes;
  return o;
}

// Each measurement's value, different in every pass by `spread` (0: the same every pass).
ValueOf values(double spread) {
  return [spread](const PlannedMeasurement& m, int call) {
    const double base = 10.0 + static_cast<double>(std::hash<std::string>{}(m.label()) % 90);
    return base * (1 + spread * (call % 2));
  };
}

// The measurements a run of the plan makes, in order, when every pass runs: pass p starts p /
// passes of the plan further on; absent measurements are not measured.
std::vector<std::string> every_pass(const Plan& plan, int passes) {
  std::vector<std::string> calls;
  const std::size_t count = plan.measurements.size();
  for (int pass = 0; pass < passes; ++pass) {
    const std::size_t offset = count * static_cast<std::size_t>(pass) / passes;
    for (std::size_t k = 0; k < count; ++k) {
      const PlannedMeasurement& m = plan.measurements[(k + offset) % count];
      if (m.absent_reason.empty()) calls.push_back(m.label());
    }
  }
  return calls;
}

const topology::Topology& node() {
  static const topology::Topology t = load_fixture("24em64t-2n6c2t-pci.xml");
  return t;
}

TEST(PlanRun, PassesRotateAndEachTakesItsShareOfTheSamples) {
  const Plan plan = small_plan(node(), 6, 3);
  ASSERT_GT(plan.measurements.size(), 8u);
  FakeMeasurer fake(node(), values(0.5));  // passes disagree: none is skipped
  results::Results results;
  ASSERT_EQ(run_plan(node(), plan, fake, run_options(6, 3), results), RunOutcome::complete);
  EXPECT_EQ(fake.calls, every_pass(plan, 3));
  EXPECT_TRUE(results.complete);
  for (const results::Roof& roof : results.roofs) {
    if (roof.status != Status::absent) {
      EXPECT_EQ(roof.samples.size(), 6u) << roof.domain;
    }
  }
}

TEST(PlanRun, TightIntervalsSaveTheLaterPasses) {
  const Plan plan = small_plan(node(), 6, 3);
  FakeMeasurer fake(node(), values(0));  // every pass the same: tight after two
  results::Results results;
  ASSERT_EQ(run_plan(node(), plan, fake, run_options(6, 3), results), RunOutcome::complete);
  const std::size_t all = every_pass(plan, 3).size();
  EXPECT_EQ(fake.calls.size(), all * 2 / 3);  // the third pass of each is saved
  ASSERT_TRUE(results.provenance.passes_saved_by_tight_intervals);
  EXPECT_EQ(static_cast<std::size_t>(*results.provenance.passes_saved_by_tight_intervals), all / 3);
}

TEST(PlanRun, DisagreeingPassesGetExtraPassesWithinTheBudgetOnly) {
  const Plan plan = small_plan(node(), 4, 2);
  const std::size_t regular = every_pass(plan, 2).size();
  RunOptions options = run_options(4, 2);
  {
    FakeMeasurer fake(node(), values(0.3));
    results::Results results;
    run_plan(node(), plan, fake, options, results);  // max_seconds 0: no extra pass
    EXPECT_EQ(fake.calls.size(), regular);
  }
  options.max_seconds = 1e6;
  FakeMeasurer generous(node(), values(0.3));
  results::Results results;
  ASSERT_EQ(run_plan(node(), plan, generous, options, results), RunOutcome::complete);
  EXPECT_GT(generous.calls.size(), regular);
  EXPECT_EQ(*results.provenance.extra_passes, static_cast<long>(generous.calls.size() - regular));
  // A budget the regular passes use up (each call takes 20 ms of the fake's clock) leaves none.
  options.max_seconds = 0.01 * static_cast<double>(regular);
  FakeMeasurer tight(node(), values(0.3));
  results::Results again;
  run_plan(node(), plan, tight, options, again);
  EXPECT_EQ(tight.calls.size(), regular);
}

TEST(PlanRun, InterferedSamplesAreSaidOnceForTheRun) {
  const Plan plan = small_plan(node(), 4, 2);
  FakeMeasurer fake(node(), values(0.2));
  fake.interfered = [](const PlannedMeasurement& m) { return m.kind == MeasurementKind::flops; };
  results::Results results;
  run_plan(node(), plan, fake, run_options(4, 2), results);
  int said = 0;
  for (const std::string& w : results.warnings)
    said += w.find("interfered with") != std::string::npos;
  EXPECT_EQ(said, 1);
}

TEST(PlanRun, AHostThatMovesTheCoresSplitsTheRunIntoPlacementStates) {
  const Plan plan = small_plan(node(), 4, 2);
  FakeMeasurer fake(node(), values(0.2));
  fake.state_at = [](int probe) { return probe >= 1; };  // near at the first probe, far after
  results::Results results;
  ASSERT_EQ(run_plan(node(), plan, fake, run_options(4, 2), results), RunOutcome::complete);
  ASSERT_TRUE(results.provenance.placement_states);
  std::set<std::string> states;
  for (const auto& seen : *results.provenance.placement_states) states.insert(seen.state);
  EXPECT_EQ(states.size(), 2u);
  EXPECT_TRUE(states.count("near"));
}

TEST(PlanRun, RequirePlacementStopsAtTheFirstMisplacedMeasurement) {
  const Plan plan = small_plan(node(), 4, 2);
  FakeMeasurer fake(node(), values(0.2));
  fake.misplaced = [](const PlannedMeasurement& m) {
    return m.kind == MeasurementKind::flops && m.domain == 1;
  };
  RunOptions options = run_options(4, 2);
  options.require_placement = true;
  results::Results results;
  EXPECT_EQ(run_plan(node(), plan, fake, options, results), RunOutcome::misplaced);
  EXPECT_FALSE(results.complete);
  EXPECT_NE(results.incomplete_reason.find("--require-placement"), std::string::npos);
}

class PlanRunJournal : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() /
           ("larm-plan-run-" + std::to_string(::getpid()) + "-" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::remove_all(dir_);
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }
  nlohmann::json header() const {
    return {{"plan", nlohmann::json::object()},
            {"provenance", larm::testing::complete_provenance()},
            {"topology", to_json(node().record())},
            {"warnings", nlohmann::json::array()}};
  }
  std::filesystem::path dir_;
};

TEST_F(PlanRunJournal, AnInterruptedRunResumesWithoutRemakingWhatItKept) {
  const Plan plan = small_plan(node(), 4, 2);
  RunOptions options = run_options(4, 2);
  results::Results whole;
  {
    FakeMeasurer fake(node(), values(0.2));
    run_plan(node(), plan, fake, options, whole);
  }
  const int total = static_cast<int>(every_pass(plan, 2).size());
  {
    RunJournal journal = RunJournal::create(dir_, header());
    options.journal = &journal;
    FakeMeasurer fake(node(), values(0.2));
    fake.interrupt_at = 6;
    results::Results partial;
    EXPECT_EQ(run_plan(node(), plan, fake, options, partial), RunOutcome::interrupted);
    EXPECT_FALSE(partial.complete);
    EXPECT_NE(partial.incomplete_reason.find("interrupted"), std::string::npos);
    EXPECT_EQ(fake.calls.size(), 5u);
  }
  RunJournal journal = RunJournal::open(dir_);
  // The five measured, and any absent ones (SSE2's FMAs) recorded before the interruption.
  const std::size_t kept = journal.kept();
  EXPECT_GE(kept, 5u);
  options.journal = &journal;
  FakeMeasurer fake(node(), values(0.2));
  results::Results resumed;
  ASSERT_EQ(run_plan(node(), plan, fake, options, resumed), RunOutcome::complete);
  EXPECT_EQ(static_cast<int>(fake.calls.size()), total - 5);  // the five measured not remade
  ASSERT_TRUE(resumed.provenance.resumed);
  EXPECT_EQ(resumed.provenance.resumed->back().runs_kept, static_cast<long>(kept));
  ASSERT_EQ(resumed.roofs.size(), whole.roofs.size());
  for (std::size_t r = 0; r < whole.roofs.size(); ++r) {
    EXPECT_EQ(resumed.roofs[r].samples.size(), whole.roofs[r].samples.size()) << r;
  }
}

}  // namespace
}  // namespace larm::characterize
