// This host's earlier runs, for the next-run interval. A run sees what `larm doctor`
// measures of the host before and after it, not the states the host takes between runs: on the
// guest here the FLOP ceilings moved 6 % and the memory roofs 40-75 GB/s over 8 runs the doctor
// called quiet (3.6 %). Each run that ends on this machine appends its roofs' values to a history
// (one JSON line per run); the next run widens each roof's next-run interval by the spread that
// roof showed over the last kHistoryRuns runs of the same machine (host, CPU, topology).
//   path: $LARM_HISTORY, "off" for none; else $XDG_STATE_HOME/larm/history.jsonl, else
//   $HOME/.local/state/larm/history.jsonl.
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "results/records.h"

namespace larm::results {

inline constexpr std::size_t kHistoryRuns = 20;

std::optional<std::filesystem::path> history_path();

// What identifies one machine in the history: host, CPU model and a digest of the topology's
// identity (identity_json: not the memories' sizes, which a guest's balloon changes).
std::string machine_key(const Results& results);

// A roof's name in the history: domain, level, memory and placement, access or operation,
// precision, ISA, threads.
std::string roof_key(const Roof& roof);

// The placement state a roof's value was measured in, for the roofs that depend on where
// the host puts the run's cores (bandwidth roofs of two threads or more): a roof split by state,
// its model state; else the run's one state (provenance.placement_states). None otherwise: one
// thread, a ceiling, no probes, or several states and the roof not split.
std::optional<std::string> placement_state(const Results& results, const Roof& roof);

// A roof's name in the history in one placement state: its values there are kept apart from the
// other states' (the memory roofs here: ~40 GB/s near, ~70 GB/s far).
std::string state_key(const std::string& roof_key, const std::string& state);

// The roofs' values of the last kHistoryRuns runs of machine in the file (oldest first). The file
// is read as every input is (a regular file, never waiting on a FIFO), its last
// kHistoryReadBytes only (the oldest runs are cut); a line that is not strict JSON with numbers in
// range is skipped (a torn last line), and so is a value that is not positive.
inline constexpr std::uint64_t kHistoryReadBytes = 16ull << 20;
std::vector<std::map<std::string, double>> read_history(const std::filesystem::path& path,
                                                        const std::string& machine);

// Appends one line: the machine (machine_key(results)), the date and every present roof's value,
// under roof_key and, with a placement state, under state_key too (each state of a split roof).
// Creates the folder. Throws std::runtime_error when the file cannot be written.
void append_history(const std::filesystem::path& path, const std::string& machine,
                    const Results& results);

// What a roof took in the history: its lowest and highest value, the largest
// |value / median - 1|, and the values (oldest first: one per run that had it); none under 2.
struct HistoryRange {
  SeenRange seen;
  double spread = 0;
  std::vector<double> values;
};
// near: this run's value; the history's values more than kHistoryFactor away from it are left out
// (another machine's, or a corrupt line's: they would widen the interval without bound) and
// counted in *left_out.
inline constexpr double kHistoryFactor = 10;
std::optional<HistoryRange> history_range(const std::vector<std::map<std::string, double>>& history,
                                          const std::string& roof,
                                          std::optional<double> near = std::nullopt,
                                          int* left_out = nullptr);

// Where another run's value falls, 95 times in 100, from the values of earlier runs and this one:
// the prediction interval of a log-normal value, exp(m +- t s sqrt(1 + 1/n)), m and s the mean
// and standard deviation of the n logarithms, t Student's 0.975 quantile for n - 1 degrees of
// freedom (bandwidths and rates are positive, and a busy host scales them). The range of n runs
// alone covers the next one with probability (n - 1) / (n + 1), 71 % at n = 6 and 90 % at 19: a
// history of a few runs under-covers by construction (docs/method.md, Intervals). None under 3
// values, or with one not positive.
std::optional<SeenRange> prediction_interval(std::span<const double> values);

}  // namespace larm::results
