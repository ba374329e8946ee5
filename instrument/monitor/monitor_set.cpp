#include "instrument/monitor/monitor_set.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <numeric>
#include <set>
#include <string>

namespace larm::monitor {
namespace {

bool is_join(const MonitorSpec& spec) {
  return spec.source == "accumulate" || spec.source == "hierarchical" || spec.source == "rate" ||
         spec.source == "ratio";
}

// Whether `inner` lies below `outer`: its CPUs among outer's, or, for a memory without CPUs, its
// node among outer's nodes.
bool below(hwloc_obj_t inner, hwloc_obj_t outer) {
  if (inner->cpuset != nullptr && !hwloc_bitmap_iszero(inner->cpuset)) {
    return outer->cpuset != nullptr && hwloc_bitmap_isincluded(inner->cpuset, outer->cpuset);
  }
  return inner->nodeset != nullptr && outer->nodeset != nullptr &&
         !hwloc_bitmap_iszero(inner->nodeset) &&
         hwloc_bitmap_isincluded(inner->nodeset, outer->nodeset);
}

std::string at(const std::string& description, const MonitorSpec& spec) {
  return description + ":" + std::to_string(spec.line) + ": monitor " + spec.name;
}

}  // namespace

std::string object_name(hwloc_obj_t object) {
  const bool os = object->type == HWLOC_OBJ_PU || object->type == HWLOC_OBJ_NUMANODE;
  char type[64];
  hwloc_obj_type_snprintf(type, sizeof type, object,
                          0);  // "L3", not hwloc_obj_type_string's "L3Cache"
  return std::string(type) + (os ? " P#" : " L#") +
         std::to_string(os ? object->os_index : object->logical_index);
}

double reduce(Reduction reduction, const std::vector<double>& values) {
  if (values.empty()) return 0;
  const double n = static_cast<double>(values.size());
  const double sum = std::accumulate(values.begin(), values.end(), 0.0);
  const double mean = sum / n;
  const auto [low, high] = std::minmax_element(values.begin(), values.end());
  double squares = 0;
  for (double v : values) squares += (v - mean) * (v - mean);
  switch (reduction) {
    case Reduction::none:
    case Reduction::sum:
      return sum;
    case Reduction::mean:
      return mean;
    case Reduction::min:
      return *low;
    case Reduction::max:
      return *high;
    case Reduction::var:
      return squares / n;
    case Reduction::sd:
      return std::sqrt(squares / n);
    case Reduction::balance:
      return mean == 0 ? 1 : *high / mean;
    case Reduction::count:
      return static_cast<double>(
          std::count_if(values.begin(), values.end(), [](double v) { return v != 0; }));
  }
  return sum;
}

MonitorSet::MonitorSet(std::vector<MonitorSpec> monitors, hwloc_topology_t topology,
                       std::map<std::string, EventSource*> sources,
                       const std::string& description_name)
    : sources_(std::move(sources)), last_update_(std::chrono::steady_clock::now()) {
  std::map<std::string, std::size_t> by_name;
  for (std::size_t i = 0; i < monitors.size(); ++i) by_name[monitors[i].name] = i;

  // The monitors in dependency order: a join after the monitor it reads.
  std::vector<std::size_t> order;
  std::vector<int> state(monitors.size(), 0);  // 0 new, 1 visiting, 2 placed
  std::function<void(std::size_t)> visit = [&](std::size_t i) {
    const MonitorSpec& spec = monitors[i];
    if (state[i] == 2) return;
    if (state[i] == 1)
      throw DescriptionError(at(description_name, spec) + " joins itself through " +
                             spec.events.front());
    state[i] = 1;
    if (is_join(spec)) {
      const std::size_t reads = spec.source == "ratio" ? 2 : 1;
      if (spec.events.size() != reads) {
        throw DescriptionError(
            at(description_name, spec) +
            (reads == 1 ? ": a " + spec.source + " monitor reads one monitor (EVSET:=MONITOR)"
                        : ": a ratio reads two monitors "
                          "(EVSET:=NUMERATOR,DENOMINATOR)"));
      }
      for (const std::string& read : spec.events) {
        const auto input = by_name.find(read);
        if (input == by_name.end()) {
          throw DescriptionError(at(description_name, spec) + " reads " + read +
                                 ", which no monitor of the description is");
        }
        visit(input->second);
      }
    }
    state[i] = 2;
    order.push_back(i);
  };
  for (std::size_t i = 0; i < monitors.size(); ++i) visit(i);

  std::map<std::string, int> placed;  // name -> index in monitors_
  for (std::size_t i : order) {
    MonitorInstance m;
    m.spec = monitors[i];
    const std::string where = at(description_name, m.spec);
    hwloc_obj_type_t type;
    union hwloc_obj_attr_u attributes;
    if (hwloc_type_sscanf(m.spec.object.c_str(), &type, &attributes, sizeof attributes) != 0) {
      throw DescriptionError(where + ": OBJ " + m.spec.object + " is not an hwloc object type");
    }
    m.type = type;
    const int depth = hwloc_get_type_depth(topology, type);
    if (depth == HWLOC_TYPE_DEPTH_UNKNOWN || hwloc_get_nbobjs_by_type(topology, type) <= 0) {
      throw DescriptionError(where + ": this topology has no " + m.spec.object);
    }
    if (depth == HWLOC_TYPE_DEPTH_MULTIPLE) {
      throw DescriptionError(where + ": " + m.spec.object +
                             " is at several depths of this topology: name a level that is not");
    }
    for (int k = 0; k < hwloc_get_nbobjs_by_type(topology, type); ++k) {
      m.objects.push_back(hwloc_get_obj_by_type(topology, type, static_cast<unsigned>(k)));
    }
    if (is_join(m.spec)) {
      if (m.spec.source == "accumulate" && m.spec.reduction != Reduction::none &&
          m.spec.reduction != Reduction::sum) {
        throw DescriptionError(where + ": accumulate sums; a REDUCTION is hierarchical's");
      }
      m.input = placed.at(m.spec.events.front());
      const MonitorInstance& input = monitors_[static_cast<std::size_t>(m.input)];
      if (m.spec.source == "ratio") {
        // Value by value, object by object: the numerator's values over the denominator's (its
        // only value, or as many as the numerator has), both on this monitor's level.
        m.denominator = placed.at(m.spec.events[1]);
        const MonitorInstance& denominator = monitors_[static_cast<std::size_t>(m.denominator)];
        if (m.spec.reduction != Reduction::none) {
          throw DescriptionError(where + ": a ratio divides; a REDUCTION is hierarchical's");
        }
        if (input.type != m.type || denominator.type != m.type) {
          throw DescriptionError(where + " on " + m.spec.object + " is the ratio of " +
                                 input.spec.name + " on " + input.spec.object + " to " +
                                 denominator.spec.name + " on " + denominator.spec.object +
                                 ": a ratio lives on the level of the monitors it reads");
        }
        const std::size_t n = input.value_names.size(), d = denominator.value_names.size();
        if (d != 1 && d != n) {
          throw DescriptionError(where + ": " + denominator.spec.name + " has " +
                                 std::to_string(d) + " values and " + input.spec.name + " " +
                                 std::to_string(n) + ": the denominator has one, or as many");
        }
        for (std::size_t v = 0; v < n; ++v) {
          m.value_names.push_back(input.value_names[v] + "/" +
                                  denominator.value_names[d == 1 ? 0 : v]);
        }
        for (std::size_t o = 0; o < m.objects.size(); ++o) m.children.push_back({o});
        m.values.assign(m.objects.size(), std::vector<double>(n, 0.0));
        placed[m.spec.name] = static_cast<int>(monitors_.size());
        monitors_.push_back(std::move(m));
        continue;
      }
      if (m.spec.source == "rate") {
        // Per second, object by object: the monitor read lives on the same level.
        if (m.spec.reduction != Reduction::none) {
          throw DescriptionError(where +
                                 ": rate divides by the time; a REDUCTION is "
                                 "hierarchical's");
        }
        if (input.type != m.type) {
          throw DescriptionError(where + " on " + m.spec.object + " is the rate of " +
                                 input.spec.name + " on " + input.spec.object +
                                 ": a rate lives on the level of the monitor it reads");
        }
        for (std::size_t o = 0; o < m.objects.size(); ++o) m.children.push_back({o});
        m.value_names = input.value_names;
        m.values.assign(m.objects.size(), std::vector<double>(m.value_names.size(), 0.0));
        placed[m.spec.name] = static_cast<int>(monitors_.size());
        monitors_.push_back(std::move(m));
        continue;
      }
      // Set inclusion cannot tell a level from the one below when their objects cover the same
      // CPUs (a core of one PU): the depths do, for the levels of the tree (not memory nodes).
      const int input_depth = hwloc_get_type_depth(topology, input.type);
      if (depth >= 0 && input_depth >= 0 && input_depth <= depth) {
        throw DescriptionError(where + " on " + m.spec.object + " joins " + input.spec.name +
                               " on " + input.spec.object + ", which is not below it");
      }
      for (hwloc_obj_t object : m.objects) {
        std::vector<std::size_t> children;
        for (std::size_t c = 0; c < input.objects.size(); ++c) {
          if (input.objects[c] != object && below(input.objects[c], object)) children.push_back(c);
        }
        m.children.push_back(std::move(children));
      }
      const bool any = std::any_of(m.children.begin(), m.children.end(),
                                   [](const auto& c) { return !c.empty(); });
      if (!any) {
        throw DescriptionError(where + " on " + m.spec.object + " joins " + input.spec.name +
                               " on " + input.spec.object + ", which is not below it");
      }
    } else {
      const auto source = sources_.find(m.spec.source);
      if (source == sources_.end()) {
        std::string known;
        for (const auto& [name, unused] : sources_) known += (known.empty() ? "" : ", ") + name;
        throw DescriptionError(where + ": PERF_LIB " + m.spec.source + " is not a source (" +
                               known + ", accumulate, hierarchical, rate, ratio)");
      }
      for (const std::string& event : m.spec.events) {
        const std::string why = source->second->lacks(event, type);
        if (!why.empty()) {
          throw DescriptionError(where + ": " + m.spec.source + " has no event " + event + " on " +
                                 m.spec.object + ": " + why);
        }
        source->second->use(event);
      }
    }
    m.value_names =
        m.input >= 0 ? monitors_[static_cast<std::size_t>(m.input)].value_names : m.spec.events;
    m.values.assign(m.objects.size(), std::vector<double>(m.value_names.size(), 0.0));
    placed[m.spec.name] = static_cast<int>(monitors_.size());
    monitors_.push_back(std::move(m));
  }
}

void MonitorSet::update() {
  const auto now = std::chrono::steady_clock::now();
  const double interval = std::chrono::duration<double>(now - last_update_).count();
  last_update_ = now;
  std::set<EventSource*> refreshed;
  for (MonitorInstance& m : monitors_) {
    if (m.denominator >= 0) {
      const MonitorInstance& numerator = monitors_[static_cast<std::size_t>(m.input)];
      const MonitorInstance& denominator = monitors_[static_cast<std::size_t>(m.denominator)];
      const bool one = denominator.value_names.size() == 1;
      for (std::size_t o = 0; o < m.objects.size(); ++o) {
        for (std::size_t v = 0; v < m.values[o].size(); ++v) {
          const double below = denominator.values[o][one ? 0 : v];
          m.values[o][v] = below != 0 ? numerator.values[o][v] / below : 0;
        }
      }
      continue;
    }
    if (m.input >= 0 && m.spec.source == "rate") {
      const MonitorInstance& input = monitors_[static_cast<std::size_t>(m.input)];
      for (std::size_t o = 0; o < m.objects.size(); ++o) {
        for (std::size_t v = 0; v < m.values[o].size(); ++v) {
          m.values[o][v] = interval > 0 ? input.values[o][v] / interval : 0;
        }
      }
      continue;
    }
    if (m.input >= 0) {
      const MonitorInstance& input = monitors_[static_cast<std::size_t>(m.input)];
      const Reduction reduction = m.spec.source == "accumulate" ? Reduction::sum : m.spec.reduction;
      for (std::size_t o = 0; o < m.objects.size(); ++o) {
        for (std::size_t v = 0; v < m.values[o].size(); ++v) {
          std::vector<double> column;
          for (std::size_t c : m.children[o]) column.push_back(input.values[c][v]);
          m.values[o][v] = reduce(reduction, column);
        }
      }
      continue;
    }
    EventSource* source = sources_.at(m.spec.source);
    if (refreshed.insert(source).second) source->refresh();
    for (std::size_t o = 0; o < m.objects.size(); ++o) {
      for (std::size_t e = 0; e < m.spec.events.size(); ++e) {
        m.values[o][e] = source->read(m.spec.events[e], m.objects[o]);
      }
    }
  }
}

}  // namespace larm::monitor
