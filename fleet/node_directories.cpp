// The node directories of a fleet, read and digested one at a time.
#include "fleet/node_directories.h"

#include <algorithm>

#include "results/printable_text.h"
#include "results/store.h"

namespace larm::fleet {

std::vector<NodeInput> read_node_directories(const std::filesystem::path& dir) {
  std::vector<std::filesystem::path> found;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    if (entry.is_directory() && std::filesystem::exists(entry.path() / results::kResultsFile)) {
      found.push_back(entry.path());
    }
  }
  std::sort(found.begin(), found.end());
  std::vector<NodeInput> inputs;
  for (const auto& path : found) {
    NodeInput in;
    in.node.host = results::printable(path.filename().string());
    try {
      const results::Results results = results::load_results(path);
      in.node.outcome = results.complete ? NodeOutcome::complete : NodeOutcome::incomplete;
      in.node.reason = results.incomplete_reason;
      in.node.results_path = (path.filename() / results::kResultsFile).string();
      in.digest = digest(results);
    } catch (const std::exception& e) {
      in.node.outcome = NodeOutcome::failed;
      in.node.reason = e.what();
    }
    inputs.push_back(std::move(in));
  }
  return inputs;
}

}  // namespace larm::fleet
