// Shared option handling of the subcommands.
#include "tools/cli_common.h"

#include <filesystem>
#include <fstream>

#include <algorithm>
#include <charconv>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <set>
#include <sstream>

#include "codegen/isa.h"
#include "results/atomic_file.h"
#include "results/input_file.h"
#include "results/number_text.h"
#include "results/region_pairing.h"
#include "results/store.h"

namespace larm::cli {
namespace {

int parse_int(const std::string& text, const std::string& what) {
  int value = 0;
  const char* end = text.data() + text.size();
  auto [ptr, ec] = std::from_chars(text.data(), end, value);
  if (ec != std::errc() || ptr != end || value < 0) {
    throw UsageError("bad " + what + " '" + text + "': expected a non-negative integer");
  }
  return value;
}

std::vector<std::string> split(const std::string& text, char separator) {
  std::vector<std::string> parts;
  std::stringstream in(text);
  std::string part;
  while (std::getline(in, part, separator)) parts.push_back(part);
  if (!text.empty() && text.back() == separator) parts.push_back("");
  return parts;
}

}  // namespace

void add_global_options(CLI::App& command, GlobalOptions& global) {
  command.add_option(
      "--topology", global.topology_file,
      "work on a saved hwloc XML topology instead of this machine (planning, tests)");
  command.add_flag("--quiet,-q", global.quiet, "no progress and no summary, errors only");
}

topology::Topology load_topology(const GlobalOptions& global) {
  try {
    return global.topology_file.empty() ? topology::Topology::load_live()
                                        : topology::Topology::load_xml(global.topology_file);
  } catch (const std::runtime_error& e) {
    throw UsageError(e.what());
  }
}

std::vector<int> parse_index_list(const std::string& text, const std::string& what) {
  std::set<int> values;
  for (const std::string& part : split(text, ',')) {
    if (part.empty()) throw UsageError("bad " + what + " list '" + text + "': empty element");
    const auto dash = part.find('-');
    if (dash == std::string::npos) {
      values.insert(parse_int(part, what));
      continue;
    }
    const int first = parse_int(part.substr(0, dash), what);
    const int last = parse_int(part.substr(dash + 1), what);
    if (last < first) throw UsageError("bad " + what + " range '" + part + "'");
    // Checked before the range is expanded: 0-2147483647 would take minutes and gigabytes.
    if (last > static_cast<int>(results::kMaxIndex)) {
      throw UsageError("bad " + what + " range '" + part + "': no " + what + " is numbered above " +
                       std::to_string(results::kMaxIndex));
    }
    for (int v = first; v <= last; ++v) values.insert(v);
  }
  return {values.begin(), values.end()};
}

void add_measurement_options(CLI::App& command, MeasurementOptions& options) {
  command.add_flag("--quick", options.quick,
                   "fewer samples (5), shorter samples (10 ms), coarser size sweep");
  std::string isas = codegen::isa_names();  // "sse2, avx, avx2, avx512" -> "... avx2 or avx512"
  if (const auto last = isas.rfind(", "); last != std::string::npos) isas.replace(last, 2, " or ");
  command.add_option("--isa", options.isa,
                     "ISA of the kernels: " + isas +
                         " (default: the widest usable); FLOP ceilings are measured for every "
                         "usable ISA up to it");
  command.add_option("--domains", options.domains, "domains to measure, e.g. 0,2-3 (default: all)");
  command.add_option(
      "--only", options.only,
      "kinds of measurement: capacity, bandwidth, flops, sweep, latency (comma list)");
  command.add_option("--samples", options.samples, "samples per measurement (default 11, quick 5)");
  command.add_option("--passes", options.passes,
                     "interleaved passes over the plan, each taking its share of every "
                     "measurement's samples (default 3, quick 2)");
  command.add_flag("--sweep-every-domain", options.sweep_every_domain,
                   "run the size sweeps on every domain (default: once per kind of domain, the "
                   "others, with the same cores and caches, sized from it)");
}

void add_estimator_option(CLI::App& command, std::string& estimator, const std::string& value) {
  command
      .add_option("--estimator", estimator,
                  value +
                      " from its samples: p90 (default; the 90th percentile, stable across "
                      "runs on shared machines) or median (the thesis')")
      ->check(CLI::IsMember(words<Estimator>()));
}

characterize::PlanOptions make_plan_options(const MeasurementOptions& options,
                                            const topology::Topology& topology) {
  characterize::PlanOptions plan = characterize::default_plan_options(options.quick);
  const bool live = topology.is_this_system();

  // Another machine's topology: the widest kernels this build generates.
  larm::Isa isa = codegen::widest_isa();
  if (!options.isa.empty()) {
    const auto parsed = codegen::parse_isa(options.isa);
    if (!parsed) {
      throw UsageError("unknown ISA '" + options.isa + "' (" + codegen::isa_names() + ")");
    }
    isa = *parsed;
    if (live && !codegen::usable(isa)) throw UsageError(codegen::unusable_reason(isa));
  } else if (live) {
    isa = codegen::widest_usable_isa();
  }
  plan.isa = isa;
  for (larm::Isa candidate : codegen::isa_family()) {
    if (codegen::covers(isa, candidate) && (!live || codegen::usable(candidate)))
      plan.flop_isas.push_back(candidate);
  }

  plan.sweep_every_domain = options.sweep_every_domain;
  if (!options.domains.empty()) {
    plan.domains = parse_index_list(options.domains, "domain");
    const int count = static_cast<int>(topology.domains().size());
    for (int d : plan.domains) {
      if (d >= count) {
        throw UsageError("domain " + std::to_string(d) + " does not exist (this topology has " +
                         std::to_string(count) + ": 0-" + std::to_string(count - 1) + ")");
      }
    }
  }
  if (!options.only.empty()) {
    for (const std::string& part : split(options.only, ',')) {
      const auto kind = characterize::parse_measurement_kind(part);
      if (!kind || *kind == characterize::MeasurementKind::frequency) {
        throw UsageError("unknown measurement kind '" + part +
                         "' in --only (capacity, bandwidth, flops, sweep, latency)");
      }
      plan.only.insert(*kind);
    }
  }
  if (options.samples) {
    if (*options.samples < 1) {
      throw UsageError("--samples must be at least 1 (got " + std::to_string(*options.samples) +
                       ")");
    }
    plan.samples = *options.samples;
  }
  if (options.passes) {
    if (*options.passes < 1 || *options.passes > plan.samples) {
      throw UsageError("--passes must be between 1 and the samples (" +
                       std::to_string(plan.samples) + "), got " + std::to_string(*options.passes));
    }
    plan.passes = *options.passes;
  }
  return plan;
}

void add_run_choices(CLI::App& command, RunChoices& choices) {
  command.add_flag("--require-placement", choices.require_placement,
                   "stop with an error when a measurement's pages are not on the intended memory");
  add_estimator_option(command, choices.estimator, "each roof's one value");
  command
      .add_option("--max-time", choices.max_time,
                  "seconds after which measurements whose passes disagree by more than 5 % get "
                  "no more passes (default: twice the plan's estimate)")
      ->check(number_above_zero_up_to(1e7));
}

characterize::CharacterizeOptions make_characterize_options(const MeasurementOptions& measurement,
                                                            const RunChoices& choices,
                                                            const topology::Topology& topology) {
  characterize::CharacterizeOptions run;
  run.plan = make_plan_options(measurement, topology);
  run.require_placement = choices.require_placement;
  run.estimator = parse_word<Estimator>(choices.estimator);
  run.max_seconds = choices.max_time.value_or(0);
  return run;
}

std::string minutes_text(double seconds) {
  char buffer[32];
  const int s = static_cast<int>(seconds + 0.5);
  std::snprintf(buffer, sizeof buffer, "%d:%02d", s / 60, s % 60);
  return buffer;
}

namespace {
// Set by the first Ctrl-C under an InterruptGuard.
std::atomic<bool> g_stop_requested{false};
static_assert(std::atomic<bool>::is_always_lock_free);

extern "C" void on_interrupt(int signal) {
  if (g_stop_requested.load()) {
    std::signal(signal, SIG_DFL);  // a second Ctrl-C ends the process at once
    std::raise(signal);
    return;
  }
  g_stop_requested.store(true);
}
}  // namespace

InterruptGuard::InterruptGuard(bool also_terminate) : also_terminate_(also_terminate) {
  g_stop_requested.store(false);
  previous_ = std::signal(SIGINT, on_interrupt);
  if (also_terminate_) previous_terminate_ = std::signal(SIGTERM, on_interrupt);
}

InterruptGuard::~InterruptGuard() {
  std::signal(SIGINT, previous_);
  if (also_terminate_) std::signal(SIGTERM, previous_terminate_);
}

const std::atomic<bool>* InterruptGuard::stop_flag() const {
  return &g_stop_requested;
}

int report_interrupted_drawing(const report::PlotOutcome& outcome,
                               const std::filesystem::path& figures_dir) {
  std::size_t drawn = 0;
  for (const auto& f : outcome.figures) drawn += f.error.empty() ? 1 : 0;
  std::cerr << "larm: interrupted: " << drawn << " figure(s) drawn in " << figures_dir.string()
            << "; the figures not yet redrawn there are left as they were, and no report "
               "page is written\n";
  return 130;
}

void add_access_option(CLI::App& command, std::string& access, const std::string& help) {
  command.add_option("--access", access, help)
      ->check(CLI::IsMember(words<Access>()))
      ->capture_default_str();
}

void add_precision_option(CLI::App& command, std::string& precision, const std::string& help) {
  command.add_option("--precision", precision, help)
      ->check(CLI::IsMember(words<Precision>()))
      ->capture_default_str();
}

fleet::Fleet load_fleet_argument(const std::string& dir_or_file) {
  try {
    return fleet::load_fleet(dir_or_file);
  } catch (const std::runtime_error& e) {
    throw UsageError(e.what());
  }
}

std::filesystem::path fleet_directory(const std::string& dir_or_file) {
  const std::filesystem::path path(dir_or_file);
  return std::filesystem::is_directory(path) ? path : path.parent_path();
}

results::Results load_results_argument(const std::string& dir_or_file) {
  try {
    return results::load_results(dir_or_file);
  } catch (const std::runtime_error& e) {
    throw UsageError(e.what());
  }
}

void add_results_and_regions_arguments(CLI::App& command, std::string& results_dir,
                                       std::vector<std::string>& region_files) {
  command.add_option("results", results_dir, "results directory (or its results.json)")->required();
  command.add_option("regions", region_files, "regions.json files, or directories holding one")
      ->required();
}

nlohmann::json read_regions_file(const std::string& given) {
  std::filesystem::path file = given;
  std::error_code ec;
  if (std::filesystem::is_directory(file, ec)) file /= "regions.json";
  if (!std::filesystem::exists(file, ec))
    throw UsageError("regions file not found: " + file.string());
  try {
    return results::read_json_file(file);
  } catch (const std::runtime_error& e) {
    throw UsageError(e.what());
  }
}

void add_counts_option(CLI::App& command, std::vector<std::string>& counts_files) {
  command
      .add_option("--counts", counts_files,
                  "regions.json of count runs (larm count) of the same commands: their exact "
                  "FLOP and byte counts replace the timed runs' (regions paired by name); one "
                  "for all regions files, or one per regions file in their order")
      ->delimiter(',');
}

std::string counts_for(const std::vector<std::string>& counts_files, std::size_t index,
                       std::size_t files) {
  if (counts_files.empty()) return {};
  if (counts_files.size() == 1) return counts_files.front();
  if (counts_files.size() != files) {
    throw UsageError("--counts: " + std::to_string(counts_files.size()) + " count runs for " +
                     std::to_string(files) +
                     " regions files (give one for all, or one per regions file)");
  }
  return counts_files[index];
}

regions::RegionsFile load_regions(const std::string& file_or_dir, const std::string& counts_file) {
  auto parse = [](const std::string& file) {
    try {
      return regions::regions_from_json(read_regions_file(file));
    } catch (const nlohmann::json::exception& e) {
      throw UsageError(file + " is not a valid regions file: " + e.what());
    } catch (const std::runtime_error& e) {
      if (dynamic_cast<const UsageError*>(&e) != nullptr) throw;
      throw UsageError(file + ": " + e.what());
    }
  };
  regions::RegionsFile timed = parse(file_or_dir);
  if (counts_file.empty()) {
    if (timed.run == "counted") {
      throw UsageError(file_or_dir +
                       " is a count run (larm count): its times are Valgrind's, not the "
                       "program's; give the program's own run and this one with --counts");
    }
    return timed;
  }
  const regions::RegionsFile counted = parse(counts_file);
  try {
    regions::Pairing pairing = regions::pair_counts(timed, counted);
    for (const std::string& note : pairing.notes) {
      std::cout << "counts (" << counts_file << "): " << note << "\n";
    }
    return std::move(pairing.file);
  } catch (const std::runtime_error& e) {
    throw UsageError(std::string(e.what()));
  }
}

std::optional<double> whole_number(const std::string& text) {
  char* end = nullptr;
  const double v = std::strtod(text.c_str(), &end);
  if (text.empty() || end != text.c_str() + text.size()) return std::nullopt;
  return v;
}

namespace {
// low < v (above_low) or low <= v, and v <= high; NaN is neither.
CLI::Validator number_range(double low, double high, bool above_low) {
  const std::string low_text = results::format_number("%g", low);
  const std::string high_text = results::format_number("%g", high);
  const std::string what = above_low ? "a number above " + low_text + " and at most " + high_text
                                     : "a number from " + low_text + " to " + high_text;
  return CLI::Validator(
      [=](std::string& value) -> std::string {
        const std::optional<double> v = whole_number(value);
        const bool in = v && (above_low ? *v > low : *v >= low) && *v <= high;
        return in ? "" : "'" + value.substr(0, 40) + "' is not " + what;
      },
      (above_low ? "(" : "[") + low_text + ", " + high_text + "]");
}
}  // namespace

CLI::Validator number_above_zero_up_to(double max) {
  return number_range(0, max, true);
}

CLI::Validator number_between(double low, double high) {
  return number_range(low, high, false);
}

results::OutputClaim claim_output(const std::filesystem::path& dir, const std::string& what) {
  try {
    return results::OutputClaim(dir, what);
  } catch (const results::OutputInUse& e) {
    throw UsageError(e.what());
  } catch (const std::runtime_error& e) {
    throw UsageError(std::string("output directory: ") + e.what());
  }
}

void check_output_file(const std::string& file) {
  try {
    results::ensure_writable_file(file);
  } catch (const std::runtime_error& e) {
    throw UsageError(e.what());
  }
}

}  // namespace larm::cli
