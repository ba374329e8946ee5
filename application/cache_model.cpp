// The cache model's geometry.
#include "application/cache_model.h"

#include <cstdlib>

#include <algorithm>
#include <optional>

#include "instrument/compiler_plugin/compiler_counts.h"
#include "instrument/count_tool/count_protocol.h"
#include "results/number_text.h"
#include "results/printable_text.h"
#include "results/statistics.h"
#include "results/topology_record.h"
#include "results/usage_error.h"

namespace larm::application {
namespace {

// When hwloc does not know a level's associativity: 16 ways, typical of L2s and LLCs (an L1's
// 8 or 12 change little for a 32-48 KiB cache); fully associative is modelled with 64 ways.
constexpr int kUnknownWays = 16;
constexpr int kMaxWays = 64;

// Input quoted in an error: printable, and at most 48 bytes of it (a 100 kB option is not echoed).
std::string quoted(const std::string& text) {
  constexpr std::size_t kShown = 48;
  return "\"" + results::printable(results::cut_to_bytes(text, kShown)) +
         (text.size() > kShown ? "...\"" : "\"");
}

// A level's capacity within what the tool models: one set, 64 GiB and its lines limit at most.
bool capacity_in_range(std::uint64_t bytes, std::uint64_t ways, std::uint64_t line) {
  return bytes >= ways * line && bytes <= (1ULL << 36) &&
         bytes / line <= LARM_COUNT_MAX_CACHE_LINES;
}

}  // namespace

bool another_machine(const topology::Topology& machine, const results::Results& results) {
  return results::identity_json(results.topology) != results::identity_json(machine.record());
}

namespace {

// A level as the model needs it, from this machine's topology or from the topology another
// machine's results carry (which records no associativity).
struct LevelGeometry {
  Level level = Level::L1;
  std::uint64_t instance_bytes = 0;
  unsigned line_bytes = 0;
  int associativity = 0;  // hwloc's: 0 unknown, -1 fully associative
  int max_sharing_cores = 0;
};

std::vector<LevelGeometry> level_geometry(const topology::Topology& machine,
                                          const results::Results* other, int domain) {
  std::vector<LevelGeometry> levels;
  if (other != nullptr) {
    const results::DomainRecord* found = other->topology.domain(domain);
    if (found == nullptr) return levels;
    for (const results::CacheRecord& c : found->caches) {
      const std::optional<Level> level = parse<Level>(c.level);
      if (!level) continue;
      levels.push_back(
          {*level, c.instance_bytes, static_cast<unsigned>(c.line_bytes), 0, c.max_sharing_cores});
    }
    return levels;
  }
  for (const auto& d : machine.domains()) {
    if (d.index != domain) continue;
    for (const topology::CacheLevel& c : d.caches) {
      levels.push_back(
          {c.level(), c.instance_bytes, c.line_bytes, c.associativity, c.max_sharing_cores});
    }
  }
  return levels;
}

// modelled_caches, `other` saying whether `results` are another machine's.
std::vector<ModelledCache> caches_of(const topology::Topology& machine,
                                     const results::Results* results, bool other_machine,
                                     int domain, std::string& note, bool effective) {
  std::vector<ModelledCache> caches;
  // Another machine's results: its caches are modelled (a what-if of this program there).
  const results::Results* other = other_machine ? results : nullptr;
  const std::string declared_source = other ? "declared (its results)" : "declared (hwloc)";
  std::vector<LevelGeometry> levels = level_geometry(machine, other, domain);
  if (levels.empty() && other != nullptr) {
    // Results that record no cache (a node known from a table): this machine's are modelled, at
    // their declared capacities (the results measured none of this machine's).
    note = "the results' machine records no CPU cache: this machine's are modelled";
    return caches_of(machine, nullptr, false, domain, note, false);
  }
  if (levels.empty()) {
    note = "the topology declares no CPU cache: no cache model";
    return caches;
  }
  if (levels.size() > 3) levels.erase(levels.begin() + 2, levels.end() - 1);
  for (const LevelGeometry& level : levels) {
    ModelledCache cache;
    cache.level = level.level;
    cache.line_bytes = level.line_bytes > 0 ? level.line_bytes : 64;
    cache.ways = level.associativity > 0   ? std::min(level.associativity, kMaxWays)
                 : level.associativity < 0 ? kMaxWays
                                           : kUnknownWays;
    cache.bytes = level.instance_bytes;
    cache.capacity_source = declared_source;
    // The load sweep's capacity per thread times the cores sharing an instance; without its
    // plateau, the one-core chase's instance (the later sweep wins).
    if (results != nullptr && effective) {
      for (const SizeSweep sweep : {SizeSweep::latency, SizeSweep::bandwidth}) {
        for (const auto& capacity : results->capacities) {
          if (capacity.domain != domain || capacity.level != cache.level ||
              capacity.sweep != sweep || !capacity.effective_bytes ||
              *capacity.effective_bytes == 0) {
            continue;
          }
          const std::uint64_t bytes =
              sweep == SizeSweep::latency
                  ? *capacity.effective_bytes
                  : *capacity.effective_bytes *
                        static_cast<std::uint64_t>(std::max(level.max_sharing_cores, 1));
          if (bytes > level.instance_bytes) continue;
          cache.bytes = bytes;
          cache.capacity_source =
              sweep == SizeSweep::latency ? "effective (latency sweep)" : "effective (load sweep)";
        }
      }
    }
    cache.bytes = std::max<std::uint64_t>(
        cache.bytes, static_cast<std::uint64_t>(cache.ways) * cache.line_bytes);
    caches.push_back(cache);
  }
  // The tool models one line size: the outermost level's.
  for (ModelledCache& cache : caches) cache.line_bytes = caches.back().line_bytes;
  return caches;
}

}  // namespace

std::vector<ModelledCache> modelled_caches(const topology::Topology& machine,
                                           const results::Results* results, int domain,
                                           std::string& note, bool effective) {
  return caches_of(machine, results, results != nullptr && another_machine(machine, *results),
                   domain, note, effective);
}

unsigned long cache_option_line(const std::string& option) {
  const std::size_t colon = option.find_last_of(':');
  return colon == std::string::npos ? 0 : std::strtoul(option.c_str() + colon + 1, nullptr, 10);
}

std::string cache_spec_problem(const std::string& spec) {
  std::vector<std::string> levels;
  std::string::size_type start = 0;
  while (true) {
    const auto comma = spec.find(',', start);
    levels.push_back(spec.substr(start, comma - start));
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  if (levels.size() > 3)
    return quoted(spec) + ": at most 3 levels (" + std::to_string(levels.size()) + " given)";
  std::uint64_t line = 0;
  for (const std::string& level : levels) {
    std::uint64_t values[3] = {};
    std::string::size_type at = 0;
    for (int i = 0; i < 3; ++i) {
      const auto end = i < 2 ? level.find(':', at) : level.size();
      const std::string digits =
          end == std::string::npos ? std::string() : level.substr(at, end - at);
      if (digits.empty() || digits.size() > 12 ||
          digits.find_first_not_of("0123456789") != std::string::npos) {
        return quoted(level) + ": expected SIZE:WAYS:LINE in bytes, e.g. 49152:12:64";
      }
      values[i] = std::stoull(digits);
      at = end + 1;
    }
    const auto [size, ways, bytes] = values;
    if (bytes < 8 || bytes > 4096 || (bytes & (bytes - 1)) != 0)
      return quoted(level) + ": the line size must be a power of two from 8 to 4096";
    if (line != 0 && bytes != line) return quoted(spec) + ": every level needs one line size";
    line = bytes;
    if (ways < 1 || ways > 64) return quoted(level) + ": 1 to 64 ways";
    if (!capacity_in_range(size, ways, bytes))
      return quoted(level) +
             ": the capacity must hold one set and be at most 64 GiB and 2^28 lines (16 GiB of "
             "64-byte lines: the model keeps 8 bytes per line)";
  }
  return {};
}

std::string cache_option(const std::vector<ModelledCache>& caches) {
  std::string option;
  for (const ModelledCache& cache : caches) {
    option += (option.empty() ? "" : ",") + std::to_string(cache.bytes) + ":" +
              std::to_string(cache.ways) + ":" + std::to_string(cache.line_bytes);
  }
  return option;
}

std::string cache_model_text(const std::vector<ModelledCache>& caches) {
  std::string text;
  for (std::size_t i = 0; i < caches.size(); ++i) {
    const ModelledCache& cache = caches[i];
    text += (i ? ", " : "") + std::string(name(cache.level)) + " " +
            results::bytes_text(cache.bytes) + " " + cache.capacity_source + " " +
            std::to_string(cache.ways) + "-way" +
            (i + 1 == caches.size() ? " shared" : " per thread");
  }
  if (!caches.empty()) text += "; " + std::to_string(caches.back().line_bytes) + "-byte lines";
  return text;
}

namespace {

// "L1=48KiB,L3=16MiB": those levels' capacities in `caches` (sizes as parse_bytes reads them).
void set_named_capacities(const std::string& spec, std::vector<ModelledCache>& caches,
                          const std::string& command) {
  std::string::size_type start = 0;
  for (;;) {
    const auto comma = spec.find(',', start);
    const std::string item = spec.substr(start, comma - start);
    const auto equals = item.find('=');
    const std::string level = item.substr(0, equals);
    ModelledCache* cache = nullptr;
    for (ModelledCache& c : caches) {
      if (name(c.level) == level) cache = &c;
    }
    if (cache == nullptr) {
      std::string levels;
      for (const ModelledCache& c : caches)
        levels += (levels.empty() ? "" : ", ") + std::string(name(c.level));
      throw UsageError(command + ": --cache-model " + quoted(item) +
                       ": this machine's modelled levels are " + levels);
    }
    const std::uint64_t bytes =
        equals == std::string::npos
            ? 0
            : results::parse_bytes(item.substr(equals + 1), command + ": --cache-model " + level);
    if (!capacity_in_range(bytes, static_cast<std::uint64_t>(cache->ways), cache->line_bytes))
      throw UsageError(command + ": --cache-model " + quoted(item) +
                       ": give a capacity such as 48KiB or 16MiB (one set at least; 64 GiB and "
                       "2^28 lines at most)");
    cache->bytes = bytes;
    cache->capacity_source = "as given";
    if (comma == std::string::npos) return;
    start = comma + 1;
  }
}

}  // namespace

CacheModelSetting cache_model_setting(const std::string& spec, bool no_model,
                                      const topology::Topology& machine,
                                      const results::Results* results, const std::string& command) {
  CacheModelSetting out;
  if (no_model) {
    if (!spec.empty())
      throw UsageError(command + ": --cache-model and --no-cache-model exclude each other");
    out.text = "off (--no-cache-model)";
    return out;
  }
  const bool named = spec.find('=') != std::string::npos;
  if (spec.empty() || spec == "effective" || spec == "declared" || named) {
    if (spec == "effective" && results == nullptr)
      throw UsageError(command +
                       ": --cache-model effective needs --results (the characterization that "
                       "measured the capacities)");
    // The measured capacities by default and for "effective"; the declared ones under named.
    const bool measured = spec.empty() || spec == "effective";
    std::string note;
    const bool other = results != nullptr && another_machine(machine, *results);
    std::vector<ModelledCache> caches = caches_of(machine, results, other, 0, note, measured);
    if (caches.empty()) {
      if (!spec.empty() && spec != "declared")
        throw UsageError(command + ": --cache-model " + spec + ": " + note);
      out.text = note;
      return out;
    }
    if (named) set_named_capacities(spec, caches, command);
    out.option = cache_option(caches);
    out.text = cache_model_text(caches);
    // Another machine's results: its caches when they record some (caches_of), else this
    // machine's, said so.
    const results::DomainRecord* other_domain = other ? results->topology.domain(0) : nullptr;
    if (other && (other_domain == nullptr || other_domain->caches.empty())) {
      out.text += " (the --results' machine records no CPU cache: this machine's, declared)";
    } else if (other) {
      out.machine = results->provenance.host.value_or("the results' machine");
      out.text = results::printable(out.machine) +
                 "'s caches (the --results' machine, not this one; ways not recorded there: " +
                 std::to_string(kUnknownWays) + " modelled): " + out.text;
    }
    if (spec.empty() && results == nullptr)
      out.text += " (no --results: the declared capacities, not the effective ones)";
    return out;
  }
  const std::string problem = cache_spec_problem(spec);
  if (!problem.empty())
    throw UsageError(command + ": --cache-model " + problem +
                     " (or declared, effective, L1=SIZE,L2=SIZE,L3=SIZE)");
  out.option = spec;
  out.text = "as given (--cache-model " + spec + "; the last level shared, the others per thread)";
  return out;
}

CacheModelSetting counting_cache_model(const CompilerBuild& build, const std::string& app,
                                       const std::string& spec, bool no_model,
                                       const topology::Topology& machine,
                                       const results::Results* results,
                                       const std::string& command) {
  const bool unsampled = build.instrumented && build.cache_sample == 0;
  if (unsampled && !spec.empty()) {
    throw UsageError(command + ": " + app +
                     " was built through larm's compiler plugin without its sampled cache model "
                     "(--cache-model): build it with " +
                     cache_sample_flag(build) +
                     (build.cache_sample_mixed ? " in every object (some have it, some not)" : ""));
  }
  CacheModelSetting model =
      cache_model_setting(spec, no_model || unsampled, machine, results, command);
  if (build.instrumented && !model.option.empty() &&
      cache_option_line(model.option) != 1u << LARM_CACHE_SAMPLE_LINE_SHIFT) {
    throw UsageError(command + ": the sampled cache model of " + app +
                     " samples 64-byte lines; the caches modelled have others (" + model.option +
                     ")");
  }
  return model;
}

}  // namespace larm::application
