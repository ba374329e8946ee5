// Each region's trajectory on the LARM from a monitored run's trace.json: where the monitors
// followed a region's FLOPs and bytes (the region source, `flops:NAME` and `bytes:NAME`, joined
// per NUMA node or for the machine), one point per sample: its arithmetic intensity and GFLOP/s
// over that sample's interval (a `rate` monitor's values are per second already).
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "results/records.h"

namespace larm::report {

struct TrajectoryPoint {
  int domain = 0;
  std::string region;
  double seconds = 0;  // the sample's time in the trace
  double ai = 0;       // FLOP/byte
  double gflops = 0;
};

struct Trajectories {
  std::vector<TrajectoryPoint> points;  // by region, then time
  std::vector<std::string> omitted;     // why a region or the trace gave none
};

// Reads trace.json in dir (checked against its schema). The monitors on NUMA nodes give each
// node's domain its points; a monitor on the machine gives them to the results' only domain (with
// several, the machine's sum belongs to none and is said so). Throws std::runtime_error naming
// the file when it cannot be read.
Trajectories region_trajectories(const std::filesystem::path& dir, const results::Results& results);

}  // namespace larm::report
