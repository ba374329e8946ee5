// The history of this host's runs: one JSON line per run, appended.
#include "results/run_history.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <stdexcept>
#include <string_view>

#include "results/input_file.h"
#include "results/statistics.h"

namespace larm::results {

std::optional<std::filesystem::path> history_path() {
  if (const char* explicit_path = std::getenv("LARM_HISTORY")) {
    if (std::string(explicit_path) == "off" || *explicit_path == '\0') return std::nullopt;
    return std::filesystem::path(explicit_path);
  }
  if (const char* state = std::getenv("XDG_STATE_HOME"); state != nullptr && *state != '\0') {
    return std::filesystem::path(state) / "larm" / "history.jsonl";
  }
  if (const char* home = std::getenv("HOME"); home != nullptr && *home != '\0') {
    return std::filesystem::path(home) / ".local" / "state" / "larm" / "history.jsonl";
  }
  return std::nullopt;
}

std::string machine_key(const Results& results) {
  const Provenance& p = results.provenance;
  return p.host.value_or("") + " | " + p.cpu_model.value_or("") + " | topology " +
         std::to_string(std::hash<std::string>{}(identity_json(results.topology).dump()));
}

std::string roof_key(const Roof& roof) {
  std::string key = "domain " + std::to_string(roof.domain) + " " + name(roof.level);
  if (roof.memory) key += " memory " + roof.memory->text();
  if (roof.placement) key += std::string(" ") + name(*roof.placement);
  key += std::string(" ") + roof.operation();
  if (roof.precision) key += std::string(" ") + name(*roof.precision);
  return key + " " + name(roof.isa) + " threads " + std::to_string(roof.threads);
}

std::vector<std::map<std::string, double>> read_history(const std::filesystem::path& path,
                                                        const std::string& machine) {
  std::vector<std::map<std::string, double>> runs;
  std::error_code missing;
  if (!std::filesystem::exists(std::filesystem::symlink_status(path, missing))) return runs;
  const std::string text = read_input_tail(path, kHistoryReadBytes);
  // Cut from its end: the first line may be a part of one, and is not parsed.
  std::size_t start = text.size() == kHistoryReadBytes ? text.find('\n') + 1 : 0;
  for (std::size_t end; start < text.size() && (end = text.find('\n', start)) != std::string::npos;
       start = end + 1) {
    nlohmann::json entry;
    try {
      entry = parse_json_document(std::string_view(text).substr(start, end - start), "history");
    } catch (const std::runtime_error&) {
      continue;
    }
    if (!entry.is_object() || text_member(entry, "machine") != machine ||
        !entry.contains("roofs") || !entry.at("roofs").is_object()) {
      continue;
    }
    std::map<std::string, double> roofs;
    for (const auto& [key, value] : entry.at("roofs").items()) {
      if (value.is_number() && value.get<double>() > 0) roofs[key] = value.get<double>();
    }
    runs.push_back(std::move(roofs));
    if (runs.size() > kHistoryRuns) runs.erase(runs.begin());
  }
  return runs;
}

std::optional<std::string> placement_state(const Results& results, const Roof& roof) {
  if (roof.is_ceiling() || roof.threads < 2) return std::nullopt;
  for (const StateRoof& s : roof.by_state) {
    if (s.model) return s.state;
  }
  return results.provenance.single_placement_state();
}

std::string state_key(const std::string& roof_key, const std::string& state) {
  return roof_key + " @ " + state;
}

void append_history(const std::filesystem::path& path, const std::string& machine,
                    const Results& results) {
  nlohmann::json roofs = nlohmann::json::object();
  for (const Roof& roof : results.roofs) {
    if (!roof.present() || !std::isfinite(roof.roof)) continue;
    const std::string key = roof_key(roof);
    roofs[key] = roof.roof;
    for (const StateRoof& s : roof.by_state) {
      if (std::isfinite(s.value)) roofs[state_key(key, s.state)] = s.value;
    }
    if (const auto state = placement_state(results, roof); state && roof.by_state.empty()) {
      roofs[state_key(key, *state)] = roof.roof;
    }
  }
  const nlohmann::json entry = {
      {"machine", machine}, {"date", results.provenance.date.value_or("")}, {"roofs", roofs}};
  std::error_code ignored;
  if (path.has_parent_path()) std::filesystem::create_directories(path.parent_path(), ignored);
  // Appended in one write, to a regular file only: not waiting on a FIFO (O_NONBLOCK: refused
  // below), not through a link.
  const int fd = ::open(path.c_str(),
                        O_WRONLY | O_APPEND | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0644);
  struct stat info {};
  const bool regular = fd >= 0 && ::fstat(fd, &info) == 0 && S_ISREG(info.st_mode);
  const std::string line = entry.dump() + "\n";
  const bool written =
      regular && ::write(fd, line.data(), line.size()) == static_cast<ssize_t>(line.size());
  const std::string why = fd < 0 ? std::strerror(errno) : !regular ? "not a regular file" : "";
  if (fd >= 0) ::close(fd);
  if (!written) {
    throw std::runtime_error("cannot append to the run history " + path.string() +
                             (why.empty() ? "" : ": " + why));
  }
}

std::optional<HistoryRange> history_range(const std::vector<std::map<std::string, double>>& history,
                                          const std::string& roof, std::optional<double> near,
                                          int* left_out) {
  std::vector<double> values;
  for (const auto& run : history) {
    const auto it = run.find(roof);
    if (it == run.end()) continue;
    if (near && !(it->second <= *near * kHistoryFactor && it->second * kHistoryFactor >= *near)) {
      if (left_out != nullptr) ++*left_out;
      continue;
    }
    values.push_back(it->second);
  }
  if (values.size() < 2) return std::nullopt;
  const double middle = median(values);
  if (!(middle > 0)) return std::nullopt;
  const auto [low, high] = std::minmax_element(values.begin(), values.end());
  double spread = 0;
  for (double v : values) spread = std::max(spread, std::abs(v / middle - 1));
  return HistoryRange{
      .seen = {.low = *low, .high = *high}, .spread = spread, .values = std::move(values)};
}

namespace {

// Student's t distribution's 0.975 quantile for 1 to 20 degrees of freedom (any table of it, e.g.
// NIST/SEMATECH e-Handbook of Statistical Methods, 1.3.6.7.2); the history holds 20 runs, so a
// prediction has at most 20 degrees of freedom.
constexpr double kStudent975[] = {12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365,
                                  2.306,  2.262, 2.228, 2.201, 2.179, 2.160, 2.145,
                                  2.131,  2.120, 2.110, 2.101, 2.093, 2.086};

}  // namespace

std::optional<SeenRange> prediction_interval(std::span<const double> values) {
  const std::size_t n = values.size();
  if (n < 3) return std::nullopt;
  double sum = 0;
  std::vector<double> logs;
  for (double v : values) {
    if (!(v > 0) || !std::isfinite(v)) return std::nullopt;
    logs.push_back(std::log(v));
    sum += logs.back();
  }
  const double mean = sum / static_cast<double>(n);
  double squares = 0;
  for (double x : logs) squares += (x - mean) * (x - mean);
  const double deviation = std::sqrt(squares / static_cast<double>(n - 1));
  constexpr std::size_t kTabled = std::size(kStudent975);
  const double t = kStudent975[std::min(n - 1, kTabled) - 1];
  const double half = t * deviation * std::sqrt(1 + 1 / static_cast<double>(n));
  return SeenRange{.low = std::exp(mean - half), .high = std::exp(mean + half)};
}

}  // namespace larm::results
