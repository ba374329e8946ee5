// Two runs of one machine, side by side (larm diff), A the baseline: each roof of either run with
// the verdict the intervals allow — moved when B's value lies outside the interval A expects of
// another run (its own, widened by larm doctor's run-to-run error and by the spread of this
// machine's run history) and the two runs' own intervals are apart — and what differs between
// the machines and the settings the runs were made with. A change of a memory's size by a few
// per cent, or of a setting, is said as such: only a different structure (domains, cores, caches,
// memories and their kinds) is another topology.
#pragma once

#include <string>
#include <vector>

#include "results/records.h"

namespace larm::results {

struct Difference {
  std::string what;  // "cpu_model", "environment.thp", "memory 1 kind"...
  std::string a, b;
};

struct RoofComparison {
  enum class Verdict {
    changed,  // B outside what A expects of another run by twice its reach, own intervals apart
    edge,     // outside it, own intervals apart, but within twice its reach: chance, among many
    within,   // the noise (or A's history) covers it
    only_a,   // measured in A only (absent from B, or not in B's file)
    only_b,   // measured in B only
    absent,   // absent from both
  };
  std::string key;  // results::roof_key
  const Roof* a = nullptr;
  const Roof* b = nullptr;
  Verdict verdict = Verdict::within;
  double relative = 0;  // (b - a) / a, when both are measured
};

// The interval a roof's value is expected in on another run: its next-run interval (schema 1.7),
// else its own interval, else its samples' range.
std::pair<double, double> comparison_interval(const Roof& roof);
// The run's own interval (bootstrap and passes), else its samples' range.
std::pair<double, double> own_interval(const Roof& roof);

struct RunComparison {
  std::vector<Difference> machine;    // the hardware and its topology
  std::vector<Difference> settings;   // larm, the build, the run's options, the environment
  std::vector<RoofComparison> roofs;  // in A's order, then B's roofs A does not have
  bool same_topology = true;          // structure: domains, cores, caches, memories and kinds
  // The same machine: the same CPU (vendor, family, model, stepping, name) and topology. Runs of
  // two machines are not compared for moves: their roofs differ by design (larm diff says so
  // and compares them as a what-if). A host name alone does not make another machine.
  bool same_machine = true;

  int count(RoofComparison::Verdict verdict) const;
};

RunComparison compare_runs(const Results& a, const Results& b);

}  // namespace larm::results
