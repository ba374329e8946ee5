// The adaptive size sweeps of one run.
#include "characterize/adaptive_sweeps.h"

#include <algorithm>

#include "characterize/working_set.h"

namespace larm::characterize {

std::optional<std::uint64_t> AdaptiveSweeps::limit(const PlannedMeasurement& m) const {
  std::optional<std::uint64_t> end = probed_end(m);
  auto load = key(m);
  if (std::get<3>(load) >= 0 && std::get<3>(load) != static_cast<int>(Access::load)) {
    std::get<3>(load) = static_cast<int>(Access::load);
    const auto it = series_.find(load);
    if (it != series_.end() && it->second.stopped_at()) {
      end = std::min(end.value_or(*it->second.stopped_at()), *it->second.stopped_at());
    }
  }
  return end;
}

std::optional<double> AdaptiveSweeps::cost(const PlannedMeasurement& m,
                                           const results::Results& results,
                                           const RecordSlots& slots) {
  // The median of the point's first record, when it has one.
  const auto median = [](const auto& records, RecordSlots::Range range) -> std::optional<double> {
    if (range.count == 0 || records[range.first].stats.count == 0 ||
        records[range.first].stats.median <= 0) {
      return std::nullopt;
    }
    return records[range.first].stats.median;
  };
  if (m.kind == MeasurementKind::capacity)
    return median(results.latency_sweep, slots.latency_sweep);
  const auto gbps = median(results.sweep, slots.sweep);
  return gbps ? std::optional(1 / *gbps) : std::nullopt;
}

nlohmann::json AdaptiveSweeps::stops() const {
  nlohmann::json out = nlohmann::json::array();
  for (const auto& [k, s] : series_) {
    if (!s.stopped_at()) continue;
    const auto kind = static_cast<MeasurementKind>(std::get<0>(k));
    out.push_back(
        {{"sweep", kind == MeasurementKind::capacity ? "latency" : "bandwidth"},
         {"domain", std::get<1>(k)},
         {"threads", std::get<2>(k)},
         {"access",
          kind == MeasurementKind::capacity ? "" : name(static_cast<Access>(std::get<3>(k)))},
         {"memory_plateau_at_bytes", *s.stopped_at()}});
  }
  return out;
}

SweepSeries& AdaptiveSweeps::series_of(const Key& k) {
  auto it = series_.find(k);
  if (it == series_.end()) {
    const auto& domain = topology_.domains()[static_cast<std::size_t>(std::get<1>(k))];
    const int threads = static_cast<int>(std::get<2>(k));
    // The chase runs on one core, whose caches are its own.
    const topology::Domain view =
        threads == 1 ? single_core_view(domain) : topology::Domain(domain);
    const bool chase = std::get<0>(k) == static_cast<int>(MeasurementKind::capacity);
    it = series_
             .emplace(k, SweepSeries(chase ? chase_curve_limits(view)
                                           : sweep_curve_limits(view, threads)))
             .first;
  }
  return it->second;
}

std::optional<std::uint64_t> AdaptiveSweeps::probed_end(const PlannedMeasurement& m) const {
  if (usable_llc_fraction_ >= 1) return {};
  const topology::Domain usable =
      usable_view(topology_.domains()[static_cast<std::size_t>(m.domain)], usable_llc_fraction_);
  if (usable.caches.empty()) return {};
  if (m.kind == MeasurementKind::capacity) {
    return std::max<std::uint64_t>(4 * single_core_view(usable).caches.back().instance_bytes,
                                   kSweepLeastBytes);
  }
  const std::uint64_t threads = std::max<std::size_t>(m.pus.size(), 1);
  const std::uint64_t per_thread = threads == 1
                                       ? single_core_view(usable).caches.back().instance_bytes
                                       : usable.caches.back().total_bytes / threads;
  return std::max(8 * per_thread, (kSweepLeastBytes + threads - 1) / threads);
}

}  // namespace larm::characterize
