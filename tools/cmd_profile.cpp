// larm profile: a program's hottest functions on the LARM without editing or rebuilding it. Linux
// perf samples where its time goes (per function and thread, repeated runs, the median of the
// clean ones); larm's Valgrind tool counts each function's FLOPs and bytes (and, with the cache
// model, the bytes each level serves it) or, for a program built through larm's compiler plugins,
// the program counts them itself in its native run (larm_plugin_runtime.so reads them); the
// hottest functions become regions, placed as instrumented regions are.
#include <elf.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>

#include "application/cache_model.h"
#include "application/compiler_build.h"
#include "application/function_profile.h"
#include "application/perf_samples.h"
#include "application/program_run.h"
#include "application/symbol_names.h"
#include "application/valgrind_isa.h"
#include "application/valgrind_tool.h"
#include "platform/cpu_info.h"
#include "platform/environment.h"
#include "report/gnuplot_runner.h"
#include "report/text/placement_text.h"
#include "results/atomic_file.h"
#include "results/json_output.h"
#include "results/number_text.h"
#include "results/printable_text.h"
#include "results/region_records.h"
#include "roofline/region_placement.h"
#include "tools/cli_inputs.h"
#include "tools/cli_options.h"
#include "tools/cli_outputs.h"
#include "tools/commands.h"

namespace larm::cli {

using namespace larm::application;  // the engine that runs, samples and counts programs

namespace fs = std::filesystem;

namespace {

struct ProfileOptions {
  std::string out_dir = "larm-profile";
  int top = 10;
  int repeat = 3;
  // 1,000 samples a second: 5,000 doubled the program's time in a guest (HPCCG 64^3 on 2
  // threads: its sparsemv 0.55 s alone, 0.58 s at 1 kHz, 1.27 s at 5 kHz, without call chains);
  // 1,000 with call chains cost HPCCG 96^3 10-15 % (2.29-2.40 s under perf, 2.09 s without).
  int frequency = 1000;
  std::string results_dir;
  bool no_cache_model = false;
  std::string cache_spec;
  bool verbose = false;
  std::vector<int> allow_exit;
  std::vector<std::string> command;
};

// Of the samples, the share under which a function is not placed: its verdict would speak for
// a hundredth of the run at most.
constexpr double kMinShare = 0.01;

constexpr const char* kTimeEstimator =
    "wall time in the function on its slowest thread (perf cpu-clock samples x period in its code, "
    "in the OpenMP runtime's waits its call chains lead to and in the kernel while in it, plus the "
    "thread's time off the CPU in it from context switches)";

// "" when the file is a 64-bit ELF executable; else what it is, in words. `position_dependent`
// says it is not a PIE (ET_EXEC).
std::string elf_problem(const fs::path& file, bool& position_dependent) {
  std::ifstream in(file, std::ios::binary);
  Elf64_Ehdr header{};
  if (!in.read(reinterpret_cast<char*>(&header), sizeof header) ||
      std::memcmp(header.e_ident, ELFMAG, SELFMAG) != 0) {
    return "is not an ELF executable (a script? profile the program it runs)";
  }
  if (header.e_ident[EI_CLASS] != ELFCLASS64) return "is not a 64-bit ELF executable";
  position_dependent = header.e_type == ET_EXEC;
  return "";
}

bool allowed(const ProfileOptions& options, int status) {
  if (WIFEXITED(status) && WEXITSTATUS(status) == 0) return true;
  if (!WIFEXITED(status)) return false;
  for (int code : options.allow_exit) {
    if (code == WEXITSTATUS(status)) return true;
  }
  return false;
}

std::string fixed(double value, int digits) {
  return results::fixed_text(value, digits);
}

// Why a sampled function is not among the placed ones, in words ("" when it is placed).
std::string why_not_placed(const ProfiledFunction& f, FunctionCounter counter) {
  if (f.placed) return "";
  if (f.key.first == "[kernel]") return "kernel time (page faults, system calls)";
  if (f.key.second == kRuntimeIdle)
    return "the OpenMP runtime's threads waiting outside any function's parallel region";
  if (f.key.second == "[unknown]") return "no symbol";
  if (!f.counted && counter == FunctionCounter::compiler)
    return "not instrumented (built without larm's compiler plugin: a library's code, or a "
           "function that counted nothing)";
  if (!f.counted) return "not counted (the Valgrind run never ran a function of this name)";
  if (f.samples < kMinSamples) return "too few samples to time it";
  if (f.share < kMinShare) return "under 1 % of the samples";
  return "below the top";
}

// The table's "placed" column.
std::string placed_text(const ProfiledFunction& f, FunctionCounter counter) {
  return f.placed ? "yes" : "no: " + why_not_placed(f, counter);
}

void print_functions(const Profile& profile, const regions::RegionsFile& file,
                     FunctionCounter counter) {
  std::printf("%-28s %7s %10s %7s %10s %10s %8s  %s\n", "function", "time %", "median s", "threads",
              "GFLOP", "GB", "AI", "placed");
  for (const ProfiledFunction& f : profile.functions) {
    if (!f.placed && f.share < kMinShare) continue;
    const regions::Region* region = nullptr;
    for (const auto& r : file.regions) {
      if (r.name == f.region) region = &r;
    }
    const auto gb = [](const std::optional<double>& v) { return v ? fixed(*v * 1e-9, 4) : "-"; };
    std::printf("%-28s %7s %10s %7d %10s %10s %8s  %s\n", results::table_cell(f.region, 28).c_str(),
                fixed(100 * f.share, 1).c_str(),
                results::format_number("%.4g", f.median_seconds).c_str(), f.threads,
                region ? gb(region->machine.flops.value).c_str() : "-",
                region ? gb(region->machine.bytes.value).c_str() : "-",
                region && region->machine.rates.ai
                    ? results::format_number("%.3g", *region->machine.rates.ai).c_str()
                    : "-",
                placed_text(f, counter).c_str());
  }
}

// How a run of the program ended, when larm profile stops there: 128 + the signal when it was
// interrupted (SIGINT, SIGTERM; `kept` says what stays), 1 with one line when its exit is not
// allowed, else 0.
int run_stop(const ProfileOptions& options, const std::string& app, const ProgramRun& ran,
             const std::string& run, const std::string& in_run, const std::string& kept) {
  if (const int signal = interrupting_signal(ran); signal != 0) {
    std::cerr << "larm profile: interrupted (" << signal_name(signal) << ") during " << run << "; "
              << kept << "\n";
    return 128 + signal;
  }
  const int status = ran.status;
  if (allowed(options, status)) return 0;
  std::cerr << "larm: error: " << app << " " << exit_text(status) << " " << in_run
            << (WIFEXITED(status)
                    ? " (--allow-exit " + std::to_string(WEXITSTATUS(status)) + " accepts it)"
                    : "")
            << "\n";
  return 1;
}

// The counting run under larm's Valgrind tool, following exec()s (numactl, taskset, env) into the
// program: its functions-PID.tsv files in counted_dir. 0, or the status larm profile ends with.
int valgrind_counting_run(const ProfileOptions& options, const std::string& app,
                          const fs::path& tool_dir, const fs::path& out,
                          const fs::path& counted_dir, const fs::path& sampled_dir,
                          const CacheModelSetting& model, double native_seconds, double& seconds) {
  std::cerr << "larm profile: counting run under Valgrind into " << shown_path(counted_dir)
            << valgrind_run_expectation(native_seconds) << "; cache model: " << model.text << "\n";
  const ValgrindLibDir lib(tool_dir, out);
  const ValgrindLog log(counted_dir / "valgrind.log");
  // --demangle=no: functions by their linker symbols, as perf script --no-demangle gives them.
  std::vector<std::string> argv = {
      "valgrind",
      std::string("--tool=") + kToolName,
      "--trace-children=yes",
      "--demangle=no",
      log.option(),
      "--larm-functions=" + valgrind_path(fs::absolute(counted_dir)) + "/functions-%p.tsv"};
  if (!model.option.empty()) argv.push_back("--larm-cache=" + model.option);
  argv.insert(argv.end(), options.command.begin(), options.command.end());
  std::vector<std::string> set = {"VALGRIND_LIB=" + lib.path().string(),
                                  "LARM_OUT=" + counted_dir.string()};
  if (std::getenv("OMP_WAIT_POLICY") == nullptr) set.push_back("OMP_WAIT_POLICY=passive");
  if (std::getenv("HWLOC_COMPONENTS") == nullptr) set.push_back("HWLOC_COMPONENTS=-x86");
  const ProgramRun counted = run_program(
      argv, set, "profile: the counted run (Valgrind)" + valgrind_run_expectation(native_seconds));
  if (interrupting_signal(counted) != 0) {
    return run_stop(options, app, counted, "the counting run", "under Valgrind",
                    "the sampled runs are kept in " + results::printable(sampled_dir.string()) +
                        " (perf.data: perf report -i)");
  }
  if (counted.left_behind > 0) {
    std::cerr << "larm profile: " << app << " left " << counted.left_behind
              << " process(es) running at its end: stopped\n";
  }
  check_directories_after_run({counted_dir});
  seconds = counted.seconds;
  if (const std::string refusal = valgrind_refusal(log, app); !refusal.empty()) {
    std::cerr << refusal << "\n";
    return 1;
  }
  if (!allowed(options, counted.status)) {
    std::cerr << "larm: error: " << app << " " << exit_text(counted.status)
              << " under Valgrind; see " << shown_path(log.path()) << "\n";
    return 1;
  }
  return 0;
}

// The counting run of a program built through the plugins: natively, the plugins' runtime
// preloaded (its counts per function into counted_dir; with a model, the sampled cache model's
// too). 0, or the status larm profile ends with.
int plugin_counting_run(const ProfileOptions& options, const std::string& app,
                        const fs::path& runtime, const CompilerBuild& build,
                        const fs::path& counted_dir, const fs::path& sampled_dir,
                        const CacheModelSetting& model, double& seconds) {
  std::cerr << "larm profile: counting run of the program's own counts into "
            << shown_path(counted_dir) << "; cache model: " << model.text << "\n";
  std::vector<std::string> set =
      plugin_runtime_environment(runtime, model.option, build.cache_sample);
  set.push_back("LARM_FUNCTIONS_DIR=" + fs::absolute(counted_dir).string());
  set.push_back("LARM_OUT=" + counted_dir.string());
  const ProgramRun counted = run_program(options.command, set, "profile: the counted run");
  check_directories_after_run({counted_dir});
  seconds = counted.seconds;
  return run_stop(options, app, counted, "the counting run", "in the counting run",
                  "the sampled runs are kept in " + results::printable(sampled_dir.string()) +
                      " (perf.data: perf report -i)");
}

int run_profile(const ProfileOptions& options) {
  if (options.command.empty()) throw UsageError("no program given (larm profile -- APP ARGS...)");
  if (options.top < 1 || options.top > 1000)
    throw UsageError("--top " + std::to_string(options.top) + ": give 1 to 1000");
  if (options.repeat < 1 || options.repeat > 100)
    throw UsageError("--repeat " + std::to_string(options.repeat) + ": give 1 to 100 sampled runs");
  if (options.frequency < 10 || options.frequency > 50000)
    throw UsageError("--frequency " + std::to_string(options.frequency) +
                     ": give 10 to 50000 samples per second");
  const fs::path program = find_program(options.command[0], "larm profile");
  const std::string app = results::printable(options.command[0]);
  bool position_dependent = false;
  if (const std::string problem = elf_problem(program, position_dependent); !problem.empty())
    throw UsageError(app + " " + problem);
  // A program built through larm's compiler plugins counts its functions itself, in its native
  // run: no Valgrind run.
  const CompilerBuild build = compiler_build(program.string());
  if (!build.refused.empty()) throw UsageError(app + ": " + build.refused);
  // What a profile is made of, known before any run: functions by their symbols, and a counting
  // run Valgrind can run.
  if (!build.function_symbols) {
    throw UsageError(app +
                     " has no symbol table (stripped): a profile names functions by their "
                     "symbols, and all of its own code would be one [unknown]; profile a build "
                     "that keeps them (no -s, no strip)");
  }
  if (!build.instrumented) {
    if (const std::string instruction = valgrind_unrunnable_instruction(program.string());
        !instruction.empty())
      throw UsageError(valgrind_unrunnable_refusal(app, instruction));
  }
  const FunctionCounter counter =
      build.instrumented ? FunctionCounter::compiler : FunctionCounter::valgrind;
  if (build.instrumented && position_dependent) {
    throw UsageError(
        app +
        " was built through larm's compiler plugin as a position-dependent executable (-no-pie): "
        "its link resolved the reference that hands its counts per function to larm to nothing; "
        "rebuild it as a PIE (GCC's default on Debian)");
  }
  if (const std::string note = uninstrumented_note(build, app, "larm profile"); !note.empty())
    std::cerr << note << "\n";
  if (report::find_in_path("perf").empty())
    throw UsageError("Linux perf is not installed (Debian: linux-perf; scripts/install-deps.sh)");
  const PerfEvent event = perf_event();
  if (!event.error.empty()) throw UsageError(event.error);
  std::optional<results::Results> results;
  if (!options.results_dir.empty()) results = load_results_argument(options.results_dir);
  const CacheModelSetting model = counting_cache_model(
      build, app, options.cache_spec, options.no_cache_model, topology::Topology::load_live(),
      results ? &*results : nullptr, "larm profile");
  const std::string model_option = model.option, model_text = model.text;
  const fs::path tool_dir = build.instrumented ? fs::path() : tool_directory("larm profile");
  const fs::path reader = build.instrumented ? plugin_runtime_library("larm profile") : fs::path();

  const fs::path out = options.out_dir;
  const results::OutputClaim claim = claim_output(out, "larm profile");
  const fs::path sampled_dir = out / "sampled", counted_dir = out / "counted",
                 native_dir = out / "native";
  for (const fs::path& dir : {sampled_dir, counted_dir, native_dir}) {
    try {
      results::ensure_output_subdirectory(dir);
    } catch (const std::runtime_error& e) {
      throw UsageError(e.what());
    }
  }
  std::error_code ec;
  // What an earlier profile counted there (its files only): this run's are read back.
  for (const auto& entry : fs::directory_iterator(counted_dir, ec)) {
    const std::string name = entry.path().filename().string();
    if (name.rfind("functions-", 0) == 0 || name == "valgrind.log") fs::remove(entry.path(), ec);
  }

  // One run without perf: whether the program runs as given (before the costlier runs), and how
  // long it takes when nothing samples it, against which each sampled run's time is shown.
  // Each run's LARM_OUT is its own directory: a program built with liblarm writes its regions
  // there, never into the directory larm was started in.
  const ProgramRun native =
      run_program(options.command, {"LARM_OUT=" + native_dir.string()}, "profile: the native run");
  check_directories_after_run({native_dir, sampled_dir, counted_dir});
  if (const int stop =
          run_stop(options, app, native, "the native run", "in its native run", "nothing kept");
      stop != 0) {
    return stop;
  }
  std::cerr << "larm profile: native run: " << fixed(native.seconds, 2) << " s, "
            << fixed(native.program_cpu_seconds, 2) << " s of CPU\n";

  // The sampled runs.
  std::vector<SampledRun> runs;
  std::vector<bool> clean;
  std::cerr << "larm profile: sampling " << event.event << " at " << options.frequency
            << " per second (" << event.note << ")\n";
  for (int k = 1; k <= options.repeat; ++k) {
    const fs::path dir = sampled_dir / ("run-" + std::to_string(k));
    results::ensure_output_subdirectory(dir);
    SampledRun run;
    try {
      run = sampled_run(options.command, dir / "perf.data", event, options.frequency);
    } catch (const std::runtime_error& e) {
      std::cerr << "larm: error: " << e.what() << "\n";
      return 1;
    }
    check_directories_after_run({sampled_dir, dir, counted_dir});
    const std::string nth = "sampled run " + std::to_string(k);
    const std::string kept = k == 1 ? std::string("nothing kept")
                                    : std::to_string(k - 1) + " finished sampled run(s) kept in " +
                                          results::printable(sampled_dir.string()) +
                                          " (perf.data: perf report -i)";
    if (const int stop = run_stop(options, app, run.run, nth, "in " + nth, kept); stop != 0) {
      return stop;
    }
    std::cerr << "larm profile: sampled run " << k << " of " << options.repeat << ": "
              << fixed(run.run.seconds, 2) << " s, " << run.run.quality() << "; the program "
              << fixed(run.program_seconds, 2) << " s under perf (native run "
              << fixed(native.seconds, 2) << " s)\n";
    clean.push_back(run.run.clean());
    runs.push_back(std::move(run));
  }

  double counting_seconds = 0;
  if (const int stop =
          build.instrumented
              ? plugin_counting_run(options, app, reader, build, counted_dir, sampled_dir, model,
                                    counting_seconds)
              : valgrind_counting_run(options, app, tool_dir, out, counted_dir, sampled_dir, model,
                                      native.seconds, counting_seconds);
      stop != 0)
    return stop;
  std::vector<fs::path> function_files;
  for (const auto& entry : fs::directory_iterator(counted_dir, ec)) {
    // The tool's files only: regular files, not links or FIFOs planted under their names.
    if (entry.path().filename().string().rfind("functions-", 0) == 0 &&
        fs::is_regular_file(fs::symlink_status(entry.path(), ec)))
      function_files.push_back(entry.path());
  }
  if (function_files.empty()) {
    std::cerr << "larm: error: "
              << (build.instrumented
                      ? app +
                            "'s native run wrote no counts per function (it ended without "
                            "exit(), or larm_plugin_runtime.so was not loaded: a static "
                            "program?)"
                      : "larm's Valgrind tool wrote no counts; see " +
                            shown_path(counted_dir / "valgrind.log"))
              << "\n";
    return 1;
  }
  const FunctionCounts counts = read_function_counts(function_files);
  Profile profile =
      build_profile(runs, clean, counts, counter, object_key(results::printable(program.string())),
                    options.top, kMinShare);
  // Where it ran (its sampled runs: this machine), and bytes per level modelled with another
  // machine's caches (--results of that machine): what a placement on other roofs says.
  profile.file.host = platform::host_name();
  profile.file.cpu_model = platform::read_cpu_info().model_name;
  profile.file.counters.cache_model_machine = model.machine;
  results::write_file_atomically(out / "regions.json",
                                 regions::to_json(profile.file).dump(2) + "\n");
  nlohmann::json table = nlohmann::json::array();
  for (const ProfiledFunction& f : profile.functions) {
    table.push_back({{"object", f.key.first},
                     {"function", short_function_name(f.key.second)},
                     {"symbol", f.key.second},
                     {"region", f.region},
                     {"share_of_samples_median", f.share},
                     {"slowest_thread_seconds_median", f.median_seconds},
                     {"time_estimator", kTimeEstimator},
                     {"threads", f.threads},
                     {"counted", f.counted},
                     {"placed", f.placed},
                     {"why", placed_text(f, counter)}});
  }
  std::vector<double> walls, spans;
  for (const SampledRun& run : runs) {
    walls.push_back(run.run.seconds);
    spans.push_back(run.program_seconds);
  }
  nlohmann::json doc = {{"format", "larm-profile"},
                        {"event", event.event},
                        {"frequency", options.frequency},
                        {"sampled_runs_seconds", walls},
                        {"native_run_seconds", native.seconds},
                        {"native_run_cpu_seconds", native.program_cpu_seconds},
                        {"sampled_runs_program_seconds", spans},
                        {"counted_by", build.instrumented ? "compiler" : "valgrind"},
                        {"cache_model", model_text},
                        {"functions", table}};
  doc["counting_run_seconds"] = counting_seconds;
  results::write_file_atomically(out / "profile.json", doc.dump(2) + "\n");

  std::cout << "Functions by their share of the samples (median over " << runs.size()
            << " sampled runs; seconds: " << kTimeEstimator << "; counts: "
            << (build.instrumented
                    ? "larm's compiler plugin (" + results::printable(build.compiler) + "), " +
                          (model_option.empty() ? std::string("without bytes per level")
                                                : "its sampled cache model, one line in " +
                                                      std::to_string(build.cache_sample))
                    : std::string("larm's Valgrind tool"))
            << ")\n\n";
  print_functions(profile, profile.file, counter);
  if (profile.kernel_share > 0)
    std::cout << "\nkernel: " << fixed(100 * profile.kernel_share, 1)
              << " % of the samples (page faults, system calls): not counted, not placed\n";
  // Nothing hot counted: verdicts on what is left (an allocator at 0.1 %) would speak for none of
  // the run.
  if (std::none_of(profile.functions.begin(), profile.functions.end(),
                   [](const ProfiledFunction& f) { return f.placed; })) {
    std::string hot;
    int named = 0;
    for (const ProfiledFunction& f : profile.functions) {
      if (f.share < kMinShare || f.key.first == "[kernel]" || f.key.second == kRuntimeIdle ||
          named == 3)
        continue;
      hot += std::string(named++ ? "; " : "") + results::printable(f.region) + " (" +
             fixed(100 * f.share, 1) + " %: " + why_not_placed(f, counter) + ")";
    }
    std::cerr << "larm: error: no function above 1 % of the samples could be placed"
              << (hot.empty() ? std::string(": the samples are in the kernel or the OpenMP runtime")
                              : ": " + hot)
              << "\n";
    return 1;
  }
  std::sort(walls.begin(), walls.end());
  std::cout << "\nsampled runs: median " << fixed(walls[walls.size() / 2], 2) << " s; "
            << "counting run " << fixed(counting_seconds, 2) << " s"
            << "\n";
  if (results) {
    roofline::PlaceOptions place_options{.access = Access::load, .access_follows_region = true};
    const results::PlaceFile placed =
        roofline::place_all(roofline::region_points(profile.file, (out / "regions.json").string()),
                            *results, place_options, options.results_dir);
    std::cout << "\n"
              << text::place_file_header(placed) << "\n"
              << text::placement_table(placed.regions, options.verbose);
    results::write_json_output(out / "place.json", results::to_json(placed),
                               results::FileFormat::place, 2);
  } else {
    std::cout << "next: larm place --results DIR " << shown_path(out / "regions.json")
              << " (DIR: a characterization of this node, larm characterize)\n";
  }
  return 0;
}

}  // namespace

void setup_profile(CLI::App& app, GlobalOptions& /*global*/, Action& action) {
  auto options = std::make_shared<ProfileOptions>();
  CLI::App* command = app.add_subcommand(
      "profile",
      "put an unmodified program's hottest functions on the LARM: Linux perf samples where its "
      "time goes, larm's Valgrind tool counts each function's FLOPs and bytes (a program built "
      "through larm-cc or larm-clang counts them itself in its native run)");
  command->add_option("--out,-o", options->out_dir, "directory of the profile")
      ->capture_default_str();
  command
      ->add_option("--top", options->top,
                   "the hottest functions placed (and every other above 1 % of the samples)")
      ->capture_default_str();
  command->add_option("--repeat", options->repeat, "sampled runs (their median)")
      ->capture_default_str();
  command->add_option("--frequency", options->frequency, "samples per second")
      ->capture_default_str();
  command->add_option("--results,-r", options->results_dir,
                      "results of this node: the functions are placed on its roofs, and the cache "
                      "model takes its effective capacities (another machine's: its caches, a "
                      "what-if)");
  command->add_flag("--verbose", options->verbose,
                    "under each placed function's headline, the evidence its verdict rests on");
  command->add_option("--cache-model", options->cache_spec, kCacheModelHelp);
  command->add_flag("--no-cache-model", options->no_cache_model,
                    "count without the cache model (faster; no bytes per level)");
  command->add_option("--allow-exit", options->allow_exit,
                      "exit statuses of the program that are not failures (repeatable)");
  command->add_option("command", options->command, "the program and its arguments, after --")
      ->required();
  command->positionals_at_end();
  command->callback([options, &action] { action = [options] { return run_profile(*options); }; });
}

}  // namespace larm::cli
