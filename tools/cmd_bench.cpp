// larm bench: one bandwidth roof's kernel, alone, on a working set, threads and memory of the
// user's choosing — what likwid-bench -t does for one of its kernels. A characterization
// measures dozens of roofs over minutes; on a shared host whose L3 and memory bandwidth move over
// seconds, comparing a roof with another tool needs both measured within seconds of
// each other, and tuning a kernel needs it run alone. It runs exactly what the roof runs: the
// level's kernel (codegen's roof_unroll), the domain's cores, data bound to the memory and
// first-touched by its thread, the sampler with its interference watch, the run's estimator.
#include <iostream>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "characterize/plan.h"
#include "codegen/isa.h"
#include "kernels/drivers.h"
#include "platform/buffer.h"
#include "results/number_text.h"
#include "results/statistics.h"
#include "tools/cli_inputs.h"
#include "tools/cli_options.h"
#include "tools/cli_plan.h"
#include "tools/commands.h"

namespace larm::cli {

namespace {

struct BenchOptions {
  Access access = Access::load;
  std::string working_set;  // per thread, all streams together
  std::string workgroup;    // likwid-bench's -w DOMAIN:SIZE[:THREADS], SIZE for the group
  std::string group_size;   // its SIZE (apply_workgroup)
  std::string test;         // likwid-bench's -t TEST: an access and an ISA
  Level level = Level::L1;
  bool level_given = false;  // --level named: the roof's kernel form
  std::optional<int> unroll;
  std::string isa;
  int domain = 0;
  std::optional<int> threads;
  std::optional<unsigned> memory;  // OS index
  int samples = 11;
  double sample_ms = 10;
  int repeat = 1;
  Estimator estimator = Estimator::p90;
  bool json = false;
};

std::string percent_text(double fraction) {
  return results::format_number("%.0f", fraction * 100) + " %";
}

// likwid-bench's -t names: ACCESS[_ISA], ACCESS one of larm's (load, store, copy, store-nt) or
// likwid's store_mem (non-temporal stores), ISA likwid's suffix (sse, avx, avx512, sve).
void apply_likwid_test(const std::string& test, BenchOptions& options) {
  static const std::vector<std::pair<std::string, std::string>> isa_suffixes = {
      {"_avx512", "avx512"}, {"_avx", "avx2"}, {"_sse", "sse2"}, {"_sve", "sve"}};
  std::string access = test;
  for (const auto& [suffix, isa] : isa_suffixes) {
    if (access.size() > suffix.size() &&
        access.compare(access.size() - suffix.size(), suffix.size(), suffix) == 0) {
      access.resize(access.size() - suffix.size());
      if (!options.isa.empty() && options.isa != isa) {
        throw UsageError("-t " + test + " runs " + isa + " kernels, --isa asks " + options.isa);
      }
      options.isa = isa;
      break;
    }
  }
  if (access == "store_mem") access = "store-nt";
  const std::optional<Access> parsed = parse<Access>(access);
  if (!parsed) {
    throw UsageError("-t '" + test + "': not a test larm runs (" + word_list<Access>() +
                     ", likwid-bench's store_mem; each with _sse, _avx, _avx512 or _sve)");
  }
  options.access = *parsed;
}

// likwid-bench's -w DOMAIN:SIZE[:THREADS]: SIZE is the whole group's, split evenly over its
// threads, where --working-set is each thread's. DOMAIN: a larm domain's index, or likwid's M<k>
// (NUMA domain k), which is larm's domain k.
void apply_workgroup(const std::string& text, BenchOptions& options) {
  const std::vector<std::string> parts = split(text, ':');
  const std::string form = "-w '" + text.substr(0, 60) + "'";
  if (parts.size() < 2 || parts.size() > 3) {
    throw UsageError(form + ": not DOMAIN:SIZE[:THREADS] (e.g. M0:1GB:2)");
  }
  std::string domain = parts[0];
  if (!domain.empty() && domain[0] == 'M') domain.erase(0, 1);
  const std::optional<double> index = whole_number(domain);
  if (!index || *index < 0 || *index != static_cast<int>(*index)) {
    throw UsageError(form + ": domain '" + parts[0] + "' is not a domain index or M<k>");
  }
  options.domain = static_cast<int>(*index);
  options.group_size = parts[1];
  if (parts.size() == 3) {
    const std::optional<double> threads = whole_number(parts[2]);
    if (!threads || *threads < 1 || *threads > 4096 || *threads != static_cast<int>(*threads)) {
      throw UsageError(form + ": '" + parts[2] + "' is not a number of threads");
    }
    options.threads = static_cast<int>(*threads);
  }
}

int run_bench(BenchOptions options, const GlobalOptions& global) {
  if (!options.test.empty()) apply_likwid_test(options.test, options);
  if (options.workgroup.empty() == options.working_set.empty()) {
    throw UsageError(
        "give the working set: --working-set SIZE (per thread) or -w "
        "DOMAIN:SIZE[:THREADS] (likwid-bench's, SIZE for all the threads)");
  }
  if (!options.workgroup.empty()) apply_workgroup(options.workgroup, options);
  const topology::Topology topology = load_topology(global);
  const topology::Domain& domain = domain_option(topology, options.domain);
  const int cores = static_cast<int>(domain.core_pus.size());
  const int threads = options.threads.value_or(cores);
  if (threads < 1 || threads > cores) {
    throw UsageError("--threads " + std::to_string(threads) + ": domain " +
                     std::to_string(options.domain) + " has " + std::to_string(cores) + " cores");
  }
  const topology::Memory* target = &memory_option(topology, domain, options.memory);
  const unsigned memory = target->os_index;
  const larm::Isa isa = isa_option(options.isa, true).value_or(codegen::widest_usable_isa());
  const std::uint64_t working_set =
      options.workgroup.empty()
          ? parse_bytes(options.working_set, "--working-set")
          : parse_bytes(options.group_size, "-w") / static_cast<unsigned>(threads);
  // Every thread's buffers are first-touched: more than half the memory would make the kernel
  // kill the process (or another) for it, not print an error.
  if (target->bytes > 0 && working_set > target->bytes / 2 / static_cast<std::uint64_t>(threads)) {
    throw UsageError("a working set of " + results::bytes_text(working_set) + " x " +
                     std::to_string(threads) + " threads is more than half of memory " +
                     std::to_string(memory) + " (" + results::bytes_text(target->bytes) + ")");
  }
  const codegen::StreamSpec spec{
      .isa = isa,
      .access = options.access,
      .unroll = options.unroll        ? *options.unroll
                : options.level_given ? codegen::roof_unroll(isa, options.level, options.access)
                                      : 0};

  const platform::Clock clock = platform::Clock::calibrate();
  std::vector<unsigned> pus(domain.core_pus.begin(), domain.core_pus.begin() + threads);
  platform::ThreadTeam team(topology.handle(), pus);
  kernels::SamplingOptions sampling;
  sampling.samples = options.samples;
  sampling.min_sample_seconds = options.sample_ms / 1000;
  const kernels::DriverContext context{topology, clock, sampling};

  for (int r = 0; r < options.repeat; ++r) {
    const kernels::BandwidthResult result = kernels::measure_bandwidth(
        context, team, {.spec = spec, .nodes = {memory}, .working_set_bytes = working_set});
    const results::SampleStats stats = results::summarize(result.gbps);
    const double value = results::estimate(result.gbps, options.estimator);
    const bool placed = result.placement_fraction >= platform::kMinPlacedFraction;
    if (options.json) {
      nlohmann::json line = {{"access", name(options.access)},
                             {"isa", codegen::name(isa)},
                             {"kernel", spec.name()},
                             {"unroll", spec.effective_unroll()},
                             {"domain", options.domain},
                             {"threads", threads},
                             {"pus", pus},
                             {"memory", memory},
                             {"working_set_bytes", result.working_set_bytes},
                             {"estimator", name(options.estimator)},
                             {"gbps", value},
                             {"median_gbps", stats.median},
                             {"min_gbps", stats.min},
                             {"max_gbps", stats.max},
                             {"samples_gbps", result.gbps},
                             {"placement_fraction", result.placement_fraction},
                             {"interfered_samples", result.interference.samples},
                             {"interfered_kept", result.interference.kept}};
      line["huge_page_fraction"] = result.huge_page_fraction
                                       ? nlohmann::json(*result.huge_page_fraction)
                                       : nlohmann::json(nullptr);
      std::cout << line.dump() << std::endl;
    } else {
      std::cout << spec.name() << ", " << threads << " thread" << (threads > 1 ? "s" : "")
                << " of domain " << options.domain << ", "
                << results::bytes_text(result.working_set_bytes) << " per thread on memory "
                << memory << ": " << results::format_number("%.1f", value) << " GB/s ("
                << name(options.estimator) << " of " << result.gbps.size() << " samples; median "
                << results::format_number("%.1f", stats.median) << ", min "
                << results::format_number("%.1f", stats.min) << ", max "
                << results::format_number("%.1f", stats.max) << "); pages on memory " << memory
                << " " << percent_text(result.placement_fraction);
      if (result.huge_page_fraction) {
        std::cout << ", huge pages " << percent_text(*result.huge_page_fraction);
      }
      std::cout << "; " << result.interference.samples << " interfered ("
                << result.interference.kept << " kept)" << std::endl;
    }
    if (!placed) {
      std::cerr << "larm: warning: " << percent_text(result.placement_fraction)
                << " of the pages on memory " << memory << ", not the "
                << percent_text(platform::kMinPlacedFraction) << " a roof needs\n";
    }
  }
  return 0;
}

}  // namespace

void setup_bench(CLI::App& app, GlobalOptions& global, Action& action) {
  auto options = std::make_shared<BenchOptions>();
  CLI::App* command = app.add_subcommand(
      "bench",
      "run one bandwidth roof's kernel alone on a working set, threads and memory you choose "
      "(as likwid-bench -t runs one kernel) and print its GB/s");
  add_access_option(*command, options->access, "the access: load, store, store-nt, copy, 2ld1st");
  command->add_option("--working-set", options->working_set,
                      "bytes per thread, all streams together, e.g. 16K, 2MiB, 64M (this or -w); "
                      "likwid-bench's -w size is the whole group's: -w M0:1GB:2 is 512 MiB per "
                      "thread here");
  add_word_option(*command, "--level", options->level,
                  "run the kernel this level's roof runs (default: the generator's own form)",
                  {Level::L1, Level::L2, Level::L3, Level::L4, Level::L5, Level::memory})
      ->default_str("");
  command
      ->add_option("--unroll", options->unroll,
                   "vector accesses per stream per loop iteration (default: the level's roof's, "
                   "else the generator's)")
      ->check(CLI::Range(1, 1024));
  command->add_option("--isa", options->isa, "ISA of the kernel (default: the widest usable)");
  command->add_option("--domain", options->domain, "the domain whose cores run it (default 0)");
  command->add_option("--threads", options->threads,
                      "threads, one per core of the domain in order (default: all its cores, "
                      "as its roofs)");
  command->add_option("--memory", options->memory,
                      "NUMA node (OS index) of the data (default: the domain's local memory)");
  command->add_option("--samples", options->samples, "samples (default 11)")
      ->check(CLI::Range(1, 10000));
  command
      ->add_option("--sample-ms", options->sample_ms,
                   "least length of a sample in milliseconds (default 10)")
      ->check(CLI::Range(1.0, 1000.0));
  command->add_option("--repeat", options->repeat, "measurements in a row, a line each (default 1)")
      ->check(CLI::Range(1, 100000));
  add_estimator_option(*command, options->estimator, "the printed value");
  command->add_flag("--json", options->json, "print each measurement as one line of JSON");
  command
      ->add_option("-w", options->workgroup,
                   "likwid-bench's workgroup, DOMAIN:SIZE[:THREADS]: SIZE for all the "
                   "threads together, split evenly; DOMAIN a domain index or M<k>")
      ->excludes("--working-set")
      ->excludes("--domain");
  command
      ->add_option("-t", options->test,
                   "likwid-bench's test name: ACCESS[_sse|_avx|_avx512|_sve], ACCESS as "
                   "--access or store_mem (non-temporal stores); the suffix sets --isa")
      ->excludes("--access");
  command->callback([options, command, &global, &action] {
    options->level_given = command->count("--level") > 0;
    action = [options, &global] { return run_bench(*options, global); };
  });
}

}  // namespace larm::cli
