// A characterization from the plan to the saved results.
#include "characterize/characterize_node.h"

#include <algorithm>
#include <climits>
#include <cmath>
#include <stdexcept>

#include "characterize/llc_probe.h"
#include "characterize/run_journal.h"
#include "platform/cpu_info.h"
#include "results/number_text.h"
#include "results/run_history.h"
#include "results/statistics.h"
#include "results/store.h"

namespace larm::characterize {

namespace {

// Each roof's interval for another run (results/roof_interval.h): widened by the larger of the
// run-to-run errors the doctor measured before and after the run, and by what the roof did over
// this machine's earlier runs (results/run_history.h): to the range it took, to its value x
// (1 +- that range's largest deviation from its median), and to the 95 % prediction interval of
// those runs' values and this one's. The run then joins the history.
void add_next_run_intervals(const MachineState& after, results::Results& results) {
  const double before = results.provenance.expected_error_before().value_or(after.expected_error);
  const double doctor = std::max(before, after.expected_error);
  results.provenance.machine_state_after = after.values;
  results.provenance.between_run_error = doctor;
  const auto path = results::history_path();
  const std::string machine = results::machine_key(results);
  std::vector<std::map<std::string, double>> history;
  if (path) {
    try {
      history = results::read_history(*path, machine);
    } catch (const std::exception& e) {
      results.warnings.push_back(std::string("run history not used: ") + e.what());
    }
  }
  results.provenance.history_runs = static_cast<long>(history.size());
  int left_out = 0;
  for (results::Roof& roof : results.roofs) {
    if (!roof.interval || !roof.present()) continue;
    // A roof measured in a known placement state learns from that state's runs only: the other
    // state's would widen it across both.
    const auto state = results::placement_state(results, roof);
    const std::string key = results::roof_key(roof);
    const auto range = results::history_range(
        history, state ? results::state_key(key, *state) : key, roof.roof, &left_out);
    std::optional<results::SeenRange> seen;
    if (range) {
      seen = range->seen;
      std::vector<double> values = range->values;
      values.push_back(roof.roof);
      if (const auto predicted = results::prediction_interval(values)) {
        seen->low = std::min(seen->low, predicted->low);
        seen->high = std::max(seen->high, predicted->high);
      }
    }
    roof.interval->next_run = results::next_run_interval(
        *roof.interval, roof.roof, std::max(doctor, range ? range->spread : 0.0), seen);
  }
  if (left_out > 0) {
    results.warnings.push_back(
        "run history: " + std::to_string(left_out) + " earlier values more than " +
        results::fixed_text(results::kHistoryFactor, 0) +
        "x away from this run's left out (another machine's, or not larm's)");
  }
  if (!path) return;
  try {
    results::append_history(*path, machine, results);
  } catch (const std::exception& e) {
    results.warnings.push_back(std::string("run history not kept: ") + e.what());
  }
}

// The run of a plan into results saved in out, a new run or a resumed one.
RunOutcome run_node(const topology::Topology& topology, const platform::Clock& clock,
                    const Plan& plan, const CharacterizeOptions& options, RunJournal& journal,
                    const std::filesystem::path& out, results::Results& results) {
  const platform::CpuInfo cpu = platform::read_cpu_info();
  RunOptions run;
  run.sampling.samples = options.plan.samples;
  run.sampling.min_sample_seconds = options.plan.min_sample_seconds;
  run.sampling.stop = options.stop;
  run.require_placement = options.require_placement;
  run.estimator = options.estimator;
  run.passes = options.plan.passes;
  // Extra passes take at most the plan's estimate again; a quick run takes none unless --max-time
  // asks (its promise is its length: 8-26 extra measurement runs in three quiet quick runs here).
  const double budget = options.plan.quick ? 0 : 2 * plan.estimated_seconds;
  run.max_seconds = options.max_seconds > 0 ? options.max_seconds : budget;
  run.on_progress = options.on_progress;
  run.journal = &journal;
  // Saves while running at most once a second; the final save follows the run.
  results::SaveThrottle throttle;
  run.on_measurement = [&](const results::Results& so_far) {
    if (throttle.due()) results::save_results(out, so_far);
  };
  results.incomplete_reason.clear();
  const RunOutcome outcome = run_plan(topology, plan, clock, cpu, run, results);
  if (outcome == RunOutcome::complete && topology.is_this_system()) {
    add_next_run_intervals(examine_machine(clock, kShortDoctorSeconds, &topology), results);
  }
  results::save_results(out, results);
  return outcome;
}

}  // namespace

RunOutcome characterize_node(const topology::Topology& topology, const platform::Clock& clock,
                             const CharacterizeOptions& asked, const std::filesystem::path& out,
                             results::Results& results) {
  const platform::CpuInfo cpu = platform::read_cpu_info();
  CharacterizeOptions options = asked;
  results.provenance = make_provenance(topology, clock, cpu, options.plan.isa, options.plan.quick,
                                       options.plan.samples);
  results.provenance.roof_estimator = options.estimator;
  results.provenance.passes = options.plan.passes;
  results.topology = topology.record();
  for (const std::string& warning : *results.provenance.environment_warnings) {
    results.warnings.push_back(warning);
  }
  if (topology.memories().size() < 2) {
    results.warnings.push_back(
        "single NUMA node: remote, contention and congestion roofs cannot be measured here and "
        "are absent");
  }
  // How quiet the machine is before the run: the first lines of the output, and provenance.
  MachineState state = examine_machine(
      clock, options.plan.quick ? kShortDoctorSeconds : kDoctorSecondsBefore, &topology);
  if (topology.is_this_system()) {
    // What the caches really hold prices the plan (its estimate, the default --max-time).
    const UsableLlc llc = probe_usable_llc(topology, clock, options.plan.isa);
    price_with(llc, options.plan);
    state.values["usable_llc"] = {
        {"declared_bytes", llc.declared_bytes},
        {"usable_bytes",
         llc.usable_bytes ? nlohmann::json(*llc.usable_bytes) : nlohmann::json(nullptr)},
        {"fraction", llc.fraction},
        {"probe_bytes_gbps", llc.points}};
    state.lines.push_back("last-level cache: " + llc.summary);
  }
  const Plan plan = make_plan(topology, options.plan);
  // The progress counter counts runs: each measurement once per pass, a sweep's points once;
  // fewer as the sweeps stop at memory's plateau, more where a pass is repeated.
  const int passes = std::max(1, options.plan.passes);
  int runs = 0;
  for (const PlannedMeasurement& m : plan.measurements) {
    runs += first_pass_only(m.kind) ? 1 : passes;
  }
  state.lines.push_back("plan: " + std::to_string(plan.to_run) + " measurements in " +
                        std::to_string(passes) + " passes, about " + std::to_string(runs) +
                        " runs, estimated " +
                        std::to_string(static_cast<int>(plan.total_seconds() + 0.5)) + " s");
  results.provenance.machine_state = state.values;
  if (options.on_machine_state) options.on_machine_state(state);
  if (state.verdict != "quiet") {
    results.warnings.push_back("the machine is " + state.verdict +
                               " (larm doctor): expect runs to differ by about " +
                               results::percent_text(state.expected_error));
  }
  results.incomplete_reason = "running";
  results::save_results(out, results);
  RunJournal journal = RunJournal::create(out, {{"plan", options_json(options)},
                                                {"provenance", to_json(results.provenance)},
                                                {"topology", to_json(results.topology)},
                                                {"warnings", results.warnings}});
  return run_node(topology, clock, plan, options, journal, out, results);
}

InterruptedRun read_interrupted_run(const topology::Topology& topology,
                                    const std::filesystem::path& out) {
  RunJournal journal = RunJournal::open(out);
  const nlohmann::json header = journal.header();
  const auto fail = [&](const std::string& why) -> void {
    throw JournalError((out / kJournalFile).string() + ": " + why);
  };
  InterruptedRun run{std::move(journal), {}, {}};
  run.start.provenance = results::provenance_from_json(header.at("provenance"));
  run.start.topology = results::topology_from_json(header.at("topology"));
  if (results::identity_json(run.start.topology) != results::identity_json(topology.record())) {
    fail(
        "measured on another machine than this one (its CPUs, caches or memories differ): it "
        "can only be resumed where it started");
  }
  try {
    run.options = options_from_json(header.at("plan"));
  } catch (const std::exception& e) {
    fail(std::string("its plan is not one larm makes: ") + e.what());
  }
  if (const std::string problem = plan_options_problem(run.options.plan, topology);
      !problem.empty()) {
    fail("its plan is not one larm makes here: " + problem);
  }
  // The doctor's run-to-run error before the run widens every interval: a relative error, of
  // which a machine in any state larm runs on gives well under 10 (1000 %).
  if (const auto before = run.start.provenance.expected_error_before();
      before && !(*before >= 0 && *before <= 10)) {
    fail("its machine state's expected error is no relative error (0 to 10)");
  }
  run.start.warnings = header.at("warnings").get<std::vector<std::string>>();
  return run;
}

RunOutcome resume_node(const topology::Topology& topology, const platform::Clock& clock,
                       InterruptedRun& interrupted, const CharacterizeOptions& callbacks,
                       const std::filesystem::path& out, results::Results& results) {
  CharacterizeOptions options = interrupted.options;
  options.stop = callbacks.stop;
  options.on_progress = callbacks.on_progress;
  options.on_machine_state = callbacks.on_machine_state;
  results = interrupted.start;
  const Plan plan = make_plan(topology, options.plan);
  return run_node(topology, clock, plan, options, interrupted.journal, out, results);
}

nlohmann::json options_json(const CharacterizeOptions& o) {
  nlohmann::json isas = nlohmann::json::array(), only = nlohmann::json::array();
  for (Isa isa : o.plan.flop_isas) isas.push_back(name(isa));
  for (MeasurementKind kind : o.plan.only) only.push_back(name(kind));
  return {{"quick", o.plan.quick},
          {"samples", o.plan.samples},
          {"passes", o.plan.passes},
          {"min_sample_seconds", o.plan.min_sample_seconds},
          {"isa", name(o.plan.isa)},
          {"flop_isas", isas},
          {"domains", o.plan.domains},
          {"only", only},
          {"sweep_points_per_octave", o.plan.sweep_points_per_octave},
          {"usable_llc_fraction", o.plan.usable_llc_fraction},
          {"sweep_every_domain", o.plan.sweep_every_domain},
          {"require_placement", o.require_placement},
          {"estimator", name(o.estimator)},
          {"max_seconds", o.max_seconds}};
}

CharacterizeOptions options_from_json(const nlohmann::json& j) {
  const auto word = [](auto parsed, const std::string& text) {
    if (!parsed) throw std::runtime_error("the journal names an unknown word: " + text);
    return *parsed;
  };
  // Whole numbers read as doubles and checked before any conversion: a count beyond int's range
  // is refused, not wrapped.
  const auto whole = [](const nlohmann::json& value, const char* what) {
    const double number = value.get<double>();
    if (!(number >= INT_MIN && number <= INT_MAX) || number != std::floor(number)) {
      throw std::runtime_error(std::string(what) + " out of range");
    }
    return static_cast<int>(number);
  };
  CharacterizeOptions o;
  o.plan.quick = j.at("quick").get<bool>();
  o.plan.samples = whole(j.at("samples"), "samples");
  o.plan.passes = whole(j.at("passes"), "passes");
  o.plan.min_sample_seconds = j.at("min_sample_seconds").get<double>();
  const std::string isa = j.at("isa").get<std::string>();
  o.plan.isa = word(parse<Isa>(isa), isa);
  for (const auto& text : j.at("flop_isas")) {
    o.plan.flop_isas.push_back(word(parse<Isa>(text.get<std::string>()), text.get<std::string>()));
  }
  for (const auto& d : j.at("domains")) o.plan.domains.push_back(whole(d, "domain"));
  for (const auto& text : j.at("only")) {
    o.plan.only.insert(
        word(parse_measurement_kind(text.get<std::string>()), text.get<std::string>()));
  }
  o.plan.sweep_points_per_octave = whole(j.at("sweep_points_per_octave"), "sweep points");
  o.plan.usable_llc_fraction = j.value("usable_llc_fraction", 1.0);
  // Journals from before twin domains swept every domain.
  o.plan.sweep_every_domain = j.value("sweep_every_domain", true);
  o.require_placement = j.at("require_placement").get<bool>();
  const std::string estimator = j.at("estimator").get<std::string>();
  o.estimator = word(parse<Estimator>(estimator), estimator);
  o.max_seconds = j.at("max_seconds").get<double>();
  if (!(o.max_seconds >= 0 && o.max_seconds <= kMaxRunSeconds)) {
    throw std::runtime_error("max_seconds out of range");
  }
  return o;
}

}  // namespace larm::characterize
