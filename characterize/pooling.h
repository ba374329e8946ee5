// Interleaved passes: the plan runs in passes, each taking a share of every
// measurement's samples, and each pass's records of a measurement are pooled into the records
// its first pass made. A transient slowdown of seconds then hits few samples of any one
// measurement, and a measurement whose passes disagree is found and measured again.
#pragma once

#include <cstddef>
#include <optional>
#include <utility>
#include <vector>

#include "results/records.h"

namespace larm::characterize {

// Where one measurement's records lie in the pooled results (filled by its first pass), and what
// each pass gave as its value (roof estimate, or the median for the other records).
struct RecordSlots {
  struct Range {
    std::size_t first = 0;
    std::size_t count = 0;
  };
  bool placed = false;
  Range frequency, roofs, sweep, latency, latency_sweep, shared, curve, cache_scaling, loaded;
  std::vector<double> pass_values;
  std::vector<double> pooled_values;  // the pooled value after each pass
  std::vector<double> pass_ipcs;      // FLOP ceilings: the IPC each pass measured
  // When each pooled pass ran (seconds since the run's start), and for each roof of the range
  // the samples each pass added to it, as (pass ordinal, count): what a roof is split by when the
  // host moved the run's cores between placements (state_roofs.h).
  struct PassSpan {
    double start_s = 0;
    double end_s = 0;
  };
  std::vector<PassSpan> spans;
  std::vector<std::vector<std::pair<std::size_t, std::size_t>>> roof_passes;
};

struct PoolOptions {
  int passes = 1;  // the regular ones; more are extra passes
  Estimator estimator = Estimator::p90;
  double unstable_threshold = 0.10;  // of the samples' spread, with one pass
  double pass_threshold = 0.05;      // of the passes' values, with several
};

// Adds one pass's records of a measurement (all of `pass`, which holds only them) to `pooled`:
// the first time as new records, then as more samples of the same records (statistics, roof
// value, interference, huge pages and status recomputed). Absent records of a later pass
// (a failure) leave the pooled ones as they were.
void pool_pass(results::Results& pooled, RecordSlots& slots, results::Results& pass,
               const PoolOptions& options, RecordSlots::PassSpan span = {});

// (max - min) / median of the passes' values; 0 with fewer than two.
double pass_spread(const RecordSlots& slots);

// A measurement is settled when its passes agree within pass_threshold, or when an extra pass
// moved its pooled value by no more than half of it (the value has converged); at most as many
// extra passes as regular ones are taken.
bool settled(const RecordSlots& slots, const PoolOptions& options);
bool wants_extra_pass(const RecordSlots& slots, const PoolOptions& options);

// Adaptive samples: a measurement whose interval is this tight (half width, relative
// to its value) after two passes takes no more; one wider than kLooseInterval (or whose passes
// disagree) takes extra passes while the run's --max-time allows.
inline constexpr double kTightInterval = 0.01;
inline constexpr double kLooseInterval = 0.05;

// The half width of a measurement's interval: the widest of its roofs' intervals, relative to
// each roof's value; for a record with no roof (frequency, latency, curves), half its passes'
// spread. None before two passes of a record without roofs.
std::optional<double> interval_half_width(const results::Results& pooled, const RecordSlots& slots);

// After two passes or more: the interval is within kTightInterval and the passes agree.
bool tight_enough(const results::Results& pooled, const RecordSlots& slots,
                  const PoolOptions& options);
// Not settled, or its interval wider than kLooseInterval: one more pass wanted.
bool wants_extra_pass(const results::Results& pooled, const RecordSlots& slots,
                      const PoolOptions& options);

// After the last pass: with several passes, a measurement is unstable when it has not settled
// (or interfered samples were kept), else by its samples' spread.
void settle_status(results::Results& pooled, const RecordSlots& slots, const PoolOptions& options);

}  // namespace larm::characterize
