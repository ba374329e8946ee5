// larm loaded-latency: a memory's latency under load (Intel MLC's --loaded_latency, the Mess
// benchmark's bandwidth-latency curves): a pointer chase on one core of a domain while the other
// cores inject reads (or reads and writes) to the same memory at rates set by a delay between
// their accesses; per point the chase's median and p90 and the injectors' own bandwidth, per
// curve the idle latency, the saturation bandwidth and the knee.
#include <iostream>
#include <memory>
#include <string>

#include <nlohmann/json.hpp>

#include "application/program_run.h"
#include "characterize/loaded_curves.h"
#include "characterize/working_set.h"
#include "kernels/loaded_latency.h"
#include "platform/buffer.h"
#include "platform/interrupt_guard.h"
#include "report/loaded_latency_figure.h"
#include "report/text/loaded_latency_text.h"
#include "results/atomic_file.h"
#include "results/number_text.h"
#include "results/printable_text.h"
#include "results/statistics.h"
#include "roofline/loaded_latency_curve.h"
#include "tools/cli_inputs.h"
#include "tools/cli_options.h"
#include "tools/cli_outputs.h"
#include "tools/commands.h"

namespace larm::cli {

using namespace larm::application;  // the engine that runs, samples and counts programs
namespace {

struct LoadedLatencyOptions {
  int domain = 0;
  std::optional<unsigned> memory;
  std::optional<int> injectors;
  bool machine = false;  // injectors on every other core of the machine
  std::vector<std::string> mixes = {"1", "2:1", "1:1"};
  std::vector<std::uint32_t> delays = {4096, 2048, 1024, 512, 256, 128, 64, 32, 16, 8, 4, 2, 1, 0};
  int samples = 11;
  double sample_ms = 2;
  std::string results_dir;
  std::string out;
  bool json = false;
};

constexpr const char* kCurvesFile = "loaded-latency.json";

kernels::InjectorMix parse_mix(const std::string& text) {
  for (kernels::InjectorMix mix : kernels::kInjectorMixes) {
    if (text == kernels::name(mix)) return mix;
  }
  throw UsageError("--mix: '" + text + "' is not 1, 2:1 or 1:1 (reads : writes)");
}

// What the curve is compared with in a results directory: the memory's latency roof (median) and
// the contention curve's point with as many threads as injectors (median), each when measured.
struct Reference {
  std::optional<double> latency_ns;
  std::uint64_t latency_bytes = 0;  // the roof's chain, as run
  std::optional<double> curve_gbps;
  std::string curve_what;
};

Reference reference_of(const std::string& dir, int domain, unsigned memory, int injectors) {
  Reference r;
  if (dir.empty()) return r;
  const results::Results results = load_results_argument(dir);
  for (const results::LatencyPoint& p : results.latency) {
    if (p.domain == domain && p.level == Level::memory && !p.base_pages && p.memory &&
        p.memory->os_index == memory && !p.samples_ns.empty()) {
      r.latency_ns = p.stats.median;
      r.latency_bytes = p.working_set_bytes;
    }
  }
  for (const results::CurvePoint& p : results.contention_curve) {
    if (p.memory && p.memory->os_index == memory && p.access == Access::load &&
        p.threads == injectors && !p.samples.empty()) {
      r.curve_gbps = p.stats.median;
      r.curve_what = "the contention curve's " + std::to_string(injectors) + "-thread load point";
    }
  }
  return r;
}

std::string percent(double ratio) {
  return results::format_number("%+.1f", 100 * (ratio - 1)) + " %";
}

// The curves' JSON and the figure of the memory (scripts and data always, images where gnuplot
// is installed).
void write_outputs(const std::string& out, unsigned memory, const nlohmann::json& curves,
                   const std::vector<report::LoadedCurveToDraw>& drawn, bool quiet) {
  const std::filesystem::path dir = out;
  results::write_file_atomically(dir / kCurvesFile, curves.dump(2) + "\n");
  const std::filesystem::path figures = dir / "figures";
  results::ensure_output_subdirectory(figures);
  report::PlotOutcome plotted;
  report::draw_figures(
      {report::loaded_latency_figure("loaded_latency_memory_" + std::to_string(memory),
                                     "memory " + std::to_string(memory), drawn)},
      figures, {report::Format::svg, report::Format::png}, plotted);
  if (quiet) return;
  std::cout << "Curves: " << (dir / kCurvesFile).string() << "; figure: " << figures.string();
  if (!plotted.gnuplot_found) std::cout << " (gnuplot is not installed: script and data only)";
  for (const report::PlottedFigure& f : plotted.figures) {
    if (!f.error.empty()) std::cout << " (" << f.error << ")";
    for (const std::string& problem : f.problems) std::cout << " (figure check: " << problem << ")";
  }
  std::cout << "\n";
}

int run_loaded_latency(const LoadedLatencyOptions& options, const GlobalOptions& global) {
  std::vector<kernels::InjectorMix> mixes;
  for (const std::string& text : options.mixes) mixes.push_back(parse_mix(text));
  if (options.delays.empty()) throw UsageError("--delays: give at least one delay");
  const topology::Topology topology = load_topology(global);
  const topology::Domain& domain = domain_option(topology, options.domain);
  const topology::Memory* target = &memory_option(topology, domain, options.memory);
  // The chase on the domain's first core; the injectors on its other cores, then (--machine)
  // every other domain's.
  std::vector<unsigned> pus(domain.core_pus.begin(), domain.core_pus.end());
  if (options.machine) {
    for (const topology::Domain& d : topology.domains()) {
      if (d.index != domain.index) pus.insert(pus.end(), d.core_pus.begin(), d.core_pus.end());
    }
  }
  const int available = static_cast<int>(pus.size()) - 1;
  if (available < 1) {
    throw UsageError("domain " + std::to_string(options.domain) +
                     " has one core: no core is left to inject (--machine takes other domains')");
  }
  const int injectors = options.injectors.value_or(available);
  if (injectors < 1 || injectors > available) {
    throw UsageError("--injectors " + std::to_string(injectors) + ": " + std::to_string(available) +
                     " cores are left beside the chase");
  }
  pus.resize(static_cast<std::size_t>(injectors) + 1);
  const Reference reference =
      reference_of(options.results_dir, options.domain, target->os_index, injectors);
  results::OutputClaim claim;
  if (!options.out.empty()) {
    claim = claim_output(options.out, "larm loaded-latency");
    if (std::filesystem::exists(std::filesystem::path(options.out) / kCurvesFile)) {
      throw UsageError("loaded-latency curves already exist in " + options.out +
                       " (choose another --out)");
    }
  }
  const bool local = std::find(domain.local_memories.begin(), domain.local_memories.end(),
                               target->logical_index) != domain.local_memories.end();
  std::vector<report::LoadedCurveToDraw> drawn;

  // The chain of the memory's latency roof (one core's view of the declared caches); the
  // injectors together 4 x the domain's last-level cache, as a memory roof's threads.
  kernels::LoadedLatencyRequest request;
  request.chase_nodes = {target->os_index};
  request.inject_nodes = {target->os_index};
  // With --results, the chain the roof ran (sized from the caches the run found).
  request.chain_bytes =
      reference.latency_bytes > 0
          ? reference.latency_bytes
          : characterize::level_working_sets(characterize::single_core_view(domain))
                .back()
                .bytes_per_thread;
  request.injector_bytes = characterize::memory_working_set(
      domain.caches.empty() ? 0 : domain.caches.back().total_bytes, injectors);
  request.mixes = mixes;
  request.delays = options.delays;
  request.samples = options.samples;
  request.sample_seconds = options.sample_ms / 1000;
  request.keep_on_stop = true;

  const platform::Clock clock = platform::Clock::calibrate();
  platform::ThreadTeam team(topology.handle(), pus);
  // Ctrl-C or SIGTERM stops between points: the points finished are printed and written.
  const platform::InterruptGuard interrupt(/*also_terminate=*/true);
  kernels::SamplingOptions sampling;
  sampling.stop = interrupt.stop_flag();
  const kernels::DriverContext context{topology, clock, sampling};
  const kernels::LoadedLatencyResult measured =
      kernels::measure_loaded_latency(context, team, request);
  const characterize::LoadedCurveSetup setup{
      .domain = options.domain,
      .memory = topology.memory_ref(static_cast<int>(target->logical_index)),
      .local = local,
      .pus = pus,
      .chain_bytes = request.chain_bytes,
      .injector_bytes = request.injector_bytes};
  nlohmann::json curves = nlohmann::json::array();
  for (const results::LoadedLatencyCurve& record :
       characterize::loaded_curve_records(setup, mixes, &measured)) {
    const roofline::LoadedCurveSummary curve = roofline::summarize_loaded_curve(record);
    drawn.push_back({"mix " + record.mix + ", chase on domain " + std::to_string(options.domain) +
                         (local ? " (local)" : " (remote)"),
                     curve});
    nlohmann::json c = results::loaded_curve_json(record);
    c["latency_roof_ns"] = results::number_or_null(reference.latency_ns);
    c["curve_gbps"] = results::number_or_null(reference.curve_gbps);
    curves.push_back(c);
    if (options.json) continue;
    std::cout << "Loaded latency of memory " << target->os_index << ": chase on PU " << pus.front()
              << " (domain " << options.domain << "), " << injectors << " injector"
              << (injectors > 1 ? "s" : "") << ", mix " << record.mix << " (read share "
              << results::format_number("%.2f", record.read_share) << "); chain "
              << results::bytes_text(request.chain_bytes) << ", pages placed "
              << results::format_number("%.0f", 100 * measured.chain_placement) << " % / "
              << results::format_number("%.0f", 100 * measured.injector_placement) << " %\n";
    std::cout << "   delay  injectors GB/s   median ns      p90 ns\n";
    for (const results::LoadedLatencyPoint& s : record.points) {
      if (s.samples_ns.empty()) continue;
      std::cout << (s.delay ? results::format_number("%8.0f", *s.delay) : std::string("    idle"))
                << results::format_number("%17.2f", s.injector_gbps)
                << results::format_number("%12.1f", s.p50_ns)
                << results::format_number("%12.1f", s.p90_ns)
                << (s.disturbed.empty() ? "" : "  disturbed: " + s.disturbed) << "\n";
    }
    std::cout << "Idle " << (curve.idle_ns ? results::format_number("%.1f", *curve.idle_ns) : "-")
              << " ns (median); saturation "
              << results::format_number("%.2f", curve.saturation_gbps)
              << " GB/s (the injectors' most); knee "
              << (curve.knee_gbps ? results::format_number("%.2f", *curve.knee_gbps) + " GB/s"
                                  : "none: " + curve.no_knee)
              << "; " << text::monotony_text(record.medians_rise, record.rises_within_intervals)
              << "\n";
    if (reference.latency_ns && curve.idle_ns) {
      std::cout << "  idle vs the memory's latency roof ("
                << results::format_number("%.1f", *reference.latency_ns)
                << " ns, median): " << percent(*curve.idle_ns / *reference.latency_ns);
      // A disturbed idle point compares the host's load, not the memory.
      if (!record.points.empty() && !record.points.front().delay &&
          !record.points.front().disturbed.empty()) {
        std::cout << " (the idle point stays disturbed: not a measure of the memory)";
      }
      std::cout << "\n";
    }
    if (reference.curve_gbps && record.read_share == 1) {
      std::cout << "  saturation vs " << reference.curve_what << " ("
                << results::format_number("%.2f", *reference.curve_gbps)
                << " GB/s, median): " << percent(curve.saturation_gbps / *reference.curve_gbps)
                << "\n";
    }
  }
  if (options.json) std::cout << curves.dump(2) << "\n";
  if (!options.out.empty() && !measured.curves.empty())
    write_outputs(options.out, target->os_index, curves, drawn, options.json);
  if (measured.interrupted) {
    std::size_t points = 0;
    for (const kernels::LoadedLatencyCurve& c : measured.curves) points += c.points.size();
    std::cerr << "larm loaded-latency: interrupted (" << signal_name(interrupt.signal()) << "); "
              << points << " point(s) finished"
              << (options.out.empty() || points == 0
                      ? std::string(points == 0 ? ": nothing kept" : " are shown above")
                      : " are kept in " + results::printable(options.out))
              << "\n";
    return 128 + interrupt.signal();
  }
  return 0;
}

}  // namespace

void setup_loaded_latency(CLI::App& app, GlobalOptions& global, Action& action) {
  auto options = std::make_shared<LoadedLatencyOptions>();
  CLI::App* command = app.add_subcommand(
      "loaded-latency",
      "a memory's latency under load: a pointer chase on one core while the others inject "
      "traffic to the same memory at set rates (as Intel MLC's loaded latency); per curve the "
      "idle latency, saturation bandwidth and knee");
  command->add_option("--domain", options->domain,
                      "the domain whose first core chases (default 0)");
  command->add_option("--memory", options->memory,
                      "NUMA node (OS index) of the chain and the injected data (default: the "
                      "domain's local memory)");
  command->add_option("--injectors", options->injectors,
                      "injecting cores (default: every other core of the domain, or of the "
                      "machine with --machine)");
  command->add_flag("--machine", options->machine,
                    "inject from every other domain's cores too (a contention curve)");
  command
      ->add_option("--mix", options->mixes,
                   "the injectors' reads:writes, 1, 2:1 or 1:1 "
                   "(default all three)")
      ->delimiter(',');
  command
      ->add_option("--delays", options->delays,
                   "iterations of a counting loop (a few cycles each) between an injector's "
                   "accesses, one point each "
                   "(default 4096,2048,...,1,0; an idle point comes first)")
      ->delimiter(',')
      ->check(CLI::Range(0u, 1u << 24));
  command->add_option("--samples", options->samples, "chase samples per point (default 11)")
      ->check(CLI::Range(1, 1000));
  command
      ->add_option("--sample-ms", options->sample_ms,
                   "least length of a chase sample in milliseconds (default 2)")
      ->check(CLI::Range(0.1, 1000.0));
  command->add_option("--results,-r", options->results_dir,
                      "a results directory of this machine to compare with: the memory's "
                      "latency roof and contention curve");
  command->add_option("--out,-o", options->out,
                      "directory for loaded-latency.json and the memory's figure (figures/)");
  command->add_flag("--json", options->json, "print the curves as JSON");
  command->callback([options, &global, &action] {
    action = [options, &global] { return run_loaded_latency(*options, global); };
  });
}

}  // namespace larm::cli
