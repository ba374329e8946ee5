// Monitors instantiated on a machine's topology (thesis chapter 5, §5.2.1): each monitor of a
// description (description.h) on every hwloc object of its level, reading events from one source
// at its objects, or joining the outputs of another monitor at the objects below each of its own
// (accumulate: their sum; hierarchical: their reduction), or deriving from another monitor on its
// own level (rate: each value per second of the interval since the previous update, which turns
// a counter's increase into a throughput; ratio: one monitor's values over another's, 0 where
// the denominator is 0). update() collects at the sources and aggregates up the
// tree, in the order the monitors depend on each other.
#pragma once

#include <hwloc.h>

#include <chrono>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "instrument/monitor/description.h"

namespace larm::monitor {

// One PERF_LIB: the events it has at which objects, and their values there.
class EventSource {
 public:
  virtual ~EventSource() = default;
  // Empty when the source has `event` at objects of hwloc type `type`; else why not, in words.
  virtual std::string lacks(const std::string& event, hwloc_obj_type_t type) const = 0;
  // An event a monitor reads (after lacks() said the source has it): a source reads only what
  // its monitors use.
  virtual void use(const std::string& /*event*/) {}
  // Once per update, before its reads: a snapshot of what the reads take their values from.
  virtual void refresh() {}
  // The value of `event` at `object`: a gauge's value now, or a counter's increase since the
  // previous refresh.
  virtual double read(const std::string& event, hwloc_obj_t object) = 0;
};

// A monitor on its objects, with their latest values (one per event of the source, or per value
// of the monitor it joins).
struct MonitorInstance {
  MonitorSpec spec;
  hwloc_obj_type_t type = HWLOC_OBJ_MACHINE;
  std::vector<hwloc_obj_t> objects;
  std::vector<std::vector<double>> values;  // [object][value]
  // What each value is: the source's events, or the names of the values of the monitor joined.
  std::vector<std::string> value_names;
  // Joins: the monitor read, and for each object the indexes of that monitor's objects below it.
  int input = -1;
  int denominator = -1;  // a ratio's second monitor
  std::vector<std::vector<std::size_t>> children;
};

// "PU P#3", "L3 L#0", "NUMANode P#1", "Machine L#0": OS indexes where users know them (PUs and
// NUMA nodes: taskset and numactl call them so), logical ones elsewhere.
std::string object_name(hwloc_obj_t object);

// One reduction of a vector of values (description.h's Reduction; count: the values not 0;
// balance: max over mean, 1 where every value is 0).
double reduce(Reduction reduction, const std::vector<double>& values);

class MonitorSet {
 public:
  // Checks every monitor against the topology and the sources before any is read: a level the
  // topology lacks, a source or event that does not exist, a join of an unknown monitor, of one
  // that is not below it, or a cycle: DescriptionError naming the monitor and its line.
  MonitorSet(std::vector<MonitorSpec> monitors, hwloc_topology_t topology,
             std::map<std::string, EventSource*> sources, const std::string& description_name);

  // Collects at the sources and aggregates up the tree.
  void update();

  // In the order update() computes them (each after the monitor it joins).
  const std::vector<MonitorInstance>& monitors() const { return monitors_; }

 private:
  std::vector<MonitorInstance> monitors_;
  std::map<std::string, EventSource*> sources_;
  std::chrono::steady_clock::time_point last_update_;  // construction, then each update()
};

}  // namespace larm::monitor
