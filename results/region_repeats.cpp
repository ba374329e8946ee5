// Merging repeated runs of one program into medians.
#include "results/region_repeats.h"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "results/statistics.h"

namespace larm::regions {
namespace {

// The seconds `find` gives for each chosen run that has the entry.
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

// Each entry's seconds: the median of the same entry (`same`) in the chosen runs that called it.
template <typename Entry, typename Same>
void set_medians(std::vector<Entry>& entries, std::vector<Entry> Region::*member,
                 const std::vector<const RegionsFile*>& chosen, const std::string& name,
                 Same same) {
  for (Entry& entry : entries) {
    const auto seconds = seconds_of(chosen, [&](const RegionsFile& run) -> std::optional<double> {
      const Region* r = region_named(run, name);
      if (r == nullptr) return std::nullopt;
      for (const Entry& other : (*r).*member) {
        if (same(other, entry) && other.calls > 0) return other.seconds;
      }
      return std::nullopt;
    });
    if (!seconds.empty()) set_seconds(entry, results::median(seconds));
  }
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
    set_medians(region.domains, &Region::domains, chosen, name,
                [](const Aggregate& a, const Aggregate& b) { return a.domain == b.domain; });
    set_medians(region.threads, &Region::threads, chosen, name,
                [](const ThreadRecord& a, const ThreadRecord& b) { return a.thread == b.thread; });
  }
  return merged;
}

}  // namespace larm::regions
