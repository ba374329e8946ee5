// Roofs split by the placement state their passes were measured in.
#include "characterize/state_roofs.h"

#include <algorithm>
#include <cstdio>
#include <map>

#include "results/roof_interval.h"
#include "results/statistics.h"

namespace larm::characterize {

std::optional<std::string> state_of_span(const std::vector<StateProbe>& probes, double start_s,
                                         double end_s) {
  const StateProbe* before = nullptr;
  const StateProbe* after = nullptr;
  for (const StateProbe& p : probes) {
    if (p.elapsed_s <= start_s && (!before || p.elapsed_s >= before->elapsed_s)) before = &p;
    if (p.elapsed_s >= end_s && (!after || p.elapsed_s < after->elapsed_s)) after = &p;
  }
  if (!before || !after || before->state != after->state) return std::nullopt;
  return before->state;
}

std::string model_state(const std::vector<StateProbe>& probes) {
  std::vector<std::string> order;
  std::map<std::string, int> seen;
  std::map<std::string, bool> declared;
  for (const StateProbe& p : probes) {
    if (!seen.count(p.state)) {
      order.push_back(p.state);
      declared[p.state] = true;
    }
    ++seen[p.state];
    declared[p.state] = declared[p.state] && p.as_declared;
  }
  for (const std::string& state : order) {
    if (declared[state]) return state;
  }
  std::string most;
  for (const std::string& state : order) {
    if (most.empty() || seen[state] > seen[most]) most = state;
  }
  return most;
}

int split_roofs_by_state(results::Results& results, const std::vector<RecordSlots>& slots,
                         const std::vector<StateProbe>& probes, Estimator estimator) {
  std::vector<std::string> states;
  for (const StateProbe& p : probes) {
    if (std::find(states.begin(), states.end(), p.state) == states.end()) states.push_back(p.state);
  }
  if (states.size() < 2) return 0;
  const std::string model = model_state(probes);
  int split = 0;
  for (const RecordSlots& s : slots) {
    for (std::size_t k = 0; k < s.roof_passes.size(); ++k) {
      results::Roof& roof = results.roofs[s.roofs.first + k];
      if (!roof.present() || roof.is_ceiling() || roof.threads < 2) continue;
      // Each pass's samples, in the order pooling appended them, by the state of its span.
      std::map<std::string, std::vector<double>> samples;
      std::map<std::string, std::vector<double>> pass_values;
      std::size_t at = 0;
      bool all_known = true;
      for (const auto& [ordinal, count] : s.roof_passes[k]) {
        if (at + count > roof.samples.size()) break;
        const RecordSlots::PassSpan& span = s.spans.at(ordinal);
        const auto state = state_of_span(probes, span.start_s, span.end_s);
        all_known = all_known && state.has_value();
        if (state && count > 0) {
          const std::vector<double> pass(
              roof.samples.begin() + static_cast<std::ptrdiff_t>(at),
              roof.samples.begin() + static_cast<std::ptrdiff_t>(at + count));
          samples[*state].insert(samples[*state].end(), pass.begin(), pass.end());
          pass_values[*state].push_back(results::estimate(pass, estimator));
        }
        at += count;
      }
      // Every pass in one state: the roof is that state's, whichever the model's (said so, so
      // that the history and the reader keep it with its state). Some passes in no state and
      // the others in one: nothing can be said of the roof.
      if (samples.empty() || (samples.size() == 1 && !all_known)) continue;
      const bool one_state = samples.size() == 1;
      roof.by_state.clear();
      for (const std::string& state : states) {
        if (!samples.count(state)) continue;
        const auto& values = samples[state];
        results::StateRoof entry{
            .state = state,
            .value = results::estimate(values, estimator),
            .interval = results::roof_interval(values, pass_values[state], estimator),
            .samples = static_cast<int>(values.size()),
            .passes = static_cast<int>(pass_values[state].size()),
            .model = one_state || state == model};
        if (entry.model) {
          // The interval's next-run widening comes after the run, from this interval.
          roof.roof = entry.value;
          roof.interval = entry.interval;
        }
        roof.by_state.push_back(std::move(entry));
      }
      split += one_state ? 0 : 1;
    }
  }
  return split;
}

std::optional<std::string> state_roofs_warning(const results::Results& results,
                                               const std::string& model) {
  struct Split {
    const results::Roof* roof;
    double ratio;  // highest / lowest state value
  };
  std::vector<Split> splits;
  std::vector<std::string> states;
  int elsewhere = 0;  // roofs measured in one state only, not the model's
  std::string elsewhere_state;
  for (const results::Roof& roof : results.roofs) {
    if (roof.by_state.size() == 1 && roof.by_state.front().state != model) {
      ++elsewhere;
      elsewhere_state = roof.by_state.front().state;
    }
    if (roof.by_state.size() < 2) continue;
    double lo = roof.by_state.front().value, hi = lo;
    for (const results::StateRoof& s : roof.by_state) {
      lo = std::min(lo, s.value);
      hi = std::max(hi, s.value);
      if (std::find(states.begin(), states.end(), s.state) == states.end())
        states.push_back(s.state);
    }
    splits.push_back({&roof, lo > 0 ? hi / lo : 1});
  }
  if (splits.empty() && elsewhere == 0) return std::nullopt;
  const std::string only_there = elsewhere == 0
                                     ? std::string()
                                     : std::to_string(elsewhere) + " roofs were measured only in " +
                                           elsewhere_state + ", not in the model's state " + model +
                                           ": their values are that state's (by_state says so)";
  if (splits.empty()) return "roofs and placement states: " + only_there;
  std::stable_sort(splits.begin(), splits.end(),
                   [](const Split& a, const Split& b) { return a.ratio > b.ratio; });
  // Its headline (up to the first colon) in plain words; the states' names after it.
  std::string text = "some roofs depend on where the host put the cores (" +
                     std::to_string(states.size()) +
                     " placement states seen): " + std::to_string(splits.size()) +
                     " roofs carry each state's value (by_state); the states: ";
  for (std::size_t i = 0; i < states.size(); ++i) text += (i ? " | " : "") + states[i];
  text += "; the model uses " + model + ". Most apart:";
  for (std::size_t i = 0; i < std::min<std::size_t>(4, splits.size()); ++i) {
    const results::Roof& roof = *splits[i].roof;
    std::string label = "domain " + std::to_string(roof.domain) + " " + name(roof.level);
    if (roof.memory) label += " " + roof.memory->text();
    if (roof.placement) label += std::string(" ") + name(*roof.placement);
    label += std::string(" ") + roof.operation();
    text += (i ? "; " : " ") + label;
    for (std::size_t k = 0; k < roof.by_state.size(); ++k) {
      char value[64];
      std::snprintf(value, sizeof value, "%s%.1f", k ? " | " : " ", roof.by_state[k].value);
      text += value;
    }
    text += std::string(" ") + roof.unit();
  }
  if (!only_there.empty()) text += "; " + only_there;
  return text;
}

}  // namespace larm::characterize
