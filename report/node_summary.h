// The few lines a report opens with: its peak FLOP/s per precision, every cache level's load roof
// and each ISA's FLOP ceiling, each memory's bandwidth per domain with the remote/local ratio, the
// memory latency, the ridge points, the run's quality and what it could not measure, the regions'
// verdicts, the warnings' headlines and the next command. Every value is the results' own (the
// roof's estimator, its interval), written as larm show writes it.
#pragma once

#include <string>
#include <vector>

#include "results/placement_records.h"
#include "results/records.h"

namespace larm::report {

struct SummaryLine {
  std::string label;               // "node", "peak DP", "memory bandwidth"...
  std::vector<std::string> items;  // one per domain or memory; shown one per line
};

// With `regions` (placed), their verdict headlines, before the warnings and the next command.
std::vector<SummaryLine> node_summary(const results::Results& results,
                                      const std::vector<results::RegionPlacement>& regions = {});

// The node in one line: CPU, domains, threads, memories and their kinds.
std::string node_line(const results::Results& results);

// A roof's value with its interval as every report table writes it: "28.51 GB/s ±2.3 %",
// "28.51 GB/s (2 modes: 20.1 | 28.4)", "absent".
std::string roof_value_text(const results::Roof& roof);

}  // namespace larm::report
