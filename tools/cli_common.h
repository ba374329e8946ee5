// What the subcommands share: global options, the usage-error channel, option parsing helpers.
#pragma once

#include <CLI/CLI.hpp>

#include <atomic>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "characterize/characterize_node.h"
#include "characterize/plan.h"
#include "report/plot_set.h"
#include "results/fleet_records.h"
#include "results/output_claim.h"
#include "results/records.h"
#include "results/region_records.h"
#include "topology/topology.h"

namespace larm::cli {

// Bad input: printed as one line "larm: error: ..." with exit status 2.
class UsageError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct GlobalOptions {
  std::string topology_file;  // --topology: a saved hwloc XML instead of this machine
  bool quiet = false;
};

// --topology and --quiet, which every subcommand accepts.
void add_global_options(CLI::App& command, GlobalOptions& global);

// The live machine, or the XML file given with --topology.
topology::Topology load_topology(const GlobalOptions& global);

// Options that choose what a characterization measures (shared by characterize and plan).
struct MeasurementOptions {
  bool quick = false;
  std::string isa;      // empty: the widest usable
  std::string domains;  // e.g. "0,2-3"; empty: all
  std::string only;     // e.g. "bandwidth,flops"; empty: all
  std::optional<int> samples;
  std::optional<int> passes;
  bool sweep_every_domain = false;  // no twin domains (characterize/twin_domains.h)
};

void add_measurement_options(CLI::App& command, MeasurementOptions& options);

// --estimator (p90 or median) into `estimator`; `value` says what it gives a value to.
void add_estimator_option(CLI::App& command, std::string& estimator, const std::string& value);

// What else characterize and fleet share: placement check, estimator, time budget.
struct RunChoices {
  bool require_placement = false;
  std::string estimator = "p90";
  std::optional<double> max_time;
};
void add_run_choices(CLI::App& command, RunChoices& choices);
// The run options of a characterization from the choices (plan, placement check, estimator,
// time budget); callbacks and the stop flag are the caller's.
characterize::CharacterizeOptions make_characterize_options(const MeasurementOptions& measurement,
                                                            const RunChoices& choices,
                                                            const topology::Topology& topology);

// Checks of number options, with short messages (CLI11's PositiveNumber prints DBL_MAX in full).
// NaN fails both; refuse_empty_values (command_line.h) also refuses NaN and infinities in every
// number option, with or without these.
CLI::Validator number_above_zero_up_to(double max);
// text as a number when all of it is one (strtod: "nan" and "inf" too), else nullopt.
std::optional<double> whole_number(const std::string& text);
CLI::Validator number_between(double low, double high);

// A duration as progress lines write it: 75.4 -> "1:15".
std::string minutes_text(double seconds);

// Validates the options against the topology; throws UsageError naming the bad value. For a
// saved topology (planning another machine) every ISA up to --isa is planned.
characterize::PlanOptions make_plan_options(const MeasurementOptions& options,
                                            const topology::Topology& topology);

// The value of a word option that CLI11 has already checked against the vocabulary's words.
template <VocabularyWord E>
E parse_word(const std::string& text) {
  const std::optional<E> value = parse<E>(text);
  if (!value) {
    throw UsageError("unknown " + std::string(Vocabulary<E>::what) + " '" + text + "' (" +
                     word_list<E>() + ")");
  }
  return *value;
}

// --access (an access mix of the bandwidth roofs) and --precision (sp, dp), shared by the
// commands that read roofs.
void add_access_option(CLI::App& command, std::string& access, const std::string& help);
void add_precision_option(CLI::App& command, std::string& precision, const std::string& help);

// While alive, the first Ctrl-C sets the stop flag (measurements stop between samples and save
// what they finished) and a second one ends the process at once; the previous SIGINT handler is
// restored on destruction. One at a time.
class InterruptGuard {
 public:
  // also_terminate: SIGTERM too (larm fleet: mpirun and Slurm end ranks with it on Ctrl-C).
  explicit InterruptGuard(bool also_terminate = false);
  ~InterruptGuard();
  InterruptGuard(const InterruptGuard&) = delete;
  InterruptGuard& operator=(const InterruptGuard&) = delete;
  const std::atomic<bool>* stop_flag() const;

 private:
  void (*previous_)(int);
  void (*previous_terminate_)(int) = nullptr;
  bool also_terminate_ = false;
};

// After a Ctrl-C stopped larm plot or report: says which figures were drawn and that the others
// were left as they were (no page written); returns 130, the exit status of an interrupted run.
int report_interrupted_drawing(const report::PlotOutcome& outcome,
                               const std::filesystem::path& figures_dir);

// Claims dir, the output directory of this run (created if needed), until the claim is destroyed;
// UsageError when another larm run holds it or it cannot be written. what: "larm characterize".
results::OutputClaim claim_output(const std::filesystem::path& dir, const std::string& what);

// The fleet of a directory (or its fleet.json); throws UsageError naming the problem.
fleet::Fleet load_fleet_argument(const std::string& dir_or_file);
// The fleet directory of a directory or of its fleet.json.
std::filesystem::path fleet_directory(const std::string& dir_or_file);

// The results of a directory (or its results.json); throws UsageError naming the problem.
results::Results load_results_argument(const std::string& dir_or_file);

// The RESULTS and REGIONS... positional arguments of the commands that read regions (place,
// advise).
void add_results_and_regions_arguments(CLI::App& command, std::string& results_dir,
                                       std::vector<std::string>& region_files);

// A regions.json of liblarm (or a directory holding one), parsed; throws UsageError when it is
// missing or not JSON.
nlohmann::json read_regions_file(const std::string& file_or_dir);

// --counts FILE,...: count runs of larm count whose exact counts the timed regions files take:
// one for every regions file, or one per regions file in the same order.
void add_counts_option(CLI::App& command, std::vector<std::string>& counts_files);
// The count run that goes with the index-th of `files` regions files ("" for none); throws
// UsageError when the numbers do not match.
std::string counts_for(const std::vector<std::string>& counts_files, std::size_t index,
                       std::size_t files);
// A regions file to place: with the counts of counts_file when one is given (paired by region
// name; one line per region printed on stdout says how), and a count run given alone refused
// (its times are Valgrind's). Throws UsageError naming the problem.
regions::RegionsFile load_regions(const std::string& file_or_dir, const std::string& counts_file);

// "0,2-4" -> {0,2,3,4}; throws UsageError on anything else.
std::vector<int> parse_index_list(const std::string& text, const std::string& what);

// Refuses (UsageError) an output file that could not be written, before any work is done.
void check_output_file(const std::string& file);

}  // namespace larm::cli
