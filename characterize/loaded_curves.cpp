// Loaded-latency records from a measurement.
#include "characterize/loaded_curves.h"

#include "platform/buffer.h"
#include "results/statistics.h"
#include "roofline/loaded_latency_curve.h"

namespace larm::characterize {
namespace {

results::LoadedLatencyCurve describe(const LoadedCurveSetup& setup, kernels::InjectorMix mix) {
  results::LoadedLatencyCurve c;
  c.domain = setup.domain;
  c.memory = setup.memory;
  c.local = setup.local;
  c.mix = kernels::name(mix);
  c.read_share = kernels::read_share(mix);
  if (!setup.pus.empty()) {
    c.chase_pu = setup.pus.front();
    c.injector_pus.assign(setup.pus.begin() + 1, setup.pus.end());
  }
  c.chain_bytes = setup.chain_bytes;
  c.injector_bytes = setup.injector_bytes;
  return c;
}

}  // namespace

std::vector<results::LoadedLatencyCurve> loaded_curve_records(
    const LoadedCurveSetup& setup, const std::vector<kernels::InjectorMix>& mixes,
    const kernels::LoadedLatencyResult* measured, const std::string& reason) {
  std::vector<results::LoadedLatencyCurve> records;
  if (measured == nullptr) {
    for (kernels::InjectorMix mix : mixes) {
      results::LoadedLatencyCurve c = describe(setup, mix);
      c.status = Status::absent;
      c.status_reason = reason;
      records.push_back(std::move(c));
    }
    return records;
  }
  for (const kernels::LoadedLatencyCurve& curve : measured->curves) {
    results::LoadedLatencyCurve c = describe(setup, curve.mix);
    c.chain_bytes = measured->chain_bytes;
    c.chain_placement = measured->chain_placement;
    c.injector_placement = measured->injector_placement;
    for (const kernels::LoadedLatencyPoint& p : curve.points) {
      results::LoadedLatencyPoint point;
      point.delay = p.delay;
      point.injector_gbps = p.injector_gbps;
      point.samples_ns = p.chase_ns;
      point.p10_ns = results::quantile(p.chase_ns, 0.1);
      point.p50_ns = results::quantile(p.chase_ns, 0.5);
      point.p90_ns = results::quantile(p.chase_ns, 0.9);
      point.interference = p.interference;
      point.disturbed = p.disturbed;
      if (!p.disturbed.empty() && c.status == Status::ok) {
        c.status = Status::unstable;
        c.status_reason = std::string(p.delay ? "the point at delay " + std::to_string(*p.delay)
                                              : std::string("the idle point")) +
                          " stays disturbed: " + p.disturbed;
      }
      c.points.push_back(std::move(point));
    }
    const roofline::LoadedCurveSummary summary = roofline::summarize_loaded_curve(c);
    c.idle_ns = summary.idle_ns;
    c.saturation_gbps = summary.saturation_gbps;
    c.knee_gbps = summary.knee_gbps;
    c.no_knee = summary.no_knee;
    c.rises_within_intervals = summary.rises_within_intervals;
    c.medians_rise = summary.medians_rise;
    if (measured->chain_placement < platform::kMinPlacedFraction ||
        measured->injector_placement < platform::kMinPlacedFraction) {
      c.status = Status::misplaced;
      c.status_reason.clear();
    }
    records.push_back(std::move(c));
  }
  return records;
}

}  // namespace larm::characterize
