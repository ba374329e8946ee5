// Execution of a plan into result records: its passes, adaptive sweeps and samples, extra
// passes, placement probes and journal, over a Measurer (measurement.h).
#include "characterize/characterize.h"

#include <algorithm>
#include <map>
#include <string>
#include <tuple>

#include "characterize/adaptive_sweeps.h"
#include "characterize/distinct_levels.h"
#include "characterize/effective_sizing.h"
#include "characterize/placement_log.h"
#include "characterize/pooling.h"
#include "characterize/run_warnings.h"
#include "characterize/state_roofs.h"

namespace larm::characterize {
namespace {

// Sorts each run of consecutive records with the same key (one sweep's points) by working set.
template <typename Record, typename Key>
void sort_each_run(std::vector<Record>& records, Key key) {
  for (auto first = records.begin(); first != records.end();) {
    const auto last =
        std::find_if(first, records.end(), [&](const Record& r) { return key(r) != key(*first); });
    std::stable_sort(first, last, [](const Record& a, const Record& b) {
      return a.working_set_bytes < b.working_set_bytes;
    });
    first = last;
  }
}

// One run of a plan: its passes in rotated order, its adaptive sweeps, the extra passes of the
// measurements whose passes disagree, and what they share (the records' slots, the run's clock,
// the progress estimate, the placement probes).
class PlanRun {
 public:
  PlanRun(const topology::Topology& topology, const Plan& plan, Measurer& measurer,
          const RunOptions& options, results::Results& results)
      : topology_(topology),
        plan_(plan),
        measurer_(measurer),
        options_(options),
        results_(results),
        pool_{.passes = std::max(1, options.passes),
              .estimator = options.estimator,
              .unstable_threshold = options.unstable_threshold,
              .pass_threshold = options.pass_threshold},
        passes_(pool_.passes),  // at least one
        count_(plan.measurements.size()),
        slots_(count_),
        repetitions_(count_, 0),
        estimated_total_(plan.estimated_seconds),
        sizing_(topology, plan),
        sweeps_(topology, plan.usable_llc_fraction) {
    const auto sweep_points =
        static_cast<int>(std::count_if(plan.measurements.begin(), plan.measurements.end(),
                                       [](const auto& m) { return first_pass_only(m.kind); }));
    total_ = static_cast<int>(count_) * passes_ - sweep_points * (passes_ - 1);
  }

  RunOutcome run() {
    results_.complete = false;
    // Said from the start, so that an interrupted run's partial results say it too.
    if (!plan_.sized_from.empty()) {
      auto& twins = results_.provenance.twin_domains.emplace();
      for (const auto& [twin, source] : plan_.sized_from) twins.push_back({twin, source});
    }
    if (const auto stop = run_passes()) return *stop;
    if (const auto stop = run_extra_passes()) return *stop;
    finish();
    return RunOutcome::complete;
  }

 private:
  // Seconds since the run's start; a resumed run's count on from the journal's.
  double elapsed() const { return time_base_ + measurer_.seconds() - start_; }

  // A measurement's samples in one pass: its share of them (the regular passes' shares add up
  // to the samples asked for, the first ones taking one more where they do not divide; an extra
  // pass takes the largest share), half of them for a sweep that runs once, a few for the latency
  // sweep, all of them for a loaded-latency point (its p10 and p90 are read from them).
  int samples_of(MeasurementKind kind, int pass) const {
    if (kind == MeasurementKind::capacity) return kCapacitySamples;
    if (kind == MeasurementKind::loaded) return options_.sampling.samples;
    if (first_pass_only(kind)) return sweep_samples(options_.sampling.samples);
    return pass_share(options_.sampling.samples, passes_, pass < passes_ ? pass : 0);
  }

  // Passes in rotated order: each starts a share of the plan further on. The frequencies of a
  // domain come before its other measurements in the plan, so the first pass keeps them first.
  std::optional<RunOutcome> run_passes() {
    for (int pass = 0; pass < passes_; ++pass) {
      if (pass > 0) probe_placement_now("before pass " + std::to_string(pass + 1));
      const std::size_t offset = pass == 0 ? 0 : count_ * static_cast<std::size_t>(pass) / passes_;
      for (std::size_t k = 0; k < count_; ++k) {
        const std::size_t i = (k + offset) % count_;
        if (pass > 0 && first_pass_only(plan_.measurements[i].kind)) continue;
        // Adaptive samples: two passes that gave a tight interval are enough.
        if (pass >= 2 && tight_enough(results_, slots_[i], pool_)) {
          leave_out(i);
          ++passes_saved_;
          continue;
        }
        if (pass == 0 && AdaptiveSweeps::adaptive(plan_.measurements[i])) {
          std::size_t end = i + 1;
          while (end < count_ &&
                 sweeps_.same_series(plan_.measurements[i], plan_.measurements[end])) {
            ++end;
          }
          if (const auto stop = run_sweep(i, end)) return stop;
          k = end - 1;
          continue;
        }
        probe_placement_if_due(pass);
        if (const auto stop = run_once(i, pass)) return stop;
      }
    }
    return std::nullopt;
  }

  // Measurements whose passes disagree get more passes while the time budget allows.
  std::optional<RunOutcome> run_extra_passes() {
    for (int extra = 0; passes_ > 1 && options_.max_seconds > 0; ++extra) {
      std::vector<std::size_t> again;
      for (std::size_t i = 0; i < count_; ++i) {
        if (wants_extra_pass(results_, slots_[i], pool_)) again.push_back(i);
      }
      if (again.empty()) break;
      for (std::size_t i : again) {
        if (elapsed() >= options_.max_seconds) break;
        ++total_;
        ++extra_runs_;
        probe_placement_if_due(passes_ + extra);
        if (const auto stop = run_once(i, passes_ + extra)) return stop;
      }
      if (elapsed() >= options_.max_seconds) break;
    }
    return std::nullopt;
  }

  // A sweep (first pass): the plan's consecutive points of one series, walked adaptively.
  std::optional<RunOutcome> run_sweep(std::size_t first, std::size_t end) {
    std::vector<std::uint64_t> sizes;
    for (std::size_t i = first; i < end; ++i) {
      sizes.push_back(plan_.measurements[i].working_set_bytes);
    }
    std::optional<RunOutcome> outcome;
    walk_sweep(
        sweeps_.series(plan_.measurements[first]), sizes, sweeps_.limit(plan_.measurements[first]),
        [&](std::size_t k) -> SweepMeasured {
          const std::size_t i = first + k;
          probe_placement_if_due(0);
          outcome = run_once(i, 0);
          if (outcome) return {.cost = std::nullopt, .stop = true};
          return {.cost = AdaptiveSweeps::cost(plan_.measurements[i], results_, slots_[i])};
        },
        [&](std::size_t k) { leave_out(first + k); });
    const PlannedMeasurement& m = plan_.measurements[first];
    const auto* stream = std::get_if<codegen::StreamSpec>(&m.spec);
    const auto& domain = topology_.domains()[static_cast<std::size_t>(m.domain)];
    // Memory runs are no smaller than the plateau this sweep established as memory's.
    if (const auto stop = sweeps_.series(m).memory_plateau_end();
        stop && stream && stream->access == Access::load && m.kind == MeasurementKind::sweep &&
        m.pus.size() == domain.core_pus.size()) {
      sizing_.set_memory_floor(m.domain, *stop);
    }
    return outcome;
  }

  // A run not made: a sweep's point beyond its memory plateau or stepped over in a flat plateau,
  // or a pass a measurement's tight interval made needless.
  void leave_out(std::size_t i) {
    const PlannedMeasurement& m = plan_.measurements[i];
    --total_;
    estimated_total_ -= m.estimated_seconds / (first_pass_only(m.kind) ? 1 : passes_);
  }

  // One pass of one measurement, pooled; an outcome when the run must stop.
  std::optional<RunOutcome> run_once(std::size_t i, int pass) {
    const PlannedMeasurement& m = sizing_.sized(plan_.measurements[i], results_);
    ++index_;
    if (options_.on_progress) {
      // Scale the remaining estimate by how fast the run has gone against its estimates so far.
      const double pace = estimated_done_ > 1 ? elapsed() / estimated_done_ : 1;
      options_.on_progress({index_, std::max(total_, index_), &m, elapsed(),
                            std::max(0.0, estimated_total_ - estimated_done_) * pace});
    }
    results::Results one;
    // When this pass ran, for the placement state it belongs to (state_roofs.h); a journaled one's
    // probes were lost with its process: no state.
    const JournalEntry* journaled = options_.journal ? options_.journal->find(i, pass) : nullptr;
    const bool bracket = !journaled && bracketed(m);
    if (bracket && elapsed() - last_probe_s_ > kBracketGap) {
      probe_placement_now("during pass " + std::to_string(pass + 1));
    }
    RecordSlots::PassSpan span{.start_s = journaled ? -1 : elapsed(), .end_s = -1};
    if (journaled) {
      // Done before the interruption: its records again, and the clock where it ended.
      one = journaled->records;
      repetitions_[i] = journaled->repetitions;
      time_base_ += journaled->elapsed_seconds - elapsed();
    } else if (const auto stop = measure(m, i, pass, one)) {
      return stop;
    }
    if (m.absent_reason.empty()) {
      estimated_done_ += m.estimated_seconds / (first_pass_only(m.kind) ? 1 : passes_);
    }
    if (options_.journal && !journaled) {
      options_.journal->append(i, pass, {one, repetitions_[i], elapsed()});
    }
    const int misplaced_before = options_.require_placement ? count_misplaced(results_) : 0;
    if (!journaled) span.end_s = elapsed();
    if (bracket) probe_placement_now("during pass " + std::to_string(pass + 1));
    pool_pass(results_, slots_[i], one, pool_, span);
    if (!results_.provenance.core_frequency_hz) {
      for (const results::FrequencyRecord& f : results_.frequency) {
        if (!f.under && !f.samples_hz.empty()) {
          results_.provenance.core_frequency_hz = f.stats.median;
        }
      }
    }
    if (options_.on_measurement) options_.on_measurement(results_);
    if (options_.require_placement && count_misplaced(results_) > misplaced_before) {
      results_.incomplete_reason = "stopped by --require-placement: " + m.label() +
                                   " has less than 99 % of its pages on the intended memory";
      return RunOutcome::misplaced;
    }
    return std::nullopt;
  }

  // The kernels of one pass of a measurement not in the journal, into `one`; interrupted when
  // the run was asked to stop.
  std::optional<RunOutcome> measure(const PlannedMeasurement& m, std::size_t i, int pass,
                                    results::Results& one) {
    if (options_.journal && options_.journal->kept() > 0 && !resumed_said_) {
      resumed_said_ = true;  // the first run a resumed run makes again
      if (!results_.provenance.resumed) results_.provenance.resumed.emplace();
      results_.provenance.resumed->push_back({static_cast<long>(options_.journal->kept()),
                                              m.label() + ", pass " + std::to_string(pass + 1)});
    }
    if (!m.absent_reason.empty()) {
      if (pass == 0) record_absent(topology_, m, m.absent_reason, one);
      return std::nullopt;
    }
    const double began = elapsed();
    try {
      throw_if_stopped(options_.sampling);
      measurer_.measure(m, samples_of(m.kind, pass), &repetitions_[i], results_, one);
      seconds_by_kind_[name(m.kind)] += elapsed() - began;
    } catch (const kernels::Interrupted&) {
      results_.incomplete_reason = "interrupted in pass " + std::to_string(pass + 1) + " of " +
                                   std::to_string(passes_) + " after " +
                                   std::to_string(index_ - 1) + " of " + std::to_string(total_) +
                                   " measurement runs";
      return RunOutcome::interrupted;
    } catch (const std::exception& e) {
      record_absent(topology_, m, std::string("failed: ") + e.what(), one);
    }
    return std::nullopt;
  }

  // The placement the host gives our cores, probed between passes and after them (the
  // doctor probed it before the run): a run that sees it change says so.
  void probe_placement_now(const std::string& when) {
    const std::optional<PlacementProbe> probe = measurer_.placement_now();
    if (!probe) return;
    last_probe_s_ = elapsed();
    last_probe_seconds_ = probe->seconds;
    probe_every_s_ = std::max(kPlacementProbeEvery, kPlacementProbeShare * probe->seconds);
    placements_.add(when, last_probe_s_, *probe);
  }
  // A pass whose value depends on where the host puts the cores, when a probe is cheap beside it
  // (placement_log.h, kBracketShare).
  bool bracketed(const PlannedMeasurement& m) const {
    return measurer_.probes_placement() && bracket_pass(m, passes_, last_probe_seconds_);
  }
  // Between measurements too, so that a move is placed within a second or so, not a pass: at most
  // 1/kPlacementProbeShare of the run's time (2 vCPUs: ~5 ms a probe; 16 cores, 120 pairs: more).
  void probe_placement_if_due(int pass) {
    if (elapsed() - last_probe_s_ >= probe_every_s_) {
      probe_placement_now("during pass " + std::to_string(pass + 1));
    }
  }

  // After the passes: the records settled, split by placement state, sorted and summarized.
  void finish() {
    probe_placement_now("after the passes");
    placements_.record(results_);
    const std::vector<StateProbe> probes = placements_.state_probes(results_);
    split_roofs_by_state(results_, slots_, probes, options_.estimator);
    if (auto warning = state_roofs_warning(results_, model_state(probes))) {
      results_.warnings.push_back(*warning);
    }
    for (const RecordSlots& s : slots_) settle_status(results_, s, pool_);
    // A stepped-over size is measured after the next one: each curve in size order again.
    sort_each_run(results_.sweep,
                  [](const auto& p) { return std::tuple(p.domain, p.threads, p.access); });
    sort_each_run(results_.latency_sweep, [](const auto& p) { return p.domain; });
    results_.provenance.sweep_stops = sweeps_.stops();
    results_.provenance.measured_seconds_by_kind = seconds_by_kind_;
    results_.provenance.passes_saved_by_tight_intervals = passes_saved_;
    results_.provenance.extra_passes = extra_runs_;
    sizing_.record(results_);
    mark_levels_without_plateau(results_, plan_.sized_from);
    mark_indistinct_levels(results_);
    for (const results::FrequencyRecord& f : results_.frequency) {
      if (!f.under) warn_if_chains_disagree(f, results_);
    }
    summarize_interference(results_);
    summarize_huge_pages(results_);
    results_.complete = true;
    results_.incomplete_reason.clear();
  }

  const topology::Topology& topology_;
  const Plan& plan_;
  Measurer& measurer_;
  const RunOptions& options_;
  results::Results& results_;
  const PoolOptions pool_;
  const int passes_;
  const std::size_t count_;
  std::vector<RecordSlots> slots_;
  std::vector<std::uint64_t> repetitions_;
  const double start_ = measurer_.seconds();
  double time_base_ = 0;
  bool resumed_said_ = false;
  int index_ = 0, total_ = 0;
  double estimated_done_ = 0, estimated_total_ = 0;
  EffectiveSizing sizing_;
  AdaptiveSweeps sweeps_;
  std::map<std::string, double> seconds_by_kind_;  // measured, for the plan's estimate
  PlacementLog placements_;
  double last_probe_s_ = 0, probe_every_s_ = kPlacementProbeEvery;
  double last_probe_seconds_ = 0;  // how long the last probe took
  int passes_saved_ = 0, extra_runs_ = 0;
};

}  // namespace

RunOutcome run_plan(const topology::Topology& topology, const Plan& plan, Measurer& measurer,
                    const RunOptions& options, results::Results& results) {
  return PlanRun(topology, plan, measurer, options, results).run();
}

RunOutcome run_plan(const topology::Topology& topology, const Plan& plan,
                    const platform::Clock& clock, const platform::CpuInfo& cpu,
                    const RunOptions& options, results::Results& results) {
  KernelMeasurer measurer(topology, clock, cpu, options);
  return run_plan(topology, plan, measurer, options, results);
}

}  // namespace larm::characterize
