// The run's warnings from its records.
#include "characterize/run_warnings.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

#include "platform/buffer.h"
#include "results/statistics.h"

namespace larm::characterize {

void warn_if_chains_disagree(const results::FrequencyRecord& record, results::Results& results) {
  const double add = record.stats.median;
  const double imul = results::median(record.imul_samples_hz);
  if (add <= 0 || imul <= 0 || std::abs(add - imul) / imul <= kClockDisagreement) return;
  char text[256];
  std::snprintf(text, sizeof text,
                "domain %d: the add chain reads %.3f GHz and the imul chain %.3f GHz (%.1f %% "
                "apart, more than %.0f %%): cycles, IPC and %% of peak use the add chain and may "
                "be wrong",
                record.domain, add / 1e9, imul / 1e9, 100 * std::abs(add - imul) / imul,
                100 * kClockDisagreement);
  results.warnings.push_back(text);
}

int count_misplaced(const results::Results& r) {
  int misplaced = 0;
  results::for_each_measurement(r, [&](const auto& record) {
    if constexpr (requires { record.status; }) misplaced += record.status == Status::misplaced;
  });
  return misplaced;
}

void summarize_interference(results::Results& r) {
  const results::InterferenceTotal total = results::interference_total(r);
  const int measurements = total.measurements;
  const int samples = total.interference.samples;
  const int kept = total.interference.kept;
  if (samples == 0) return;
  r.warnings.push_back(std::to_string(samples) + " samples of " + std::to_string(measurements) +
                       " measurements were interfered with (threads descheduled, stolen from or "
                       "slowed) and re-taken" +
                       (kept > 0 ? "; " + std::to_string(kept) +
                                       " kept when the retries ran out (those measurements are "
                                       "marked unstable)"
                                 : ""));
}

void summarize_huge_pages(results::Results& r) {
  int checked = 0, short_of = 0;
  double lowest = 1;
  results::for_each_measurement(r, [&](const auto& record) {
    if constexpr (requires { record.huge_page_fraction; }) {
      if (!record.huge_page_fraction) return;
      ++checked;
      if (*record.huge_page_fraction >= platform::kMinHugePageFraction) return;
      ++short_of;
      lowest = std::min(lowest, *record.huge_page_fraction);
    }
  });
  if (short_of == 0) return;
  char text[320];
  std::snprintf(
      text, sizeof text,
      "huge pages backed less than %.0f %% of the 2 MiB+ buffers of %d of %d measurements "
      "(lowest %.0f %%): their TLB misses lower bandwidth and add to latency (see "
      "transparent_hugepages in the provenance; huge_page_fraction in each record)",
      100 * platform::kMinHugePageFraction, short_of, checked, 100 * lowest);
  r.warnings.push_back(text);
}

}  // namespace larm::characterize
