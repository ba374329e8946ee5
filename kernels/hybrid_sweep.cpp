// The hybrid sweep: every core of one domain on page-mixed data.
#include "kernels/hybrid_sweep.h"

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <stdexcept>

#include "kernels/drivers.h"
#include "platform/progress_line.h"
#include "results/statistics.h"

namespace larm::kernels {
namespace {

using hybrid::HybridResults;
using hybrid::MeasuredPoint;
using hybrid::Transfer;

// A point whose pages on the fast memory differ from the asked share by more than this is
// misplaced (the layout itself is exact to a page).
constexpr double kMaxRatioFastError = 0.02;
// A point of the sweep or of the validation.
MeasuredPoint measure_point(const DriverContext& context, platform::ThreadTeam& team,
                            const HybridRequest& request, double ratio_read, Estimator estimator) {
  MeasuredPoint p;
  p.ratio_fast = request.ratio_fast;
  p.ratio_read = ratio_read;
  const HybridResult r = measure_hybrid(context, team, request);
  p.kernel = request.benchmark ? codegen::name(*request.benchmark) : r.kernel;
  p.gbps = r.gbps;
  p.stats = results::summarize(p.gbps);
  // The time at the estimator's bandwidth (every sample moves the same bytes), with the bytes of
  // each transfer from the pages as found.
  const double estimated_gbps = results::estimate(p.gbps, estimator);
  p.sample.seconds = estimated_gbps > 0 ? (r.bytes_read + r.bytes_written) / (estimated_gbps * 1e9)
                                        : results::median(r.seconds);
  p.sample.bytes[Transfer::lr] = r.bytes_read * r.read_fast_fraction;
  p.sample.bytes[Transfer::ll] = r.bytes_read * (1 - r.read_fast_fraction);
  p.sample.bytes[Transfer::er] = r.bytes_written * r.write_fast_fraction;
  p.sample.bytes[Transfer::el] = r.bytes_written * (1 - r.write_fast_fraction);
  p.placed_fraction = r.placed_fraction;
  const double found = p.sample.ratio_fast();
  if (p.placed_fraction < platform::kMinPlacedFraction ||
      std::abs(found - request.ratio_fast) > kMaxRatioFastError) {
    char text[160];
    std::snprintf(text, sizeof text,
                  "%.1f %% of pages where the layout wants them, %.3f on the fast memory (asked "
                  "%.3f)",
                  100 * p.placed_fraction, found, request.ratio_fast);
    p.status = Status::misplaced;
    p.status_reason = text;
  } else {
    p.status = results::is_unstable(p.stats) ? Status::unstable : Status::ok;
  }
  return p;
}

// The share of a STREAM kernel's bytes that it reads.
double stream_read_ratio(codegen::StreamBenchmark b) {
  const double reads = codegen::load_streams(b);
  return reads / (reads + codegen::store_streams(b));
}

std::vector<double> with_ends(std::vector<double> ratios) {
  ratios.push_back(0);
  ratios.push_back(1);
  std::sort(ratios.begin(), ratios.end());
  ratios.erase(std::unique(ratios.begin(), ratios.end(),
                           [](double a, double b) { return std::abs(a - b) < 1e-9; }),
               ratios.end());
  return ratios;
}

}  // namespace

bool run_hybrid_sweep(const topology::Topology& topology, const platform::Clock& clock,
                      const HybridSweepOptions& options, HybridResults& results) {
  const topology::Domain& domain = topology.domains().at(static_cast<std::size_t>(options.domain));
  platform::ThreadTeam team(topology.handle(), domain.core_pus);
  DriverContext context{topology, clock, {}};
  context.sampling.samples = options.samples;
  context.sampling.stop = options.stop;
  const HybridRequest base{.isa = options.isa,
                           .fast_node = results.fast->os_index,
                           .slow_node = results.slow->os_index,
                           .bytes_per_thread = results.bytes_per_thread};
  const std::vector<double> ratio_fast = with_ends(options.ratio_fast);
  // Each STREAM kernel is compared with the sweep at its own read ratio (thesis fig. 4.12): 1/2
  // for copy and scale, 2/3 for add and triad, 1 for ddot join the grid.
  std::vector<double> ratio_read = options.ratio_read;
  if (options.validation) {
    for (codegen::StreamBenchmark b : codegen::all_stream_benchmarks()) {
      ratio_read.push_back(stream_read_ratio(b));
    }
  }
  ratio_read = with_ends(ratio_read);
  const std::size_t total = ratio_fast.size() * ratio_read.size() +
                            (options.validation ? 5 * options.validation_ratio_fast.size() : 0);
  std::size_t done = 0;
  platform::ProgressLine progress(options.quiet);
  const auto report = [&](const std::string& what) {
    ++done;
    progress.update("[" + std::to_string(done) + "/" + std::to_string(total) + "] " + what);
    if (options.on_point) options.on_point(results);
  };
  try {
    for (double r : ratio_read) {
      for (double f : ratio_fast) {
        HybridRequest request = base;
        request.ratio_fast = f;
        request.ratio_read = r;
        results.sweep.push_back(measure_point(context, team, request, r, options.estimator));
        report(results.sweep.back().kernel + " ratio_fast " + std::to_string(f));
      }
    }
    if (options.validation) {
      for (codegen::StreamBenchmark b : codegen::all_stream_benchmarks()) {
        const double ratio = stream_read_ratio(b);
        for (double f : options.validation_ratio_fast) {
          HybridRequest request = base;
          request.ratio_fast = f;
          request.benchmark = b;
          results.validation.push_back(
              measure_point(context, team, request, ratio, options.estimator));
          report(std::string(codegen::name(b)) + " ratio_fast " + std::to_string(f));
        }
      }
    }
  } catch (const Interrupted&) {
    progress.finish();
    results.complete = false;
    results.incomplete_reason = "interrupted";
    return false;
  }
  progress.finish();
  results.complete = true;
  return true;
}

}  // namespace larm::kernels
