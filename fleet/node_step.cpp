// One node of `larm fleet`: its run, its report, and the assembly on rank 0.
#include "fleet/node_step.h"

#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cstdlib>

#include "characterize/characterize_node.h"
#include "platform/clock.h"
#include "platform/environment.h"
#include "results/atomic_file.h"
#include "results/store.h"

namespace larm::fleet {

namespace {
bool is_node_name_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_' || c == '.';
}
}  // namespace

double default_gather_timeout(double own_run_seconds) {
  return std::max(300.0, own_run_seconds);
}

std::string fleet_host_name(int rank) {
  std::string name;
  if (const char* forced = std::getenv("LARM_FLEET_HOST"); forced != nullptr && *forced != 0) {
    name = forced;
    const std::string placeholder = "{rank}";
    for (auto at = name.find(placeholder); at != std::string::npos; at = name.find(placeholder)) {
      name.replace(at, placeholder.size(), std::to_string(rank));
    }
  } else {
    name = platform::host_name();
  }
  // A directory name of its own: no separators, not "." or "..".
  for (char& c : name) {
    if (!is_node_name_char(c)) c = '_';
  }
  if (name.empty() || name == "." || name == "..") name = "rank" + std::to_string(rank);
  return name;
}

bool is_node_directory_name(const std::string& name) {
  if (name.empty() || name.size() > kMaxNodeNameBytes || name == "." || name == "..") return false;
  return std::all_of(name.begin(), name.end(), is_node_name_char);
}

nlohmann::json report_json(const NodeReport& r) {
  return {{"host", r.node.host},
          {"rank", r.node.rank},
          {"outcome", fleet::name(r.node.outcome)},
          {"reason", r.node.reason},
          {"seconds", r.node.seconds},
          {"results", r.node.results_path},
          {"digest", r.digest ? fleet::digest_json(*r.digest) : nlohmann::json(nullptr)},
          {"files", r.files}};
}

NodeReport report_from_json(const nlohmann::json& j) {
  NodeReport r;
  try {
    r.node.host = j.at("host").get<std::string>();
    r.node.rank = j.at("rank").get<int>();
    r.node.outcome = fleet::parse_node_outcome(j.at("outcome").get<std::string>())
                         .value_or(fleet::NodeOutcome::failed);
    r.node.reason = j.at("reason").get<std::string>();
    r.node.seconds = j.at("seconds").get<double>();
    r.node.results_path = j.at("results").get<std::string>();
    if (!j.at("digest").is_null()) r.digest = fleet::digest_from_json(j.at("digest"));
    r.files = j.at("files").get<std::vector<std::string>>();
  } catch (const nlohmann::json::exception& e) {
    throw std::runtime_error(std::string("malformed node report: ") + e.what());
  }
  return r;
}

namespace {

std::vector<std::string> plain_files(const std::filesystem::path& dir) {
  std::vector<std::string> names;
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(dir, ec)) {
    const std::string name = entry.path().filename().string();
    // Atomic writes leave temporaries only while they run; they are not results.
    if (entry.is_regular_file() && name.find(".tmp") == std::string::npos) names.push_back(name);
  }
  std::sort(names.begin(), names.end());
  return names;
}

}  // namespace

NodeReport measure_node(
    const FleetRunOptions& options, const std::string& host, int rank, bool bound_cpus,
    const std::filesystem::path& dir, const std::atomic<bool>* stop,
    const std::function<void(const characterize::ProgressEvent&)>& on_progress) {
  NodeReport report;
  report.node.host = host;
  report.node.rank = rank;
  const auto start = std::chrono::steady_clock::now();
  try {
    if (std::filesystem::exists(dir / results::kResultsFile)) {
      throw std::runtime_error("results already exist in " + dir.string());
    }
    results::ensure_writable_directory(dir.parent_path());
    results::ensure_output_subdirectory(dir);  // never a link planted in the fleet directory
    const topology::Topology topology = topology::Topology::load_live(
        bound_cpus ? topology::Topology::LiveScope::bound : topology::Topology::LiveScope::allowed);
    characterize::CharacterizeOptions run = options.run_options(topology);
    run.stop = stop;
    run.on_progress = on_progress;
    const platform::Clock clock = platform::Clock::calibrate();
    results::Results results;
    characterize::characterize_node(topology, clock, run, dir, results);
    report.node.outcome =
        results.complete ? fleet::NodeOutcome::complete : fleet::NodeOutcome::incomplete;
    report.node.reason = results.incomplete_reason;
    report.digest = fleet::digest(results);
    report.node.results_path = host + "/" + results::kResultsFile;
  } catch (const std::exception& e) {
    report.node.outcome = fleet::NodeOutcome::failed;
    report.node.reason = e.what();
  }
  report.node.seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (report.digest) report.files = plain_files(dir);
  return report;
}

NodeReport unanswered_node(const std::string& host, int rank, const std::filesystem::path& dir,
                           const std::string& reason, bool read_own_save) {
  NodeReport report;
  report.node.host = host;
  report.node.rank = rank;
  report.node.outcome = fleet::NodeOutcome::no_answer;
  report.node.reason = reason;
  std::error_code ec;
  if (read_own_save && std::filesystem::is_regular_file(dir / results::kResultsFile, ec)) {
    try {
      const results::Results results = results::load_results(dir);
      report.digest = fleet::digest(results);
      report.node.results_path = host + "/" + results::kResultsFile;
      report.node.reason += "; its own last save was read (" +
                            std::string(results.complete ? "complete" : "incomplete") + ")";
    } catch (const std::exception& e) {
      report.node.reason += std::string("; its own save cannot be read: ") + e.what();
    }
  }
  return report;
}

}  // namespace larm::fleet
