// Pooling of interleaved passes.
#include "characterize/pooling.h"

#include <algorithm>
#include <cmath>
#include <type_traits>

#include "results/statistics.h"

namespace larm::characterize {
namespace {

void lowest(std::optional<double>& into, const std::optional<double>& from) {
  if (from) into = into ? std::min(*into, *from) : *from;
}

bool present(const results::FrequencyRecord& f) {
  return !f.samples_hz.empty();
}
bool present(const results::Roof& r) {
  return r.present();
}
bool present(const results::StreamMeasurement& s) {
  return !s.samples.empty();
}
bool present(const results::ChasePoint& p) {
  return !p.samples_ns.empty();
}

void append(std::vector<double>& into, const std::vector<double>& from) {
  into.insert(into.end(), from.begin(), from.end());
}

template <typename T>
bool open_status(const T& record) {
  return record.status == Status::ok || record.status == Status::unstable;
}

void merge(results::FrequencyRecord& into, const results::FrequencyRecord& from,
           const PoolOptions&) {
  append(into.samples_hz, from.samples_hz);
  append(into.imul_samples_hz, from.imul_samples_hz);
  into.stats = results::summarize(into.samples_hz);
  into.interference += from.interference;
}

// What every record with samples pools the same way: samples, statistics, interference, huge
// pages and status.
template <typename T>
void merge_samples(T& into, const T& from, std::vector<double> T::*samples,
                   const PoolOptions& options) {
  append(into.*samples, from.*samples);
  into.stats = results::summarize(into.*samples);
  into.interference += from.interference;
  lowest(into.huge_page_fraction, from.huge_page_fraction);
  if (from.status == Status::misplaced) into.status = Status::misplaced;
  if (open_status(into)) {
    into.status =
        results::sampled_status(into.stats, into.interference, options.unstable_threshold);
  }
}

// A pass's value of a roof, and the interval of the pooled value (results/roof_interval.h).
void add_pass_value(results::Roof& roof, const std::vector<double>& pass_samples,
                    const PoolOptions& options) {
  if (pass_samples.empty()) return;
  roof.pass_values.push_back(results::estimate(pass_samples, options.estimator));
  roof.interval = results::roof_interval(roof.samples, roof.pass_values, options.estimator);
}

void merge(results::Roof& into, const results::Roof& from, const PoolOptions& options) {
  lowest(into.placement_fraction, from.placement_fraction);
  merge_samples(into, from, &results::Roof::samples, options);
  into.roof = results::estimate(into.samples, options.estimator);
  add_pass_value(into, from.samples, options);
}

void merge(results::StreamMeasurement& into, const results::StreamMeasurement& from,
           const PoolOptions& options) {
  merge_samples(into, from, &results::StreamMeasurement::samples, options);
}

void merge(results::ChasePoint& into, const results::ChasePoint& from, const PoolOptions& options) {
  merge_samples(into, from, &results::ChasePoint::samples_ns, options);
}

void merge(results::LatencyPoint& into, const results::LatencyPoint& from,
           const PoolOptions& options) {
  const double hz_times_1e9 = into.stats.median > 0 ? into.cycles / into.stats.median : 0;
  merge(static_cast<results::ChasePoint&>(into), from, options);
  into.cycles = into.stats.median * hz_times_1e9;
}

// First pass: the records go in as they are, and their place is remembered.
template <typename T>
void place(std::vector<T>& pooled, std::vector<T>& pass, RecordSlots::Range& range) {
  range.first = pooled.size();
  range.count = pass.size();
  for (T& record : pass) pooled.push_back(std::move(record));
}

template <typename T>
void add_samples(std::vector<T>& pooled, const std::vector<T>& pass,
                 const RecordSlots::Range& range, const PoolOptions& options) {
  if (pass.size() != range.count) return;  // a pass that failed differently: keep what we have
  for (std::size_t i = 0; i < range.count; ++i) {
    if (!present(pass[i])) continue;
    T& into = pooled[range.first + i];
    if (!present(into)) {
      into = pass[i];  // absent the first time (it failed then), measured now
      if constexpr (std::is_same_v<T, results::Roof>) add_pass_value(into, into.samples, options);
    } else {
      merge(into, pass[i], options);
    }
  }
}

// The value of the first present record in a range of records.
template <typename T, typename Value>
std::optional<double> first_value(const std::vector<T>& records, RecordSlots::Range range,
                                  Value value) {
  for (std::size_t i = range.first; i < range.first + range.count; ++i) {
    if (present(records[i])) return value(records[i]);
  }
  return std::nullopt;
}

// A measurement's value in some records: its first roof's, else its first record's median.
std::optional<double> value_of(const results::Results& r, const RecordSlots& slots) {
  const auto median = [](const auto& record) { return record.stats.median; };
  if (auto v = first_value(r.roofs, slots.roofs, [](const auto& roof) { return roof.roof; })) {
    return v;
  }
  if (auto v = first_value(r.frequency, slots.frequency, median)) return v;
  if (auto v = first_value(r.sweep, slots.sweep, median)) return v;
  if (auto v = first_value(r.shared, slots.shared, median)) return v;
  if (auto v = first_value(r.contention_curve, slots.curve, median)) return v;
  if (auto v = first_value(r.cache_scaling, slots.cache_scaling, median)) return v;
  if (auto v = first_value(r.latency_sweep, slots.latency_sweep, median)) return v;
  return first_value(r.latency, slots.latency, median);
}

// The slots of a pass's results, which hold one measurement's records only: all of them.
RecordSlots whole(const results::Results& pass) {
  RecordSlots slots;
  slots.frequency.count = pass.frequency.size();
  slots.roofs.count = pass.roofs.size();
  slots.sweep.count = pass.sweep.size();
  slots.latency.count = pass.latency.size();
  slots.latency_sweep.count = pass.latency_sweep.size();
  slots.shared.count = pass.shared.size();
  slots.curve.count = pass.contention_curve.size();
  slots.cache_scaling.count = pass.cache_scaling.size();
  slots.loaded.count = pass.loaded_latency.size();
  return slots;
}

}  // namespace

void pool_pass(results::Results& pooled, RecordSlots& slots, results::Results& pass,
               const PoolOptions& options, RecordSlots::PassSpan span) {
  slots.spans.push_back(span);
  const std::size_t ordinal = slots.spans.size() - 1;
  if (const auto value = value_of(pass, whole(pass))) slots.pass_values.push_back(*value);
  pooled.warnings.insert(pooled.warnings.end(), pass.warnings.begin(), pass.warnings.end());
  for (const results::Roof& r : pass.roofs) {
    if (r.instructions_per_cycle) slots.pass_ipcs.push_back(*r.instructions_per_cycle);
  }
  if (!slots.placed) {
    place(pooled.frequency, pass.frequency, slots.frequency);
    place(pooled.roofs, pass.roofs, slots.roofs);
    slots.roof_passes.assign(slots.roofs.count, {});
    for (std::size_t i = slots.roofs.first; i < slots.roofs.first + slots.roofs.count; ++i) {
      add_pass_value(pooled.roofs[i], pooled.roofs[i].samples, options);
      if (pooled.roofs[i].present()) {
        slots.roof_passes[i - slots.roofs.first] = {{ordinal, pooled.roofs[i].samples.size()}};
      }
    }
    place(pooled.sweep, pass.sweep, slots.sweep);
    place(pooled.latency, pass.latency, slots.latency);
    place(pooled.latency_sweep, pass.latency_sweep, slots.latency_sweep);
    place(pooled.shared, pass.shared, slots.shared);
    place(pooled.contention_curve, pass.contention_curve, slots.curve);
    place(pooled.cache_scaling, pass.cache_scaling, slots.cache_scaling);
    // Measured in one pass (plan.h, first_pass_only): placed, never pooled.
    place(pooled.loaded_latency, pass.loaded_latency, slots.loaded);
    slots.placed = true;
    if (const auto value = value_of(pooled, slots)) slots.pooled_values.push_back(*value);
    return;
  }
  add_samples(pooled.frequency, pass.frequency, slots.frequency, options);
  // Which samples each pass added to each roof, as add_samples pools them.
  if (pass.roofs.size() == slots.roofs.count) {
    for (std::size_t k = 0; k < slots.roofs.count; ++k) {
      if (!pass.roofs[k].present()) continue;
      auto& passes = slots.roof_passes[k];
      if (!pooled.roofs[slots.roofs.first + k].present()) passes.clear();
      passes.emplace_back(ordinal, pass.roofs[k].samples.size());
    }
  }
  add_samples(pooled.roofs, pass.roofs, slots.roofs, options);
  add_samples(pooled.sweep, pass.sweep, slots.sweep, options);
  add_samples(pooled.latency, pass.latency, slots.latency, options);
  add_samples(pooled.latency_sweep, pass.latency_sweep, slots.latency_sweep, options);
  add_samples(pooled.shared, pass.shared, slots.shared, options);
  add_samples(pooled.contention_curve, pass.contention_curve, slots.curve, options);
  add_samples(pooled.cache_scaling, pass.cache_scaling, slots.cache_scaling, options);
  // A ceiling's IPC: the median over the passes.
  if (!slots.pass_ipcs.empty() && slots.roofs.count == 1) {
    results::Roof& roof = pooled.roofs[slots.roofs.first];
    if (roof.instructions_per_cycle) roof.instructions_per_cycle = results::median(slots.pass_ipcs);
  }
  if (const auto value = value_of(pooled, slots)) slots.pooled_values.push_back(*value);
}

bool settled(const RecordSlots& slots, const PoolOptions& options) {
  if (pass_spread(slots) <= options.pass_threshold) return true;
  const std::size_t n = slots.pooled_values.size();
  if (static_cast<int>(slots.pass_values.size()) <= options.passes || n < 2) return false;
  const double before = slots.pooled_values[n - 2];
  return before > 0 &&
         std::abs(slots.pooled_values[n - 1] - before) / before <= options.pass_threshold / 2;
}

bool wants_extra_pass(const RecordSlots& slots, const PoolOptions& options) {
  return slots.placed && slots.pass_values.size() >= 2 && !settled(slots, options) &&
         static_cast<int>(slots.pass_values.size()) < 2 * options.passes;
}

std::optional<double> interval_half_width(const results::Results& pooled,
                                          const RecordSlots& slots) {
  std::optional<double> widest;
  for (std::size_t i = slots.roofs.first; i < slots.roofs.first + slots.roofs.count; ++i) {
    const results::Roof& roof = pooled.roofs[i];
    if (!roof.present() || !roof.interval || roof.roof <= 0) continue;
    widest = std::max(widest.value_or(0.0), roof.interval->half_width(roof.roof));
  }
  if (widest || slots.roofs.count > 0) return widest;
  if (slots.pass_values.size() < 2) return std::nullopt;
  return pass_spread(slots) / 2;
}

bool tight_enough(const results::Results& pooled, const RecordSlots& slots,
                  const PoolOptions& options) {
  if (!slots.placed || slots.pass_values.size() < 2 || !settled(slots, options)) return false;
  const auto half = interval_half_width(pooled, slots);
  return half && *half <= kTightInterval;
}

bool wants_extra_pass(const results::Results& pooled, const RecordSlots& slots,
                      const PoolOptions& options) {
  if (wants_extra_pass(slots, options)) return true;  // its passes disagree
  if (!slots.placed || slots.pass_values.size() < 2 ||
      static_cast<int>(slots.pass_values.size()) >= 2 * options.passes) {
    return false;
  }
  const auto half = interval_half_width(pooled, slots);
  return half && *half > kLooseInterval;
}

double pass_spread(const RecordSlots& slots) {
  if (slots.pass_values.size() < 2) return 0;
  const auto [lo, hi] = std::minmax_element(slots.pass_values.begin(), slots.pass_values.end());
  const double middle = results::median(slots.pass_values);
  return middle > 0 ? (*hi - *lo) / middle : 0;
}

void settle_status(results::Results& pooled, const RecordSlots& slots, const PoolOptions& options) {
  if (!slots.placed || slots.pass_values.size() < 2) return;
  const bool passes_disagree = !settled(slots, options);
  auto settle = [&](auto& records, const RecordSlots::Range& range) {
    for (std::size_t i = range.first; i < range.first + range.count; ++i) {
      auto& record = records[i];
      if (!open_status(record)) continue;
      record.status =
          passes_disagree || record.interference.kept > 0 ? Status::unstable : Status::ok;
    }
  };
  settle(pooled.roofs, slots.roofs);
  settle(pooled.sweep, slots.sweep);
  settle(pooled.latency, slots.latency);
  settle(pooled.latency_sweep, slots.latency_sweep);
  settle(pooled.shared, slots.shared);
  settle(pooled.contention_curve, slots.curve);
  settle(pooled.cache_scaling, slots.cache_scaling);
}

}  // namespace larm::characterize
