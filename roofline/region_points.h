// Application regions (regions.json from liblarm, larm count or larm profile) as points to place:
// one per region and domain that ran it, merged over that domain's threads, with what larm
// count's tool counted and where its tagged data sits.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "results/placement_records.h"
#include "results/region_records.h"
#include "roofline/fp_mix.h"
#include "roofline/memory_level.h"

namespace larm::roofline {

// One region of one run, merged over the threads that ran it on one domain.
struct RegionPoint {
  std::string file;
  std::string host;  // where the region ran (its regions file's host), when known
  std::string cpu_model;  // of the machine it ran on, when known (regions 1.6)
  // The host whose caches modelled its bytes per level, when not `host` (regions 1.6).
  std::string levels_modelled_for;
  std::string label;
  std::string region;
  int domain = 0;
  int threads = 0;
  double seconds = 0;
  std::optional<double> ai;      // FLOP/byte
  std::optional<double> gflops;  // GFLOP/s
  std::optional<double> gbps;    // GB/s
  std::string flops_source;
  std::string bytes_source;
  std::string unavailable;                   // why there is no AI, when there is none
  std::map<unsigned, double> data_memories;  // memory OS index -> fraction of the tagged pages
  // Of neighbouring tagged pages, the share on different memories: near 1 - 1/k when
  // interleaved over k memories, near 0 when first-touched in blocks; none when not recorded.
  std::optional<double> pages_apart;
  std::optional<double> data_bytes;  // the tagged ranges' bytes
  std::optional<double> read_share;  // of its bytes (larm_region_add_rw or counters)
  bool migrated = false;             // a thread changed CPU between calls
  // The other domains that ran the region at the same time (same file): together they share the
  // memories that hold its data (contention). Without recorded times (regions files before
  // 1.2), every domain of the file is taken as concurrent, and concurrency_assumed says so.
  struct Peer {
    int domain = 0;
    std::optional<double> gbps;
  };
  std::vector<Peer> concurrent;
  bool concurrency_assumed = false;
  // larm count: its FLOPs (by kind and width), the bytes each level served it (the cache model),
  // and its time over the repeated native runs.
  std::optional<double> flops;
  std::optional<FpCounts> fp;
  std::optional<LevelTraffic> traffic;
  std::optional<regions::RunTiming> timing;
  // What makes its numbers not what they seem: recorded by fewer threads than worked in it; its
  // data all on one memory of several while threads of several domains run it.
  std::optional<results::UndercountWarning> undercount;
  std::optional<results::SequentialInitWarning> sequential_init;
};

// The per-domain points of a regions file (entries of an unknown domain are left out).
std::vector<RegionPoint> region_points(const regions::RegionsFile& records,
                                       const std::string& file);
// The same from a regions.json document; throws std::runtime_error naming the file when it is
// not one (format, version).
std::vector<RegionPoint> region_points(const nlohmann::json& document, const std::string& file);

}  // namespace larm::roofline
