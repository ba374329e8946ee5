// Running the validation sweeps with the bandwidth driver and mixed kernels.
#include "validate/validation_run.h"

#include <algorithm>
#include <cmath>
#include <set>

#include "codegen/isa.h"
#include "kernels/drivers.h"
#include "platform/buffer.h"
#include "platform/thread_team.h"
#include "results/statistics.h"
#include "results/store.h"

namespace larm::validate {
namespace {

std::string roof_name(const results::Roof& roof) {
  if (roof.level != Level::memory) return std::string(name(roof.level)) + " " + name(roof.access);
  return "memory " + memory_text(roof.memory) + " " + name_or_empty(roof.placement) + " " +
         name(roof.access);
}

const results::Roof* ceiling_for(const results::Results& results, const results::Roof& roof,
                                 const ValidationOptions& options) {
  for (const auto& r : results.roofs) {
    if (r.is_ceiling() && r.domain == roof.domain && r.isa == roof.isa &&
        r.precision == options.precision && r.op == options.op && r.in_model()) {
      return &r;
    }
  }
  return nullptr;
}

double log_distance(const codegen::Intensity& a, double b) {
  return std::abs(std::log(a.value() / b));
}

}  // namespace

std::vector<codegen::Intensity> intensity_grid() {
  std::vector<codegen::Intensity> grid;
  for (long octave = -5; octave <= 3; ++octave) {
    for (long quarter : {4L, 5L, 6L, 7L}) {
      grid.push_back(octave >= 0 ? codegen::Intensity{quarter << octave, 4}
                                 : codegen::Intensity{quarter, 4L << -octave});
    }
  }
  grid.push_back({16, 1});
  return grid;
}

std::vector<codegen::Intensity> quick_intensities(double ridge) {
  std::vector<codegen::Intensity> window;  // grid points within a factor 2 of the ridge
  for (const auto& ai : intensity_grid()) {
    if (ai.value() >= ridge / 2 && ai.value() <= ridge * 2) window.push_back(ai);
  }
  std::vector<codegen::Intensity> chosen = {{1, 32}, {1, 4}, {2, 1}, {16, 1}};
  for (double target : {ridge / 2, ridge, ridge * 2}) {
    if (window.empty()) break;
    chosen.push_back(
        *std::min_element(window.begin(), window.end(), [&](const auto& a, const auto& b) {
          return log_distance(a, target) < log_distance(b, target);
        }));
  }
  std::sort(chosen.begin(), chosen.end(),
            [](const auto& a, const auto& b) { return a.value() < b.value(); });
  chosen.erase(std::unique(chosen.begin(), chosen.end(),
                           [](const auto& a, const auto& b) { return a.value() == b.value(); }),
               chosen.end());
  return chosen;
}

std::vector<ValidationTarget> validation_targets(const topology::Topology& topology,
                                                 const results::Results& results,
                                                 const ValidationOptions& options,
                                                 std::vector<std::string>& skipped) {
  std::vector<ValidationTarget> targets;
  for (const auto& roof : results.roofs) {
    if (roof.is_ceiling() || roof.access != options.access || !roof.in_model()) continue;
    const std::string label = roof_name(roof);
    const RoofKind kind = roof_kind(roof.level, roof.placement);
    const auto& only_domains = options.domains;
    const auto& only_kinds = options.kinds;
    if ((!only_domains.empty() &&
         std::find(only_domains.begin(), only_domains.end(), roof.domain) == only_domains.end()) ||
        (!only_kinds.empty() &&
         std::find(only_kinds.begin(), only_kinds.end(), kind) == only_kinds.end())) {
      continue;
    }
    if (roof.domain < 0 || roof.domain >= static_cast<int>(topology.domains().size())) {
      skipped.push_back(label + ": domain " + std::to_string(roof.domain) + " not on this machine");
      continue;
    }
    const results::Roof* ceiling = ceiling_for(results, roof, options);
    if (ceiling == nullptr) {
      skipped.push_back("domain " + std::to_string(roof.domain) + " " + label + ": no " +
                        name(options.op) + " " + name(options.precision) + " " + name(roof.isa) +
                        " ceiling in the results");
      continue;
    }
    const auto& domain = topology.domains()[static_cast<std::size_t>(roof.domain)];
    ValidationTarget target;
    target.roof = roof;
    target.name = label;
    target.ceiling_gflops = ceiling->roof;
    const bool machine_wide =
        roof.placement == Placement::contention || roof.placement == Placement::congestion;
    if (machine_wide) {
      // Every core of the machine, as the roof was measured: the point is its domain's share.
      for (const auto& d : topology.domains()) {
        for (unsigned pu : d.core_pus) {
          target.pus.push_back(pu);
          target.thread_groups.push_back(d.index);
        }
      }
    } else {
      target.pus = domain.core_pus;
      if (static_cast<int>(target.pus.size()) > roof.threads && roof.threads > 0) {
        target.pus.resize(static_cast<std::size_t>(roof.threads));
      }
    }
    if (roof.placement == Placement::congestion) {
      for (const auto& memory : topology.memories()) target.nodes.push_back(memory.os_index);
      target.interleave = true;
    } else if (roof.memory) {
      target.nodes = {roof.memory->os_index};
    } else if (!domain.local_memories.empty()) {
      target.nodes = {
          topology.memories()[static_cast<std::size_t>(domain.local_memories.front())].os_index};
    }
    target.base = {.isa = roof.isa,
                   .access = options.access,
                   .op = options.op,
                   .precision = options.precision};
    const double ridge = target.ceiling_gflops / roof.roof;
    target.intensities = options.quick ? quick_intensities(ridge) : intensity_grid();
    targets.push_back(std::move(target));
  }
  return targets;
}

void run_validation(const topology::Topology& topology, const platform::Clock& clock,
                    const std::vector<ValidationTarget>& targets, const ValidationOptions& options,
                    results::Results& results) {
  results.validation.clear();
  int total = 0;
  for (const auto& t : targets) total += static_cast<int>(t.intensities.size());
  const kernels::DriverContext context{
      .topology = topology,
      .clock = clock,
      .sampling = {.samples = options.samples,
                   .min_sample_seconds = options.min_sample_seconds,
                   .stop = options.stop}};
  int index = 0;
  const Estimator estimator = results::roof_estimator(results);
  const int passes = std::max(options.passes, 1);
  for (const auto& target : targets) {
    platform::ThreadTeam team(topology.handle(), target.pus);
    const std::size_t first = results.validation.size();
    const std::string before = options.placement_state ? options.placement_state() : "";
    for (const auto& ai : target.intensities) {
      results::ValidationPoint point;
      point.domain = target.roof.domain;
      point.roof = target.name;
      point.level = target.roof.level;
      point.memory = target.roof.memory;
      point.placement = target.roof.placement;
      point.access = target.roof.access;
      point.op = options.op;
      point.precision = options.precision;
      point.isa = target.roof.isa;
      point.threads =
          target.thread_groups.empty()
              ? static_cast<int>(target.pus.size())
              : static_cast<int>(std::count(target.thread_groups.begin(),
                                            target.thread_groups.end(), target.roof.domain));
      point.ai = ai.value();
      point.roof_gbps = target.roof.roof;
      point.ceiling_gflops = target.ceiling_gflops;
      point.predicted_gflops = std::min(point.ai * point.roof_gbps, point.ceiling_gflops);
      point.estimator = estimator;
      const auto spec = codegen::mixed_spec(target.base, ai);
      if (!spec) {
        point.status = Status::absent;
        point.status_reason = "no mixed kernel of this intensity";
      } else {
        point.kernel = spec->name();
      }
      results.validation.push_back(point);
    }
    // The points in passes, each pass over every intensity, as the roofs are measured: a moment
    // the host slows one pass down is one pass's samples, which the roofs' estimator (p90 on a
    // shared host) sets aside in the point as it did in the roof.
    // Each pass begins with the roof's own kernel, as the characterization ran it.
    const kernels::BandwidthRequest roof_request{
        .spec = codegen::StreamSpec{.isa = target.roof.isa,
                                    .access = target.roof.access,
                                    .unroll = codegen::roof_unroll(
                                        target.roof.isa, target.roof.level, target.roof.access)},
        .nodes = target.nodes,
        .policy = target.interleave ? platform::BindPolicy::interleave : platform::BindPolicy::bind,
        .working_set_bytes = target.roof.working_set_bytes,
        .thread_groups = target.thread_groups};
    std::vector<double> roof_samples;
    // Each point's value from the samples of the passes run: also when an interrupt stops them,
    // so that what is kept was measured and is judged alike.
    const auto finish = [&] {
      for (std::size_t k = 0; k < target.intensities.size(); ++k) {
        results::ValidationPoint& point = results.validation[first + k];
        if (point.samples.empty()) continue;
        point.stats = results::summarize(point.samples);
        point.gflops = results::estimate(point.samples, estimator);
        point.relative_error = (point.gflops - point.predicted_gflops) / point.predicted_gflops;
        if (point.status == Status::ok && results::is_unstable(point.stats))
          point.status = Status::unstable;
        if (!roof_samples.empty()) {
          point.roof_gbps_alongside = results::estimate(roof_samples, estimator);
          const double predicted =
              std::min(point.ai * *point.roof_gbps_alongside, point.ceiling_gflops);
          point.relative_error_alongside = (point.gflops - predicted) / predicted;
        }
      }
    };
    try {
      for (int pass = 0; pass < passes; ++pass) {
        try {
          const auto measured = kernels::measure_bandwidth(context, team, roof_request);
          const auto& gbps =
              target.thread_groups.empty()
                  ? measured.gbps
                  : measured.group_gbps.at(static_cast<std::size_t>(target.roof.domain));
          roof_samples.insert(roof_samples.end(), gbps.begin(), gbps.end());
        } catch (const kernels::Interrupted&) {
          throw;
        } catch (const std::exception&) {
          // The points are still judged against the characterization's roof.
        }
        for (std::size_t k = 0; k < target.intensities.size(); ++k) {
          results::ValidationPoint& point = results.validation[first + k];
          if (options.on_progress) options.on_progress(++index, total * passes, target.name);
          if (point.kernel.empty() || point.status == Status::absent) continue;
          try {
            const auto measured = kernels::measure_bandwidth(
                context, team,
                {.spec = *codegen::mixed_spec(target.base, target.intensities[k]),
                 .nodes = target.nodes,
                 .policy = target.interleave ? platform::BindPolicy::interleave
                                             : platform::BindPolicy::bind,
                 .working_set_bytes = target.roof.working_set_bytes,
                 .thread_groups = target.thread_groups});
            point.working_set_bytes = measured.working_set_bytes;
            const auto& gbps_samples =
                target.thread_groups.empty()
                    ? measured.gbps
                    : measured.group_gbps.at(static_cast<std::size_t>(target.roof.domain));
            for (double gbps : gbps_samples) point.samples.push_back(gbps * point.ai);
            const bool uneven = measured.interleave_evenness &&
                                *measured.interleave_evenness < platform::kMinInterleaveEvenness;
            if (measured.placement_fraction < platform::kMinPlacedFraction || uneven)
              point.status = Status::misplaced;
          } catch (const kernels::Interrupted&) {
            throw;
          } catch (const std::exception& error) {
            point.status = Status::absent;
            point.status_reason = error.what();
            point.samples.clear();
          }
        }
      }
    } catch (const kernels::Interrupted&) {
      finish();
      // The points no pass reached were not measured: not kept.
      results.validation.erase(
          std::remove_if(results.validation.begin() + static_cast<std::ptrdiff_t>(first),
                         results.validation.end(),
                         [](const results::ValidationPoint& p) {
                           return p.samples.empty() && p.status != Status::absent;
                         }),
          results.validation.end());
      throw;
    }
    finish();
    // The state its points ran in, when the probes on either side agree: each point against the
    // roof's value in that state, not the model's (a host that moved the cores between the roofs'
    // passes and these points would make the model's error the placement's).
    if (!options.placement_state || before.empty() || options.placement_state() != before) {
      continue;
    }
    const results::StateRoof* in_state = nullptr;
    for (const auto& s : target.roof.by_state) {
      if (s.state == before) in_state = &s;
    }
    for (std::size_t i = first; i < results.validation.size(); ++i) {
      results::ValidationPoint& p = results.validation[i];
      p.placement_state = before;
      if (in_state == nullptr) continue;
      p.roof_gbps = in_state->value;
      p.predicted_gflops = std::min(p.ai * p.roof_gbps, p.ceiling_gflops);
      if (!p.samples.empty()) {
        p.relative_error = (p.gflops - p.predicted_gflops) / p.predicted_gflops;
      }
    }
  }
}

ValidationOutcome validate_roofs(const topology::Topology& topology, const platform::Clock& clock,
                                 const ValidationOptions& options, const std::filesystem::path& dir,
                                 results::Results& results) {
  ValidationOutcome outcome;
  const auto targets = validation_targets(topology, results, options, outcome.skipped);
  outcome.roofs = targets.size();
  try {
    run_validation(topology, clock, targets, options, results);
  } catch (const kernels::Interrupted&) {
    outcome.interrupted = true;
  }
  results::save_results(dir, results);
  outcome.errors = roof_errors(results);
  return outcome;
}

}  // namespace larm::validate
