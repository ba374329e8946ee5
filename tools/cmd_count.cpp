// larm count: runs an instrumented program natively several times (its regions' times, the median
// of the clean runs) and once under larm's Valgrind tool (their exact FLOPs and bytes, counted by
// binary instrumentation for machines without hardware counters, and the bytes each cache level
// and memory serve them in a model of the node's caches), and says how to place the pair. A
// program built through larm's compiler plugin (larm-cc) counts itself as it runs: its native
// runs give both the times and the counts, and there is no counting run.
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <sstream>
#include <vector>

#include "application/cache_model.h"
#include "application/compiler_build.h"
#include "application/program_run.h"
#include "application/valgrind_isa.h"
#include "application/valgrind_tool.h"
#include "report/figure.h"
#include "results/atomic_file.h"
#include "results/input_file.h"
#include "results/json_output.h"
#include "results/number_text.h"
#include "results/printable_text.h"
#include "results/region_records.h"
#include "results/region_repeats.h"
#include "results/statistics.h"
#include "roofline/memory_level.h"
#include "tools/cli_inputs.h"
#include "tools/cli_options.h"
#include "tools/cli_outputs.h"
#include "tools/commands.h"

namespace larm::cli {

using namespace larm::application;  // the engine that runs, samples and counts programs

namespace fs = std::filesystem;

namespace {

struct CountOptions {
  std::string out_dir = "larm-count";
  bool no_native = false;
  int repeat = 5;           // native runs
  std::string results_dir;  // effective cache capacities for the model
  bool no_cache_model = false;
  std::string cache_spec;            // --cache-model: caches to model instead of the node's
  std::vector<std::string> command;  // the program and its arguments
};

std::string fixed(double value, int digits) {
  return results::fixed_text(value, digits);
}

void print_counts(const regions::RegionsFile& file) {
  std::printf("%-24s %8s %12s %12s %12s %8s  %s\n", "region", "calls", "GFLOP", "GB loaded",
              "GB stored", "AI", "FLOPs by width");
  for (const regions::Region& region : file.regions) {
    const regions::Aggregate& m = region.machine;
    std::string widths;
    for (const auto& [name, value] : m.counted) {
      // Widths of at least 0.05 % of the FLOPs (the library's own bookkeeping adds a few).
      if (name.rfind("flops_", 0) != 0 || !m.flops.value || !(*m.flops.value > 0) ||
          !(value >= 5e-4 * *m.flops.value)) {
        continue;
      }
      widths += (widths.empty() ? "" : ", ") + name.substr(6) + " " +
                fixed(100 * value / *m.flops.value, 1) + " %";
    }
    const auto gb = [](const std::optional<double>& v) { return v ? fixed(*v * 1e-9, 4) : "-"; };
    std::printf("%-24s %8llu %12s %12s %12s %8s  %s\n",
                results::table_cell(region.name, 24).c_str(),
                static_cast<unsigned long long>(m.calls), gb(m.flops.value).c_str(),
                gb(m.bytes_read.value).c_str(), gb(m.bytes_written.value).c_str(),
                m.rates.ai ? report::significant(*m.rates.ai).c_str() : "-",
                widths.empty() ? "no FLOPs" : widths.c_str());
  }
}

// A regions.json the program's liblarm wrote into an output: a regular file opened without
// following a link planted in its place, read bounded (results/input_file.h).
regions::RegionsFile read_regions_output(const fs::path& file) {
  return regions::regions_from_json(
      results::parse_json_document(results::read_own_output(file), file.string()));
}

// Whether regions.json is in dir as a regular file (not a link or anything else planted).
bool has_regions_output(const fs::path& dir) {
  std::error_code ec;
  return fs::is_regular_file(fs::symlink_status(dir / "regions.json", ec));
}

// After a run of the program: the output subdirectories it ran in are checked again (it may
// have replaced one with a link), and what it left running was stopped (said here).
void after_program(const ProgramRun& run, const std::vector<fs::path>& dirs,
                   const std::string& app) {
  if (run.left_behind > 0) {
    std::cerr << "larm count: " << app << " left " << run.left_behind
              << " process(es) running at its end: stopped, so that none writes after it\n";
  }
  check_directories_after_run(dirs);
}

// Regions never ended: liblarm closed them at finalize, their time runs to the program's end.
void report_open_regions(const regions::RegionsFile& file, const std::string& run) {
  for (const std::string& name : file.open_at_finalize) {
    // liblarm names them with their thread: "solve" on thread 0.
    std::cerr << "larm count: region " << results::printable(name) << " was never ended in the "
              << run << " (liblarm closed it at the program's end: its time runs to there)\n";
  }
}

struct NativeRuns {
  std::vector<regions::RegionsFile> files;
  std::vector<ProgramRun> runs;
  bool stopped = false;  // a run was interrupted or killed
  int exit_code = 0;     // of larm count, when stopped
};

// The native runs, each into timed/run-K, then their merge into timed/regions.json.
NativeRuns native_runs(const CountOptions& options, const fs::path& timed_dir) {
  NativeRuns out;
  const std::string app = results::printable(options.command[0]);
  for (int k = 1; k <= options.repeat; ++k) {
    const fs::path dir = timed_dir / ("run-" + std::to_string(k));
    results::ensure_output_subdirectory(dir);
    std::error_code ec;
    fs::remove(dir / "regions.json", ec);
    std::cerr << "larm count: native run " << k << " of " << options.repeat
              << " (its regions' times) into " << shown_path(dir) << "\n";
    const ProgramRun run = run_program(options.command, {"LARM_OUT=" + fs::absolute(dir).string()},
                                       "count: the timed run");
    after_program(run, {timed_dir, dir, fs::path(options.out_dir) / "counted"}, app);
    if (const int signal = interrupting_signal(run); signal != 0) {
      std::cerr << "larm count: interrupted (" << signal_name(signal) << ") during native run " << k
                << "; " << out.files.size() << " completed run(s) kept in "
                << results::printable(timed_dir.string()) << "\n";
      out.stopped = true;
      out.exit_code = 128 + signal;
      return out;
    }
    const bool has_regions = has_regions_output(dir);
    if (run.status != 0) {
      std::cerr << (WIFSIGNALED(run.status) ? "larm: error: " : "larm count: ") << app << " "
                << exit_text(run.status) << " in native run " << k
                << (has_regions && !WIFSIGNALED(run.status) ? "; its regions are kept"
                                                            : "; this run is left out")
                << "\n";
      if (WIFSIGNALED(run.status)) {
        out.stopped = true;
        out.exit_code = 1;
        return out;
      }
    }
    if (!has_regions) {
      std::cerr << "larm: error: " << app << " wrote no regions.json in native run " << k
                << " (not linked with liblarm, or it calls larm_init with its own directory)\n";
      out.stopped = true;
      out.exit_code = 1;
      return out;
    }
    regions::RegionsFile file = read_regions_output(dir / "regions.json");
    if (k == 1) report_open_regions(file, "native runs");
    std::cerr << "larm count: native run " << k << ": " << fixed(run.seconds, 2) << " s, "
              << run.quality() << "\n";
    out.files.push_back(std::move(file));
    out.runs.push_back(run);
  }
  return out;
}

// counted_by: "valgrind" (the counting run) or "compiler" (the native runs counted themselves).
void write_runs_summary(const fs::path& file, const NativeRuns& native,
                        const std::optional<ProgramRun>& counted, const std::string& model,
                        const std::string& counted_by) {
  nlohmann::json runs = nlohmann::json::array();
  for (std::size_t i = 0; i < native.runs.size(); ++i) {
    const ProgramRun& run = native.runs[i];
    runs.push_back({{"run", i + 1},
                    {"seconds", run.seconds},
                    {"program_cpu_seconds", run.program_cpu_seconds},
                    {"others_cpu_seconds", run.others_cpu_seconds},
                    {"steal_seconds", run.steal_seconds},
                    {"cpus", run.cpus},
                    {"clean", run.clean()},
                    {"quality", run.quality()},
                    {"exit", exit_text(run.status)}});
  }
  nlohmann::json doc = {{"format", "larm-count-runs"},
                        {"clean_threshold_share", kCleanRunShare},
                        {"native_runs", runs},
                        {"cache_model", model},
                        {"counted_by", counted_by}};
  if (counted) doc["counting_run_seconds"] = counted->seconds;
  results::write_file_atomically(file, doc.dump(2) + "\n");
}

void print_timing(const regions::RegionsFile& merged) {
  std::printf("\n%-24s %12s %8s  %s\n", "region", "median s", "spread", "estimator");
  for (const regions::Region& region : merged.regions) {
    if (!region.timing) continue;
    std::printf("%-24s %12s %7s%%  %s\n", results::table_cell(region.name, 24).c_str(),
                results::format_number("%.4g", region.timing->median).c_str(),
                fixed(100 * region.timing->spread, 1).c_str(), region.timing->estimator.c_str());
  }
}

void print_level_bytes(const regions::RegionsFile& file) {
  std::printf("\n%-24s %12s %12s %12s %12s  (GB served per level, cache model)\n", "region",
              "L1 (core)", "L2", "L3", "memory");
  for (const regions::Region& region : file.regions) {
    const auto traffic = roofline::level_traffic(region.machine.counted);
    if (!traffic) continue;
    const auto gb = [](double v) { return fixed(v * 1e-9, 4); };
    std::printf("%-24s %12s %12s %12s %12s\n", results::table_cell(region.name, 24).c_str(),
                gb(region.machine.bytes.value.value_or(0)).c_str(), gb(traffic->l2).c_str(),
                gb(traffic->l3).c_str(), gb(traffic->memory).c_str());
  }
}

// The regions' times over the native runs, and how many runs were clean.
void print_native_runs(const NativeRuns& native, const regions::RegionsFile& merged,
                       const fs::path& out) {
  std::fflush(stdout);
  print_timing(merged);
  int clean = 0;
  for (const ProgramRun& run : native.runs) clean += run.clean() ? 1 : 0;
  std::fflush(stdout);
  std::cout << "\nnative runs: " << native.runs.size() << ", " << clean
            << " clean (others and the host took under " << results::percent_text(kCleanRunShare, 0)
            << " of the CPUs' time); " << shown_path(out) << "/runs.json has each run's quality\n";
}

// A program built through larm-cc: its native runs counted themselves. Prints what print_counts
// and print_timing print for the pair of runs, from the merged native runs alone.
int finish_compiler_count(const CountOptions& options, const CompilerBuild& build,
                          const NativeRuns& native, const regions::RegionsFile& merged) {
  const fs::path timed_dir = fs::path(options.out_dir) / "timed";
  for (const regions::RegionsFile& file : native.files) {
    if (file.counters.counted_by != "compiler") {
      std::cerr
          << "larm: error: " << results::printable(options.command[0])
          << " was built through larm's compiler plugin but its liblarm read no compiler counts ("
          << (file.counters.reason.empty() ? "a liblarm older than its plugin"
                                           : file.counters.reason)
          << "): link it with this larm's liblarm\n";
      return 1;
    }
  }
  std::cout << "Counted by larm's compiler plugin (" << results::printable(build.compiler) << ", "
            << build.units.size()
            << " unit(s) instrumented) in the native runs (FLOPs: add, sub, mul, div, sqrt, min, "
               "max; an FMA counts 2; bytes: what the code loads and stores, spills aside)\n\n";
  print_counts(merged);
  print_native_runs(native, merged, options.out_dir);
  std::cout << "no bytes per level: without a cache model larm place cannot tell one cache level "
               "from another nor say latency (build with "
            << application::cache_sample_flag(build)
            << " for the plugin's sampled model, or count a build without the plugin under "
               "Valgrind)\n";
  std::cout << "next: larm place --results "
            << (options.results_dir.empty() ? std::string("DIR") : shown_path(options.results_dir))
            << " " << shown_path(timed_dir / "regions.json") << "\n";
  return 0;
}

int run_count(const CountOptions& options) {
  if (options.command.empty()) throw UsageError("no program given (larm count -- APP ARGS...)");
  if (options.repeat < 1 || options.repeat > 100)
    throw UsageError("--repeat " + std::to_string(options.repeat) + ": give 1 to 100 native runs");
  // The program, before anything is made: a name that runs nothing is bad input.
  const std::string program = find_program(options.command[0], "larm count");
  const CompilerBuild build = compiler_build(program);
  const std::string app = results::printable(options.command[0]);
  if (!build.refused.empty()) throw UsageError(app + ": " + build.refused);
  // A counting run under Valgrind that would die on the program's first AVX-512 or SVE
  // instruction, after the native runs: refused before them.
  if (!build.instrumented) {
    if (const std::string instruction = valgrind_unrunnable_instruction(program);
        !instruction.empty())
      throw UsageError(valgrind_unrunnable_refusal(app, instruction));
  }
  if (const std::string note = uninstrumented_note(build, app, "larm count"); !note.empty())
    std::cerr << note << "\n";
  if (build.instrumented && options.no_native) {
    throw UsageError(app +
                     " was built through larm's compiler plugin: its native runs count it "
                     "(--no-native leaves none); count a build without the plugin for a Valgrind "
                     "counting run");
  }
  // The cache model, before any run: a bad --results or --cache-model stops here. A plugin
  // build has one when its objects sample it (a counting run of its own, natively, through the
  // plugins' runtime).
  std::optional<results::Results> node_results;
  if (!options.results_dir.empty()) node_results = load_results_argument(options.results_dir);
  const CacheModelSetting model = counting_cache_model(
      build, app, options.cache_spec, options.no_cache_model, topology::Topology::load_live(),
      node_results ? &*node_results : nullptr, "larm count");
  const std::string model_text = model.text;
  const std::string model_option = model.option;
  const bool sampled_model = build.instrumented && !model_option.empty();
  const fs::path tool_dir = build.instrumented ? fs::path() : tool_directory("larm count");
  const fs::path runtime = sampled_model ? plugin_runtime_library("larm count") : fs::path();
  const fs::path out = options.out_dir;
  const fs::path timed_dir = out / "timed";
  const fs::path counted_dir = out / "counted";
  std::error_code ec;
  const results::OutputClaim claim = claim_output(out, "larm count");
  for (const fs::path& dir : {timed_dir, counted_dir}) {
    try {
      results::ensure_output_subdirectory(dir);
    } catch (const std::runtime_error& e) {
      throw UsageError(e.what());
    }
  }
  for (const fs::path& stale :
       {counted_dir / "valgrind.log", counted_dir / "totals.json", counted_dir / "regions.json",
        timed_dir / "regions.json", out / "runs.json"}) {
    fs::remove(stale, ec);  // a link planted there: the link, not its target
  }

  NativeRuns native;
  std::optional<double> native_seconds;
  std::optional<regions::RegionsFile> merged;
  if (!options.no_native) {
    native = native_runs(options, timed_dir);
    if (!native.files.empty()) {
      std::vector<bool> clean;
      std::vector<double> walls;
      for (const ProgramRun& run : native.runs) {
        clean.push_back(run.clean());
        walls.push_back(run.seconds);
      }
      merged = regions::merge_repeated_runs(native.files, clean);
      results::write_json_output(timed_dir / "regions.json", regions::to_json(*merged),
                                 results::FileFormat::regions, 2);
      native_seconds = results::median(walls);
    }
    write_runs_summary(out / "runs.json", native, std::nullopt, model_text,
                       build.instrumented ? "compiler" : "valgrind");
    if (native.stopped) return native.exit_code;
  }
  if (build.instrumented && !sampled_model)
    return finish_compiler_count(options, build, native, *merged);

  ProgramRun counted;
  fs::path log_path;  // Valgrind's log (none for the sampled model's run)
  std::string under;  // where the counting run ran, in words
  if (sampled_model) {
    std::cerr << "larm count: counting run with the sampled cache model of larm's compiler "
                 "plugin (one line in "
              << build.cache_sample << ") into " << shown_path(counted_dir) << "\n";
    std::cerr << "larm count: cache model: " << model_text << "\n";
    std::vector<std::string> set =
        plugin_runtime_environment(runtime, model_option, build.cache_sample);
    set.push_back("LARM_OUT=" + fs::absolute(counted_dir).string());
    counted = run_program(options.command, set, "count: the counted run (sampled cache model)");
    after_program(counted, {counted_dir}, app);
    under = "in the counting run";
  } else {
    std::cerr << "larm count: counting run under Valgrind (tool "
              << shown_path(tool_dir / kToolFile) << ") into " << shown_path(counted_dir) << "\n";
    std::cerr << "larm count: cache model: " << model_text << "\n";
    const ValgrindLibDir lib(tool_dir, out);
    const ValgrindLog log(counted_dir / "valgrind.log");
    // Not -q: Valgrind names the bytes of an instruction it cannot translate only when verbose.
    // Following exec()s: a command line through numactl, taskset, env or `mpirun -np 1` counts the
    // program it runs, not the wrapper.
    std::vector<std::string> argv = {"valgrind", std::string("--tool=") + kToolName,
                                     "--trace-children=yes", log.option()};
    if (!model_option.empty()) argv.push_back("--larm-cache=" + model_option);
    argv.insert(argv.end(), options.command.begin(), options.command.end());
    std::vector<std::string> set = {"VALGRIND_LIB=" + lib.path().string(),
                                    "LARM_OUT=" + fs::absolute(counted_dir).string()};
    // OpenMP threads that spin at a barrier would count their spinning into the region they end;
    // passive waiting sleeps instead (the user's own choice is kept).
    if (std::getenv("OMP_WAIT_POLICY") == nullptr) set.push_back("OMP_WAIT_POLICY=passive");
    // Lazy binding resolves a function at its first call, saving the vector registers: done inside
    // the region that first calls it (its first larm_region_end, say), it adds ~2 kB there.
    if (std::getenv("LD_BIND_NOW") == nullptr) set.push_back("LD_BIND_NOW=1");
    // hwloc's x86 backend reads CPUID, which Valgrind virtualizes, and says so on stderr; the
    // topology liblarm records comes from Linux's files all the same.
    if (std::getenv("HWLOC_COMPONENTS") == nullptr) set.push_back("HWLOC_COMPONENTS=-x86");
    counted = run_program(
        argv, set,
        "count: the counted run (Valgrind)" + valgrind_run_expectation(native_seconds.value_or(0)));
    after_program(counted, {counted_dir}, app);
    log_path = log.path();
    under = "under Valgrind";
    if (const std::string refusal = valgrind_refusal(log, app); !refusal.empty()) {
      std::cerr << refusal << "\n";
      return 1;
    }
  }
  if (const int signal = interrupting_signal(counted); signal != 0) {
    std::cerr << "larm count: interrupted (" << signal_name(signal) << ") during the counting run; "
              << (merged ? "the timed runs are kept in " + results::printable(timed_dir.string())
                         : "nothing kept")
              << "\n";
    return 128 + signal;
  }
  const fs::path regions_file = counted_dir / "regions.json";
  const bool has_counts = has_regions_output(counted_dir);
  if (counted.status != 0) {
    // A program that exits non-zero after writing its regions keeps its counts; one killed by a
    // signal wrote none that can be trusted.
    const bool kept = has_counts && WIFEXITED(counted.status);
    std::cerr << (kept ? "larm count: " : "larm: error: ") << app << " "
              << exit_text(counted.status) << " " << under
              << (kept ? "; its regions were written and are kept" : "")
              << (log_path.empty() ? std::string() : "; see " + shown_path(log_path)) << "\n";
    if (!kept) return 1;
  }
  if (!has_counts) {
    std::cerr << "larm: error: " << app
              << " wrote no regions.json under larm count (not linked with liblarm, or it calls "
                 "larm_init with its own directory)\n";
    return 1;
  }
  regions::RegionsFile file = read_regions_output(regions_file);
  if (file.run != "counted") {
    std::cerr << "larm: error: " << shown_path(regions_file) << " has no counts: its liblarm "
              << (sampled_model ? "did not see the sampled cache model (a liblarm older than "
                                  "its plugin?"
                                : "did not see larm's Valgrind tool (")
              << file.counters.reason << ")\n";
    return 1;
  }
  if (!model.machine.empty()) {
    // Its bytes per level are the other machine's: said in the file that carries them.
    file.counters.cache_model_machine = model.machine;
    results::write_json_output(regions_file, regions::to_json(file), results::FileFormat::regions,
                               2);
  }
  if (options.no_native) report_open_regions(file, "counting run");
  write_runs_summary(out / "runs.json", native, counted, model_text,
                     sampled_model ? "compiler" : "valgrind");
  if (sampled_model) {
    std::cout << "Counted by larm's compiler plugin (" << results::printable(build.compiler)
              << ") with its sampled cache model, one line in " << build.cache_sample
              << " (FLOPs: add, sub, mul, div, sqrt, min, max; an FMA counts 2; bytes: what the "
                 "code loads and stores, spills aside)\n\n";
  } else {
    std::cout << "Counted by larm's Valgrind tool (FLOPs: add, sub, mul, div, sqrt, min, max; an "
                 "FMA counts 2; bytes: what the core loads and stores)\n\n";
  }
  print_counts(file);
  if (!model_option.empty()) {
    std::cout << "\ncache model: " << model_text << "\n";
    std::fflush(stdout);
    print_level_bytes(file);
  }
  if (merged) print_native_runs(native, *merged, out);
  std::cout << "\ncounting run " << fixed(counted.seconds, 2) << " s";
  if (native_seconds) {
    std::cout << ", native run " << fixed(*native_seconds, 2) << " s (median wall time): slowdown "
              << fixed(counted.seconds / std::max(*native_seconds, 1e-6), 1) << "x";
  }
  std::cout << "\n";
  if (merged) {
    std::cout << "next: larm place --results "
              << (options.results_dir.empty() ? std::string("DIR")
                                              : shown_path(options.results_dir))
              << " " << shown_path(timed_dir / "regions.json") << " --counts "
              << shown_path(regions_file) << "\n";
  }
  return 0;
}

}  // namespace

void setup_count(CLI::App& app, GlobalOptions& /*global*/, Action& action) {
  auto options = std::make_shared<CountOptions>();
  CLI::App* command = app.add_subcommand(
      "count",
      "count the FLOPs and bytes of an instrumented program's regions exactly, without hardware "
      "counters: runs it natively (times) and under larm's Valgrind tool (counts); a program "
      "built with larm-cc, larm-c++, larm-fortran or larm-clang counts itself in its native runs");
  command
      ->add_option("--out,-o", options->out_dir,
                   "directory of the two runs' regions (timed/, counted/)")
      ->capture_default_str();
  command->add_flag("--no-native", options->no_native,
                    "only the counting run (no native run, no slowdown)");
  command
      ->add_option("--repeat", options->repeat,
                   "native runs: each region's time is the median of the clean ones")
      ->capture_default_str();
  command->add_option("--results,-r", options->results_dir,
                      "results of this node (larm characterize): the cache model takes their "
                      "effective capacities (default: the declared ones); another machine's "
                      "results: its caches are modelled, a what-if of the program there");
  command->add_option("--cache-model", options->cache_spec, kCacheModelHelp);
  command->add_flag("--no-cache-model", options->no_cache_model,
                    "count without the cache model (no bytes per level; a faster counting run)");
  command->add_option("command", options->command, "the program and its arguments, after --")
      ->required();
  command->positionals_at_end();
  command->callback([options, &action] { action = [options] { return run_count(*options); }; });
}

}  // namespace larm::cli
