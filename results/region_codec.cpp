// regions.json and regions.csv.
#include <cmath>
#include <sstream>
#include <stdexcept>

#include "results/csv_writer.h"
#include "results/input_file.h"
#include "results/json_schema.h"
#include "results/records.h"
#include "results/region_records.h"

namespace larm::regions {
namespace {

using nlohmann::json;

// A member's value, or the fallback when it is missing or null. The schema check before the
// reading guarantees the required members; the fallback serves the optional ones and nulls.
template <typename T>
T field(const json& object, const char* key, T fallback) {
  const auto found = object.find(key);
  return found == object.end() || found->is_null() ? fallback : found->get<T>();
}

std::optional<int> read_int(const json& object, const char* key) {
  const auto found = object.find(key);
  if (found == object.end() || !found->is_number_integer()) return std::nullopt;
  return found->get<int>();
}

void write_rates(json& out, const Rates& rates) {
  out["ai"] = results::number_or_null(rates.ai);
  out["gflops"] = results::number_or_null(rates.gflops);
  out["gbps"] = results::number_or_null(rates.gbps);
}

void write_span(json& out, const std::map<std::string, double>& counted,
                const std::optional<double>& first, const std::optional<double>& last) {
  if (!counted.empty()) out["counted"] = counted;
  if (first) out["first_begin_s"] = *first;
  if (last) out["last_end_s"] = *last;
}

std::map<std::string, double> read_counted(const json& in) {
  std::map<std::string, double> counted;
  if (const auto found = in.find("counted"); found != in.end() && found->is_object()) {
    for (const auto& [key, value] : found->items()) counted[key] = value.get<double>();
  }
  return counted;
}

Rates read_rates(const json& in) {
  return {results::number_member(in, "ai"), results::number_member(in, "gflops"),
          results::number_member(in, "gbps")};
}

void write_count(json& out, const char* key, const Count& count) {
  out[key] = results::number_or_null(count.value);
  out[std::string(key) + "_source"] = count.source;
}

Count read_count(const json& in, const char* key) {
  const std::string source = std::string(key) + "_source";
  return {results::number_member(in, key), field(in, source.c_str(), std::string("unavailable"))};
}

json thread_json(const ThreadRecord& t) {
  json out = {{"thread", t.thread},
              {"tid", t.tid},
              {"cpu", t.cpu},
              {"domain", t.domain ? json(*t.domain) : json()},
              {"migrated", t.migrated},
              {"calls", t.calls},
              {"seconds", t.seconds},
              {"flops_declared", results::number_or_null(t.flops_declared)},
              {"bytes_declared", results::number_or_null(t.bytes_declared)},
              {"flops_papi", results::number_or_null(t.flops_papi)},
              {"load_instructions", results::number_or_null(t.load_instructions)},
              {"store_instructions", results::number_or_null(t.store_instructions)}};
  write_count(out, "flops", t.flops);
  write_count(out, "bytes", t.bytes);
  write_count(out, "bytes_read", t.bytes_read);
  write_count(out, "bytes_written", t.bytes_written);
  write_rates(out, t.rates);
  write_span(out, t.counted, t.first_begin_s, t.last_end_s);
  if (t.busy_cpu_s) out["busy_cpu_s"] = *t.busy_cpu_s;
  if (t.busy_thread_cpu_s) out["busy_thread_cpu_s"] = *t.busy_thread_cpu_s;
  if (t.busy_wall_s) out["busy_wall_s"] = *t.busy_wall_s;
  return out;
}

ThreadRecord thread_from(const json& in) {
  ThreadRecord t;
  t.thread = field(in, "thread", 0);
  t.tid = field(in, "tid", 0L);
  t.cpu = field(in, "cpu", -1);
  t.domain = read_int(in, "domain");
  t.migrated = field(in, "migrated", false);
  t.calls = field(in, "calls", std::uint64_t{0});
  t.seconds = field(in, "seconds", 0.0);
  t.flops = read_count(in, "flops");
  t.bytes = read_count(in, "bytes");
  t.bytes_read = read_count(in, "bytes_read");
  t.bytes_written = read_count(in, "bytes_written");
  t.flops_declared = results::number_member(in, "flops_declared");
  t.bytes_declared = results::number_member(in, "bytes_declared");
  t.flops_papi = results::number_member(in, "flops_papi");
  t.load_instructions = results::number_member(in, "load_instructions");
  t.store_instructions = results::number_member(in, "store_instructions");
  t.rates = read_rates(in);
  t.counted = read_counted(in);
  t.first_begin_s = results::number_member(in, "first_begin_s");
  t.last_end_s = results::number_member(in, "last_end_s");
  t.busy_cpu_s = results::number_member(in, "busy_cpu_s");
  t.busy_thread_cpu_s = results::number_member(in, "busy_thread_cpu_s");
  t.busy_wall_s = results::number_member(in, "busy_wall_s");
  return t;
}

json aggregate_json(const Aggregate& a, bool with_domain) {
  json out = {{"threads", a.threads},
              {"calls", a.calls},
              {"seconds", a.seconds},
              {"threads_without_flops", a.threads_without_flops},
              {"threads_without_bytes", a.threads_without_bytes}};
  if (with_domain) out["domain"] = a.domain ? json(*a.domain) : json();
  write_count(out, "flops", a.flops);
  write_count(out, "bytes", a.bytes);
  write_count(out, "bytes_read", a.bytes_read);
  write_count(out, "bytes_written", a.bytes_written);
  write_rates(out, a.rates);
  if (!a.ai_unavailable.empty()) out["ai_unavailable"] = a.ai_unavailable;
  write_span(out, a.counted, a.first_begin_s, a.last_end_s);
  if (a.busy_threads) out["busy_threads"] = *a.busy_threads;
  return out;
}

Aggregate aggregate_from(const json& in) {
  Aggregate a;
  a.domain = read_int(in, "domain");
  a.threads = field(in, "threads", 0);
  a.calls = field(in, "calls", std::uint64_t{0});
  a.seconds = field(in, "seconds", 0.0);
  a.flops = read_count(in, "flops");
  a.bytes = read_count(in, "bytes");
  a.bytes_read = read_count(in, "bytes_read");
  a.bytes_written = read_count(in, "bytes_written");
  a.threads_without_flops = field(in, "threads_without_flops", 0);
  a.threads_without_bytes = field(in, "threads_without_bytes", 0);
  a.rates = read_rates(in);
  a.ai_unavailable = field(in, "ai_unavailable", std::string());
  a.counted = read_counted(in);
  a.first_begin_s = results::number_member(in, "first_begin_s");
  a.last_end_s = results::number_member(in, "last_end_s");
  a.busy_threads = results::number_member(in, "busy_threads");
  return a;
}

unsigned memory_key(const std::string& key) {
  return results::parse_index(key, "memory key");
}

json data_json(const DataPlacement& d) {
  json ranges = json::array();
  for (const DataRange& r : d.ranges) {
    json by_memory = json::object();
    for (const auto& [memory, pages] : r.pages_by_memory) by_memory[std::to_string(memory)] = pages;
    json range = {{"address", r.address},
                  {"bytes", r.bytes},
                  {"pages_sampled", r.pages_sampled},
                  {"pages_by_memory", by_memory},
                  {"pages_not_present", r.pages_not_present},
                  {"pages_unplaced", r.pages_unplaced}};
    if (r.neighbours_compared) range["neighbours_compared"] = *r.neighbours_compared;
    if (r.neighbours_apart) range["neighbours_apart"] = *r.neighbours_apart;
    if (!r.handle.empty()) range["handle"] = r.handle;
    if (r.runs) range["runs"] = *r.runs;
    if (r.ranges_tagged) range["ranges_tagged"] = *r.ranges_tagged;
    if (r.resident_at_tag) {
      json at_tag = json::object();
      for (const auto& [memory, pages] : r.resident_at_tag->pages_by_memory) {
        at_tag[std::to_string(memory)] = pages;
      }
      range["resident_at_tag"] = {{"pages_sampled", r.resident_at_tag->pages_sampled},
                                  {"pages_present", r.resident_at_tag->pages_present},
                                  {"pages_by_memory", at_tag}};
    }
    ranges.push_back(std::move(range));
  }
  json fractions = json::object();
  for (const auto& [memory, fraction] : d.memory_fractions) {
    fractions[std::to_string(memory)] = fraction;
  }
  return {{"ranges", ranges},
          {"memory_fractions", fractions},
          {"pages_placed", d.pages_placed},
          {"pages_not_present", d.pages_not_present},
          {"pages_unplaced", d.pages_unplaced}};
}

DataPlacement data_from(const json& in) {
  DataPlacement d;
  const json ranges = field(in, "ranges", json::array());
  for (const json& r : ranges) {
    DataRange range;
    range.address = field(r, "address", std::string());
    range.bytes = field(r, "bytes", std::uint64_t{0});
    range.pages_sampled = field(r, "pages_sampled", std::uint64_t{0});
    const json by_memory = field(r, "pages_by_memory", json::object());
    for (const auto& [memory, pages] : by_memory.items()) {
      range.pages_by_memory[memory_key(memory)] = pages.get<std::uint64_t>();
    }
    range.pages_not_present = field(r, "pages_not_present", std::uint64_t{0});
    range.pages_unplaced = field(r, "pages_unplaced", std::uint64_t{0});
    if (r.contains("neighbours_compared") && r.contains("neighbours_apart")) {
      range.neighbours_compared = r.at("neighbours_compared").get<std::uint64_t>();
      range.neighbours_apart = r.at("neighbours_apart").get<std::uint64_t>();
    }
    range.handle = field(r, "handle", std::string());
    if (r.contains("runs")) range.runs = r.at("runs").get<std::uint64_t>();
    if (r.contains("ranges_tagged"))
      range.ranges_tagged = r.at("ranges_tagged").get<std::uint64_t>();
    if (const auto at_tag = r.find("resident_at_tag"); at_tag != r.end() && at_tag->is_object()) {
      DataRange::ResidentAtTag resident;
      resident.pages_sampled = field(*at_tag, "pages_sampled", std::uint64_t{0});
      resident.pages_present = field(*at_tag, "pages_present", std::uint64_t{0});
      const json by_memory_at_tag = field(*at_tag, "pages_by_memory", json::object());
      for (const auto& [memory, pages] : by_memory_at_tag.items()) {
        resident.pages_by_memory[memory_key(memory)] = pages.get<std::uint64_t>();
      }
      range.resident_at_tag = resident;
    }
    d.ranges.push_back(range);
  }
  const json fractions = field(in, "memory_fractions", json::object());
  double total = 0;
  for (const auto& [memory, fraction] : fractions.items()) {
    d.memory_fractions[memory_key(memory)] = fraction.get<double>();
    total += fraction.get<double>();
  }
  // Each fraction is checked by the schema; their sum, which the schema cannot say, here. liblarm
  // writes each as pages / pages placed, so rounding keeps the sum within 1e-9 of 1.
  if (total > 1 + 1e-6) {
    throw std::runtime_error("memory_fractions sum to " + std::to_string(total * 100) +
                             " % (at most 100 %)");
  }
  d.pages_placed = field(in, "pages_placed", std::uint64_t{0});
  d.pages_not_present = field(in, "pages_not_present", std::uint64_t{0});
  d.pages_unplaced = field(in, "pages_unplaced", std::uint64_t{0});
  return d;
}

std::string csv_number(const std::optional<double>& value) {
  return results::csv_number(value, 9);
}

}  // namespace

json to_json(const RegionsFile& file) {
  json doc;
  doc["format"] = "larm-regions";
  doc["schema_version"] = kRegionsSchemaVersion;
  doc["run"] = file.run;
  doc["label"] = file.label;
  doc["host"] = file.host;
  if (!file.cpu_model.empty()) doc["cpu_model"] = file.cpu_model;
  doc["pid"] = file.pid;
  doc["started_at"] = file.started_at;
  doc["wall_seconds"] = file.wall_seconds;
  doc["clock"] = {{"source", file.clock_source}, {"ticks_per_second", file.ticks_per_second}};
  doc["counters"] = {{"available", file.counters.available},
                     {"reason", file.counters.reason},
                     {"events", file.counters.events},
                     {"events_refused", file.counters.events_refused},
                     {"bytes_per_memory_instruction",
                      results::number_or_null(file.counters.bytes_per_memory_instruction)}};
  if (!file.counters.tool.empty()) doc["counters"]["tool"] = file.counters.tool;
  if (!file.counters.counted_by.empty()) doc["counters"]["counted_by"] = file.counters.counted_by;
  if (!file.counters.cache_model_machine.empty())
    doc["counters"]["cache_model_machine"] = file.counters.cache_model_machine;
  doc["topology"] = file.topology;
  doc["open_at_finalize"] = file.open_at_finalize;
  doc["regions"] = json::array();
  for (const Region& region : file.regions) {
    json threads = json::array();
    for (const ThreadRecord& t : region.threads) threads.push_back(thread_json(t));
    json domains = json::array();
    for (const Aggregate& a : region.domains) domains.push_back(aggregate_json(a, true));
    doc["regions"].push_back({{"name", region.name},
                              {"threads", threads},
                              {"domains", domains},
                              {"machine", aggregate_json(region.machine, false)},
                              {"data", region.data ? data_json(*region.data) : json()}});
    if (const std::string warning = undercount_warning(region.machine); !warning.empty()) {
      doc["regions"].back()["warnings"] = json::array({warning});
    }
    if (region.timing) {
      json runs = json::array();
      for (std::size_t i = 0; i < region.timing->seconds.size(); ++i) {
        runs.push_back({{"seconds", region.timing->seconds[i]},
                        {"clean", i < region.timing->clean.size() && region.timing->clean[i]}});
      }
      doc["regions"].back()["timing"] = {{"runs", runs},
                                         {"estimator", region.timing->estimator},
                                         {"median_s", region.timing->median},
                                         {"spread", region.timing->spread}};
    }
  }
  return doc;
}

Rates rates_of(const std::optional<double>& flops, const std::optional<double>& bytes,
               double seconds) {
  Rates r;
  if (flops && bytes && *bytes > 0) r.ai = *flops / *bytes;
  if (flops && seconds > 0) r.gflops = *flops / seconds * 1e-9;
  if (bytes && seconds > 0) r.gbps = *bytes / seconds * 1e-9;
  return r;
}

std::optional<double> DataPlacement::neighbours_apart_share() const {
  std::uint64_t compared = 0, apart = 0;
  for (const DataRange& range : ranges) {
    if (!range.neighbours_compared || !range.neighbours_apart) return std::nullopt;
    compared += *range.neighbours_compared;
    apart += *range.neighbours_apart;
  }
  if (compared == 0) return std::nullopt;
  return static_cast<double>(apart) / static_cast<double>(compared);
}

std::optional<double> Aggregate::read_share() const {
  if (!bytes_read.value || !bytes_written.value) return std::nullopt;
  const double total = *bytes_read.value + *bytes_written.value;
  if (!(total > 0)) return std::nullopt;
  return *bytes_read.value / total;
}

std::optional<double> undercount_busy_threads(const Aggregate& machine) {
  if (!machine.busy_threads || machine.threads < 1 || machine.calls == 0) return std::nullopt;
  const double busy = *machine.busy_threads;
  const double recorded = machine.threads;
  if (busy < recorded + kUndercountExtraThreads || busy < recorded * kUndercountRatio) {
    return std::nullopt;
  }
  return busy;
}

std::string unplaceable_region(const RegionsFile& file) {
  for (const Region& region : file.regions) {
    const Aggregate& m = region.machine;
    if (m.calls > 0 && !(m.seconds > 0)) {
      return "region " + region.name + ": " + std::to_string(m.calls) +
             " calls and no time (0 s): its rates cannot be computed";
    }
    if (m.flops.value && *m.flops.value > 0 && !(m.bytes.value && *m.bytes.value > 0)) {
      return "region " + region.name + ": FLOPs (" + m.flops.source +
             ") but no bytes: its intensity cannot be computed (declare both, or count them with "
             "larm count)";
    }
  }
  return "";
}

std::string undercount_warning(const Aggregate& machine) {
  const auto busy_threads = undercount_busy_threads(machine);
  if (!busy_threads) return "";
  const double busy = *busy_threads;
  std::ostringstream text;
  text.precision(1);
  text << std::fixed << "recorded by " << machine.threads
       << (machine.threads == 1 ? " thread" : " threads") << " while " << busy
       << " threads of the process worked during it: its counts and rates are "
       << (machine.threads == 1 ? "that thread's" : "those threads'")
       << " only (begin and end outside a parallel region?); begin and end it inside the parallel "
          "region, on every thread";
  return text.str();
}

RegionsFile regions_from_json(const json& document) {
  if (results::text_member(document, "format") != "larm-regions") {
    throw std::runtime_error("not a larm regions file (no \"format\": \"larm-regions\")");
  }
  const std::string version = results::text_member(document, "schema_version");
  if (version.rfind("1.", 0) != 0) {
    throw std::runtime_error("regions schema version \"" + version + "\"; this larm reads 1.x");
  }
  results::check_against_schema(document, results::FileFormat::regions);
  try {
    RegionsFile file;
    file.run = field(document, "run", std::string("timed"));
    file.label = field(document, "label", std::string());
    file.host = field(document, "host", std::string());
    file.cpu_model = field(document, "cpu_model", std::string());
    file.pid = field(document, "pid", 0L);
    file.started_at = field(document, "started_at", std::string());
    file.wall_seconds = field(document, "wall_seconds", 0.0);
    const json clock = field(document, "clock", json::object());
    file.clock_source = field(clock, "source", std::string());
    file.ticks_per_second = field(clock, "ticks_per_second", 0.0);
    const json counters = field(document, "counters", json::object());
    file.counters.available = field(counters, "available", false);
    file.counters.reason = field(counters, "reason", std::string());
    file.counters.events = field(counters, "events", std::vector<std::string>{});
    file.counters.events_refused = field(counters, "events_refused", std::vector<std::string>{});
    file.counters.bytes_per_memory_instruction =
        results::number_member(counters, "bytes_per_memory_instruction");
    file.counters.tool = field(counters, "tool", std::string());
    file.counters.counted_by = field(counters, "counted_by", std::string());
    file.counters.cache_model_machine = field(counters, "cache_model_machine", std::string());
    file.topology = field(document, "topology", json::object());
    file.open_at_finalize = field(document, "open_at_finalize", std::vector<std::string>{});
    for (const json& in : document.at("regions")) {
      Region region;
      region.name = in.at("name").get<std::string>();
      const json threads = field(in, "threads", json::array());
      for (const json& t : threads) region.threads.push_back(thread_from(t));
      const json domains = field(in, "domains", json::array());
      for (const json& a : domains) region.domains.push_back(aggregate_from(a));
      region.machine = aggregate_from(field(in, "machine", json::object()));
      if (const auto data = in.find("data"); data != in.end() && data->is_object()) {
        region.data = data_from(*data);
      }
      if (const auto timing = in.find("timing"); timing != in.end() && timing->is_object()) {
        RunTiming t;
        for (const json& run : timing->at("runs")) {
          t.seconds.push_back(run.at("seconds").get<double>());
          t.clean.push_back(run.at("clean").get<bool>());
        }
        t.estimator = timing->at("estimator").get<std::string>();
        t.median = timing->at("median_s").get<double>();
        t.spread = timing->at("spread").get<double>();
        region.timing = std::move(t);
      }
      file.regions.push_back(std::move(region));
    }
    return file;
  } catch (const json::exception& e) {
    throw std::runtime_error(std::string("malformed regions file: ") + e.what());
  } catch (const std::invalid_argument& e) {
    throw std::runtime_error(std::string("malformed regions file: ") + e.what());
  } catch (const std::out_of_range& e) {
    throw std::runtime_error(std::string("malformed regions file: ") + e.what());
  }
}

std::string regions_csv(const RegionsFile& file) {
  std::ostringstream out;
  out << "label,region,scope,domain,thread,cpu,calls,seconds,flops,flops_source,bytes,"
         "bytes_source,ai,gflops,gbps\n";
  const std::string label = results::csv_field(file.label);
  const auto integer = [](std::optional<int> value) {
    return value ? std::to_string(*value) : std::string();
  };
  const auto row = [&](const std::string& name, const char* scope, const std::string& domain,
                       const std::string& thread, const std::string& cpu, std::uint64_t calls,
                       double seconds, const Count& flops, const Count& bytes, const Rates& rates) {
    out << label << ',' << name << ',' << scope << ',' << domain << ',' << thread << ',' << cpu
        << ',' << calls << ',' << csv_number(seconds) << ',' << csv_number(flops.value) << ','
        << flops.source << ',' << csv_number(bytes.value) << ',' << bytes.source << ','
        << csv_number(rates.ai) << ',' << csv_number(rates.gflops) << ',' << csv_number(rates.gbps)
        << '\n';
  };
  for (const Region& region : file.regions) {
    const std::string name = results::csv_field(region.name);
    for (const ThreadRecord& t : region.threads) {
      row(name, "thread", integer(t.domain), std::to_string(t.thread), std::to_string(t.cpu),
          t.calls, t.seconds, t.flops, t.bytes, t.rates);
    }
    for (const Aggregate& a : region.domains) {
      row(name, "domain", integer(a.domain), "", "", a.calls, a.seconds, a.flops, a.bytes, a.rates);
    }
    const Aggregate& m = region.machine;
    row(name, "machine", "", "", "", m.calls, m.seconds, m.flops, m.bytes, m.rates);
  }
  return out.str();
}

}  // namespace larm::regions
