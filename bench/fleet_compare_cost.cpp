// Cost of a fleet's gather and comparison on rank 0 (target: < 1 s added to the
// per-node run for 1000 nodes). From one results.json (default: the reference run), 1000 nodes
// are made, each roof scaled by its own noise (1 % normal) and every 50th node 30 % low on its L1
// roofs, and saved as DIR/<node>/results.json. Then, several times:
//   gather:  what rank 0 of `larm fleet` does: parse each node's digest header, write its
//            results.json as received, compare, write fleet.json and fleet.csv, flush;
//   shared:  the same where the nodes' own saves are already there (a shared file system):
//            each received file is compared with it and not written again;
//   files:   what `larm compare-fleet` does: read and parse every results.json, digest, compare,
//            write.
// Prints the median and the largest of the repetitions, and the number of outliers found.
//     larm_fleet_compare_cost [RESULTS_JSON] [NODES]
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "fleet/node_directories.h"
#include "results/atomic_file.h"
#include "results/statistics.h"
#include "results/store.h"
#include "roofline/fleet_comparison.h"

namespace {

using namespace larm;
using Clock = std::chrono::steady_clock;
constexpr int kRepetitions = 5;

double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

void report(const char* what, std::vector<double> times, std::size_t outliers) {
  const double worst = *std::max_element(times.begin(), times.end());
  std::printf("%-8s median %.3f s, max %.3f s over %d runs; %zu outliers named\n", what,
              results::median(times), worst, kRepetitions, outliers);
}

}  // namespace

int main(int argc, char** argv) {
  const std::filesystem::path source =
      argc > 1 ? argv[1] : LARM_SOURCE_DIR "/results/reference/dev-zen5-2vcpu/results.json";
  const int nodes = argc > 2 ? std::stoi(argv[2]) : 1000;
  const results::Results base = results::load_results(source);
  const auto dir = std::filesystem::temp_directory_path() / "larm-fleet-bench";
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);

  // The nodes, as text (what a node sends) and their digests' headers.
  std::mt19937 random(11);
  std::normal_distribution<double> noise(1.0, 0.01);
  std::vector<std::string> names, texts, headers;
  std::size_t bytes = 0;
  for (int i = 0; i < nodes; ++i) {
    results::Results r = base;
    for (results::Roof& roof : r.roofs) {
      const double low = (i % 50 == 7 && roof.level == Level::L1) ? 0.7 : 1.0;
      const double factor = noise(random) * low;
      for (double& s : roof.samples) s *= factor;
      roof.roof *= factor;
    }
    char name[32];
    std::snprintf(name, sizeof name, "node%04d", i);
    names.push_back(name);
    texts.push_back(results::to_json(r).dump(2));
    headers.push_back(fleet::digest_json(fleet::digest(r)).dump());
    bytes += texts.back().size();
    std::filesystem::create_directories(dir / "files" / name);
    results::write_file_atomically(dir / "files" / name / results::kResultsFile, texts.back(),
                                   results::Flush::later);
  }
  std::printf("%d nodes from %s: %.1f MB of results.json, %zu roofs each, digest %.1f kB each\n",
              nodes, source.c_str(), static_cast<double>(bytes) / 1e6, base.roofs.size(),
              static_cast<double>(headers[0].size()) / 1e3);

  std::vector<double> gather, shared, files;
  std::size_t gather_outliers = 0, shared_outliers = 0, file_outliers = 0;
  for (int rep = 0; rep < kRepetitions; ++rep) {
    const auto out = dir / ("gather" + std::to_string(rep));
    std::filesystem::create_directories(out);
    auto start = Clock::now();
    std::vector<fleet::NodeInput> inputs;
    double writing = 0;
    for (int i = 0; i < nodes; ++i) {
      fleet::NodeInput in;
      in.node.host = names[i];
      in.node.rank = i;
      in.digest = fleet::digest_from_json(nlohmann::json::parse(headers[i]));
      const auto write_start = Clock::now();
      std::filesystem::create_directories(out / names[i]);
      results::write_file_atomically(out / names[i] / results::kResultsFile, texts[i],
                                     results::Flush::later);
      writing += seconds_since(write_start);
      inputs.push_back(std::move(in));
    }
    const auto compare_start = Clock::now();
    fleet::Fleet f = fleet::compare_fleet(std::move(inputs));
    const double comparing = seconds_since(compare_start);
    const auto save_start = Clock::now();
    fleet::save_fleet(out, f);
    results::sync_file_system(out);  // the nodes' files on disk, as rank 0 does at the end
    const double saving = seconds_since(save_start);
    gather.push_back(seconds_since(start));
    std::printf(
        "  gather %d: %.3f s writing the nodes' files, %.3f s comparing, %.3f s saving "
        "the fleet, %.3f s parsing digests\n",
        rep, writing, comparing, saving, gather.back() - writing - comparing - saving);
    gather_outliers = f.outliers.size();

    start = Clock::now();
    std::vector<fleet::NodeInput> again;
    for (int i = 0; i < nodes; ++i) {
      fleet::NodeInput in;
      in.node.host = names[i];
      in.node.rank = i;
      in.digest = fleet::digest_from_json(nlohmann::json::parse(headers[i]));
      results::write_file_if_changed(dir / "files" / names[i] / results::kResultsFile, texts[i],
                                     results::Flush::later);
      again.push_back(std::move(in));
    }
    fleet::Fleet h = fleet::compare_fleet(std::move(again));
    fleet::save_fleet(dir / "files", h);
    results::sync_file_system(dir / "files");
    shared.push_back(seconds_since(start));
    shared_outliers = h.outliers.size();

    start = Clock::now();
    fleet::Fleet g = fleet::compare_fleet(fleet::read_node_directories(dir / "files"));
    fleet::save_fleet(dir / "files", g);
    files.push_back(seconds_since(start));
    file_outliers = g.outliers.size();
    std::filesystem::remove_all(out);
  }
  report("gather", gather, gather_outliers);
  report("shared", shared, shared_outliers);
  report("files", files, file_outliers);
  std::printf("expected outliers: %d (every 50th node, 30 %% low on L1)\n", (nodes + 42) / 50);
  std::filesystem::remove_all(dir);
  return 0;
}
