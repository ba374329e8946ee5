// Merging repeated runs of one program into medians.
#include "results/region_repeats.h"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "results/statistics.h"

namespace larm::regions {
namespace {

// The entry `pick` finds in each chosen run, as a list of its seconds.
template <typename Find>
std::vector<double> seconds_of(const std::vector<const RegionsFile*>& runs, Find find) {
  std::vector<double> seconds;
  for (const RegionsFile* run : runs) {
    if (const auto value = find(*run)) seconds.push_back(*value);
  }
  return seconds;
}

const Region* region_named(const RegionsFile& file, const std::string& name) {
  for (const Region& region : file.regions) {
    if (region.name == name) return &region;
  }
  return nullptr;
}

template <typename Entry>
void set_seconds(Entry& entry, double seconds) {
  entry.seconds = seconds;
  entry.rates = rates_of(entry.flops.value, entry.bytes.value, seconds);
}

}  // namespace

RegionsFile merge_repeated_runs(const std::vector<RegionsFile>& runs,
                                const std::vector<bool>& clean) {
  if (runs.empty() || runs.size() != clean.size()) {
    throw std::invalid_argument("merge_repeated_runs: one clean flag per run, at least one run");
  }
  const auto clean_runs = static_cast<std::size_t>(std::count(clean.begin(), clean.end(), true));
  std::vector<const RegionsFile*> chosen;
  for (std::size_t i = 0; i < runs.size(); ++i) {
    if (clean_runs == 0 || clean[i]) chosen.push_back(&runs[i]);
  }
  const std::string estimator =
      clean_runs == 0 ? "median of " + std::to_string(runs.size()) + " runs, none clean"
                      : "median of " + std::to_string(clean_runs) + " clean runs of " +
                            std::to_string(runs.size());
  RegionsFile merged = *chosen.front();
  for (Region& region : merged.regions) {
    const std::string& name = region.name;
    const auto machine = [&](const RegionsFile& run) -> std::optional<double> {
      const Region* r = region_named(run, name);
      if (r == nullptr || r->machine.calls == 0) return std::nullopt;
      return r->machine.seconds;
    };
    RunTiming timing;
    for (std::size_t i = 0; i < runs.size(); ++i) {
      if (const auto seconds = machine(runs[i])) {
        timing.seconds.push_back(*seconds);
        timing.clean.push_back(clean[i]);
      }
    }
    const std::vector<double> used = seconds_of(chosen, machine);
    if (used.empty()) continue;
    timing.estimator = estimator;
    timing.median = results::median(used);
    const auto [low, high] = std::minmax_element(used.begin(), used.end());
    timing.spread = timing.median > 0 ? (*high - *low) / timing.median : 0;
    region.timing = std::move(timing);
    set_seconds(region.machine, region.timing->median);
    for (Aggregate& domain : region.domains) {
      const auto seconds = seconds_of(chosen, [&](const RegionsFile& run) -> std::optional<double> {
        const Region* r = region_named(run, name);
        if (r == nullptr) return std::nullopt;
        for (const Aggregate& a : r->domains) {
          if (a.domain == domain.domain && a.calls > 0) return a.seconds;
        }
        return std::nullopt;
      });
      if (!seconds.empty()) set_seconds(domain, results::median(seconds));
    }
    for (ThreadRecord& thread : region.threads) {
      const auto seconds = seconds_of(chosen, [&](const RegionsFile& run) -> std::optional<double> {
        const Region* r = region_named(run, name);
        if (r == nullptr) return std::nullopt;
        for (const ThreadRecord& t : r->threads) {
          if (t.thread == thread.thread && t.calls > 0) return t.seconds;
        }
        return std::nullopt;
      });
      if (!seconds.empty()) set_seconds(thread, results::median(seconds));
    }
  }
  return merged;
}

}  // namespace larm::regions
