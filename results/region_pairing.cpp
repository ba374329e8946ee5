// Carrying a counted run's counts onto a timed run.
#include "results/region_pairing.h"

#include <map>
#include <set>
#include <stdexcept>

namespace larm::regions {
namespace {

// What one call of a region does, from the counted run's machine entry.
struct PerCall {
  std::optional<double> flops, bytes, bytes_read, bytes_written;
  std::map<std::string, double> counted;
};

std::optional<double> per_call(const Count& count, double calls) {
  if (!count.value) return std::nullopt;
  return *count.value / calls;
}

Count scaled(const std::optional<double>& per, double calls) {
  if (!per) return {};
  return {*per * calls, "counted"};
}

template <typename Entry>
void carry(Entry& entry, const PerCall& work) {
  const auto calls = static_cast<double>(entry.calls);
  entry.flops = scaled(work.flops, calls);
  entry.bytes = scaled(work.bytes, calls);
  entry.bytes_read = scaled(work.bytes_read, calls);
  entry.bytes_written = scaled(work.bytes_written, calls);
  entry.counted.clear();
  for (const auto& [name, value] : work.counted) entry.counted[name] = value * calls;
  entry.rates = rates_of(entry.flops.value, entry.bytes.value, entry.seconds);
}

}  // namespace

Pairing pair_counts(const RegionsFile& timed, const RegionsFile& counted) {
  if (timed.run == "counted") {
    throw std::runtime_error(
        "the timed run given is a count run (larm count): its times are Valgrind's; give the "
        "program's own run and the count run with --counts");
  }
  if (counted.run != "counted") {
    throw std::runtime_error("--counts: not a count run of larm count (run \"" + counted.run +
                             "\")");
  }
  Pairing pairing{timed, {}};
  // The bytes per level are the count run's, modelled on its machine's caches.
  pairing.file.counters.cache_model_machine = counted.counters.cache_model_machine;
  std::map<std::string, const Region*> by_name;
  for (const Region& region : counted.regions) by_name[region.name] = &region;
  for (Region& region : pairing.file.regions) {
    const auto found = by_name.find(region.name);
    if (found == by_name.end()) {
      pairing.notes.push_back(region.name + ": not in the count run; its own counts kept");
      continue;
    }
    const Aggregate& source = found->second->machine;
    if (source.calls == 0 || region.machine.calls == 0) {
      pairing.notes.push_back(region.name + ": no completed call in one of the runs; not paired");
      continue;
    }
    const auto calls = static_cast<double>(source.calls);
    PerCall work{per_call(source.flops, calls),
                 per_call(source.bytes, calls),
                 per_call(source.bytes_read, calls),
                 per_call(source.bytes_written, calls),
                 {}};
    for (const auto& [name, value] : source.counted) work.counted[name] = value / calls;
    for (ThreadRecord& thread : region.threads) carry(thread, work);
    for (Aggregate& domain : region.domains) carry(domain, work);
    carry(region.machine, work);
    region.machine.threads_without_flops = work.flops ? 0 : region.machine.threads;
    region.machine.threads_without_bytes = work.bytes ? 0 : region.machine.threads;
    for (Aggregate& entry : region.domains) {
      entry.threads_without_flops = work.flops ? 0 : entry.threads;
      entry.threads_without_bytes = work.bytes ? 0 : entry.threads;
      entry.ai_unavailable = entry.rates.ai ? "" : entry.bytes.value ? "zero bytes" : "no count";
    }
    region.machine.ai_unavailable = region.machine.rates.ai      ? ""
                                    : region.machine.bytes.value ? "zero bytes"
                                                                 : "no count";
    if (source.calls == region.machine.calls) {
      pairing.notes.push_back(region.name + ": counts of the count run (" +
                              std::to_string(source.calls) + " calls in both runs)");
    } else {
      pairing.notes.push_back(region.name + ": counts of the count run carried per call (" +
                              std::to_string(source.calls) + " calls counted, " +
                              std::to_string(region.machine.calls) + " timed)");
    }
  }
  std::set<std::string> timed_names;
  for (const Region& region : timed.regions) timed_names.insert(region.name);
  for (const Region& region : counted.regions) {
    if (!timed_names.count(region.name)) {
      pairing.notes.push_back(region.name + ": in the count run only; left out");
    }
  }
  return pairing;
}

}  // namespace larm::regions
