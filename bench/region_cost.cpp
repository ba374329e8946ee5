// Cost of a larm_region_begin + larm_region_end pair (target: < 100 ns median without
// counters). Prints the median and the spread over many batches, for a lone region, a nested
// pair, and every thread of the machine at once.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <thread>
#include <vector>

#include "larm/region.h"

namespace {

constexpr int kPairsPerBatch = 10000;
constexpr int kBatches = 201;

struct Summary {
  double median = 0, p10 = 0, p90 = 0;
};

Summary summarize(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  auto at = [&](double q) { return values[static_cast<std::size_t>(q * (values.size() - 1))]; };
  return {at(0.5), at(0.1), at(0.9)};
}

// ns per pair of each batch; `depth` regions open around the measured one.
std::vector<double> measure(int depth) {
  std::vector<double> batches;
  for (int d = 0; d < depth; ++d) larm_region_begin(("around" + std::to_string(d)).c_str());
  for (int b = 0; b < kBatches; ++b) {
    const auto start = std::chrono::steady_clock::now();
    for (int i = 0; i < kPairsPerBatch; ++i) {
      larm_region_begin("measured");
      larm_region_end("measured");
    }
    const std::chrono::duration<double, std::nano> elapsed =
        std::chrono::steady_clock::now() - start;
    batches.push_back(elapsed.count() / kPairsPerBatch);
  }
  for (int d = depth - 1; d >= 0; --d) larm_region_end(("around" + std::to_string(d)).c_str());
  return batches;
}

void print(const char* what, const Summary& s) {
  std::printf("%-40s median %6.1f ns   p10 %6.1f   p90 %6.1f\n", what, s.median, s.p10, s.p90);
}

}  // namespace

int main() {
  const auto dir = std::filesystem::temp_directory_path() / "larm-region-cost";
  setenv("LARM_COUNTERS", "off",
         0);  // the target is without counters; LARM_COUNTERS=on to see PAPI's
  larm_init(dir.c_str());
  measure(0);  // warm-up: creates the records
  print("begin+end, one region", summarize(measure(0)));
  print("begin+end, inside 3 open regions", summarize(measure(3)));
  const unsigned threads = std::max(1u, std::thread::hardware_concurrency());
  std::vector<std::vector<double>> per_thread(threads);
  std::vector<std::thread> team;
  for (unsigned t = 0; t < threads; ++t) {
    team.emplace_back([&, t] {
      measure(0);
      per_thread[t] = measure(0);
    });
  }
  for (auto& thread : team) thread.join();
  std::vector<double> all;
  for (const auto& batches : per_thread) all.insert(all.end(), batches.begin(), batches.end());
  const std::string label = "begin+end, " + std::to_string(threads) + " threads at once";
  print(label.c_str(), summarize(all));
  larm_finalize();
  std::filesystem::remove_all(dir);
  return 0;
}
