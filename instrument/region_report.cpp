// Merging the per-thread records and writing them.
#include "instrument/region_report.h"

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <exception>
#include <set>
#include <sstream>

#include "instrument/messages.h"
#include "results/atomic_file.h"
#include "results/csv_writer.h"
#include "topology/topology.h"

namespace larm::instrument {
namespace {

using nlohmann::json;

// A count (FLOPs or bytes) and where it comes from: papi, declared, or unavailable.
struct Count {
  double value = 0;
  std::string source = "unavailable";
  bool known() const { return source != "unavailable"; }
};

struct ThreadWork {
  Count flops;
  Count bytes;
  std::optional<double> papi_flops;
  std::optional<double> load_instructions;
  std::optional<double> store_instructions;
};

ThreadWork thread_work(const RegionRecord& record, const Snapshot& snapshot) {
  ThreadWork work;
  const Counters* counters = snapshot.counters;
  if (record.counted && counters != nullptr && counters->active()) {
    const CountedWork counted = counted_work(counters->events(), record.counter_deltas);
    if (counters->measures_flops()) work.papi_flops = counted.flops;
    bool has_loads = false, has_stores = false;
    for (const auto& event : counters->events()) {
      has_loads |= event.kind == CounterEvent::Kind::load_instructions;
      has_stores |= event.kind == CounterEvent::Kind::store_instructions;
    }
    if (has_loads) work.load_instructions = counted.load_instructions;
    if (has_stores) work.store_instructions = counted.store_instructions;
    if (work.papi_flops) work.flops = {*work.papi_flops, "papi"};
    if (has_loads && has_stores && snapshot.access_bytes > 0) {
      work.bytes = {
          (counted.load_instructions + counted.store_instructions) * snapshot.access_bytes, "papi"};
    }
  }
  if (!work.flops.known() && record.flops_declared)
    work.flops = {record.declared_flops, "declared"};
  if (!work.bytes.known() && record.bytes_declared)
    work.bytes = {record.declared_bytes, "declared"};
  return work;
}

json optional_number(const std::optional<double>& value) {
  return value && std::isfinite(*value) ? json(*value) : json();
}

// Sum of the threads that have a count; the source names every source that contributed.
struct CountSum {
  double value = 0;
  std::set<std::string> sources;
  int threads_without = 0;
  void add(const Count& count) {
    if (!count.known()) {
      ++threads_without;
      return;
    }
    value += count.value;
    sources.insert(count.source);
  }
  std::string source() const {
    if (sources.empty()) return "unavailable";
    std::string joined;
    for (const auto& s : sources) joined += (joined.empty() ? "" : "+") + s;
    return joined;
  }
};

struct Aggregate {
  int threads = 0;
  std::uint64_t calls = 0;
  double seconds = 0;  // the longest thread: threads of one region run side by side
  CountSum flops;
  CountSum bytes;
  void add(const RegionRecord& record, double seconds_of_thread, const ThreadWork& work) {
    ++threads;
    calls += record.calls;
    seconds = std::max(seconds, seconds_of_thread);
    flops.add(work.flops);
    bytes.add(work.bytes);
  }
};

json rates(double flops, bool has_flops, double bytes, bool has_bytes, double seconds) {
  json out;
  out["ai"] = has_flops && has_bytes && bytes > 0 ? json(flops / bytes) : json();
  out["gflops"] = has_flops && seconds > 0 ? json(flops / seconds * 1e-9) : json();
  out["gbps"] = has_bytes && seconds > 0 ? json(bytes / seconds * 1e-9) : json();
  return out;
}

json aggregate_json(const Aggregate& aggregate) {
  json out = {{"threads", aggregate.threads},
              {"calls", aggregate.calls},
              {"seconds", aggregate.seconds},
              {"flops", aggregate.flops.sources.empty() ? json() : json(aggregate.flops.value)},
              {"flops_source", aggregate.flops.source()},
              {"bytes", aggregate.bytes.sources.empty() ? json() : json(aggregate.bytes.value)},
              {"bytes_source", aggregate.bytes.source()},
              {"threads_without_flops", aggregate.flops.threads_without},
              {"threads_without_bytes", aggregate.bytes.threads_without}};
  out.update(rates(aggregate.flops.value, !aggregate.flops.sources.empty(), aggregate.bytes.value,
                   !aggregate.bytes.sources.empty(), aggregate.seconds));
  if (out["ai"].is_null()) {
    out["ai_unavailable"] = aggregate.flops.sources.empty() && aggregate.bytes.sources.empty()
                                ? "no FLOP or byte count: no counters and nothing declared"
                            : aggregate.flops.sources.empty()
                                ? "no FLOP count: no FLOP counter and no larm_region_add flops"
                            : aggregate.bytes.sources.empty()
                                ? "no byte count: declare bytes with larm_region_add"
                                : "zero bytes";
  }
  return out;
}

json data_json(const std::vector<DataTag>& tags) {
  json ranges = json::array();
  std::map<int, std::size_t> placed;
  std::size_t not_present = 0, other = 0;
  for (const auto& tag : tags) {
    json by_memory = json::object();
    std::size_t sampled = 0, tag_not_present = 0, tag_other = 0;
    for (const auto& [node, pages] : tag.pages_by_node) {
      sampled += pages;
      if (node >= 0) {
        by_memory[std::to_string(node)] = pages;
        placed[node] += pages;
      } else if (node == -ENOENT) {
        tag_not_present += pages;
      } else {
        tag_other += pages;
      }
    }
    not_present += tag_not_present;
    other += tag_other;
    std::ostringstream address;
    address << "0x" << std::hex << tag.address;
    ranges.push_back({{"address", address.str()},
                      {"bytes", tag.bytes},
                      {"pages_sampled", sampled},
                      {"pages_by_memory", by_memory},
                      {"pages_not_present", tag_not_present},
                      {"pages_unplaced", tag_other}});
  }
  std::size_t total = 0;
  for (const auto& [node, pages] : placed) total += pages;
  json fractions = json::object();
  for (const auto& [node, pages] : placed) {
    fractions[std::to_string(node)] = static_cast<double>(pages) / static_cast<double>(total);
  }
  return {{"ranges", ranges},
          {"memory_fractions", fractions},
          {"pages_placed", total},
          {"pages_not_present", not_present},
          {"pages_unplaced", other}};
}

std::string host_name() {
  char name[256] = {};
  if (::gethostname(name, sizeof name - 1) != 0) return "unknown";
  return name;
}

std::string csv_number(const json& value) {
  if (!value.is_number()) return "";
  std::ostringstream out;
  out.precision(9);
  out << value.get<double>();
  return out.str();
}

}  // namespace

NodeMap live_node_map() {
  NodeMap map;
  try {
    // The whole machine, so that domain numbers match `larm characterize` even when the
    // application runs bound to a part of it.
    const auto topology =
        topology::Topology::load_live(topology::Topology::LiveScope::whole_machine);
    json domains = json::array();
    for (const auto& domain : topology.domains()) {
      for (unsigned pu : domain.all_pus) map.domain_of_cpu[static_cast<int>(pu)] = domain.index;
      json local = json::array();
      for (int m : domain.local_memories) {
        local.push_back(topology.memories()[static_cast<std::size_t>(m)].os_index);
      }
      domains.push_back(
          {{"index", domain.index}, {"pus", domain.all_pus}, {"local_memories", local}});
    }
    json memories = json::array();
    for (const auto& memory : topology.memories()) {
      memories.push_back({{"os_index", memory.os_index},
                          {"kind", memory.kind},
                          {"cpuless", memory.cpuless},
                          {"local_domains", memory.local_domains}});
    }
    map.topology = {{"domains", domains}, {"memories", memories}};
  } catch (const std::exception& error) {
    map.unavailable = error.what();
  }
  return map;
}

nlohmann::json regions_json(const Snapshot& snapshot, const NodeMap& nodes) {
  json doc;
  doc["format"] = "larm-regions";
  doc["schema_version"] = kRegionsSchemaVersion;
  doc["label"] = snapshot.label;
  doc["host"] = host_name();
  doc["pid"] = ::getpid();
  doc["started_at"] = snapshot.started_at;
  doc["wall_seconds"] = snapshot.wall_seconds;
  doc["clock"] = {{"source", snapshot.clock_source},
                  {"ticks_per_second", snapshot.ticks_per_second}};
  json counters = {{"available", snapshot.counters_unavailable.empty()},
                   {"reason", snapshot.counters_unavailable},
                   {"events", json::array()},
                   {"events_refused", json::array()},
                   {"bytes_per_memory_instruction",
                    snapshot.access_bytes > 0 ? json(snapshot.access_bytes) : json()}};
  if (snapshot.counters != nullptr && snapshot.counters_unavailable.empty()) {
    for (const auto& event : snapshot.counters->events()) counters["events"].push_back(event.name);
    counters["events_refused"] = snapshot.counters->events_refused();
  }
  doc["counters"] = counters;
  doc["topology"] = nodes.topology;
  if (!nodes.unavailable.empty()) doc["topology"]["unavailable"] = nodes.unavailable;
  doc["open_at_finalize"] = snapshot.open_at_finalize;

  // Region name -> (thread, record), in the order regions were first seen.
  std::map<std::string, std::vector<std::pair<const ThreadSnapshot*, const RegionRecord*>>> by_name;
  for (const auto& thread : snapshot.threads) {
    for (const auto& record : thread.regions) by_name[record.name].emplace_back(&thread, &record);
  }
  for (const auto& [name, tags] : snapshot.data) by_name[name];  // tagged, maybe never run
  doc["regions"] = json::array();
  for (const auto& [name, records] : by_name) {
    json threads = json::array();
    std::map<int, Aggregate> per_domain;
    Aggregate machine;
    for (const auto& [thread, record] : records) {
      const double seconds = static_cast<double>(record->ticks) / snapshot.ticks_per_second;
      const ThreadWork work = thread_work(*record, snapshot);
      const auto found = nodes.domain_of_cpu.find(record->cpu);
      const int domain = found != nodes.domain_of_cpu.end() ? found->second : -1;
      json entry = {
          {"thread", thread->index},
          {"tid", thread->tid},
          {"cpu", record->cpu},
          {"domain", domain >= 0 ? json(domain) : json()},
          {"migrated", record->migrated},
          {"calls", record->calls},
          {"seconds", seconds},
          {"flops", work.flops.known() ? json(work.flops.value) : json()},
          {"flops_source", work.flops.source},
          {"bytes", work.bytes.known() ? json(work.bytes.value) : json()},
          {"bytes_source", work.bytes.source},
          {"flops_declared", record->flops_declared ? json(record->declared_flops) : json()},
          {"bytes_declared", record->bytes_declared ? json(record->declared_bytes) : json()},
          {"flops_papi", optional_number(work.papi_flops)},
          {"load_instructions", optional_number(work.load_instructions)},
          {"store_instructions", optional_number(work.store_instructions)}};
      entry.update(rates(work.flops.value, work.flops.known(), work.bytes.value, work.bytes.known(),
                         seconds));
      threads.push_back(entry);
      if (record->calls == 0) continue;  // registered only: no work to merge
      per_domain[domain].add(*record, seconds, work);
      machine.add(*record, seconds, work);
    }
    json domains = json::array();
    for (const auto& [domain, aggregate] : per_domain) {
      json entry = aggregate_json(aggregate);
      entry["domain"] = domain >= 0 ? json(domain) : json();
      domains.push_back(entry);
    }
    json region = {{"name", name},
                   {"threads", threads},
                   {"domains", domains},
                   {"machine", aggregate_json(machine)}};
    const auto tags = snapshot.data.find(name);
    region["data"] = tags != snapshot.data.end() ? data_json(tags->second) : json();
    doc["regions"].push_back(region);
  }
  return doc;
}

std::string regions_csv(const nlohmann::json& document) {
  std::ostringstream out;
  out << "label,region,scope,domain,thread,cpu,calls,seconds,flops,flops_source,bytes,"
         "bytes_source,ai,gflops,gbps\n";
  const std::string label = results::csv_field(document.value("label", ""));
  for (const auto& region : document.at("regions")) {
    const std::string name = results::csv_field(region.at("name").get<std::string>());
    auto row = [&](const std::string& scope, const json& entry) {
      out << label << ',' << name << ',' << scope << ','
          << csv_number(entry.value("domain", json())) << ','
          << csv_number(entry.value("thread", json())) << ','
          << csv_number(entry.value("cpu", json())) << ',' << entry.at("calls").get<std::uint64_t>()
          << ',' << csv_number(entry.at("seconds")) << ',' << csv_number(entry.at("flops")) << ','
          << entry.at("flops_source").get<std::string>() << ',' << csv_number(entry.at("bytes"))
          << ',' << entry.at("bytes_source").get<std::string>() << ',' << csv_number(entry.at("ai"))
          << ',' << csv_number(entry.at("gflops")) << ',' << csv_number(entry.at("gbps")) << '\n';
    };
    for (const auto& thread : region.at("threads")) row("thread", thread);
    for (const auto& domain : region.at("domains")) row("domain", domain);
    row("machine", region.at("machine"));
  }
  return out.str();
}

bool write_regions(const Snapshot& snapshot) {
  const json document = regions_json(snapshot, live_node_map());
  // Region names are the application's bytes: invalid UTF-8 is replaced, never a failure.
  const std::string text = document.dump(2, ' ', false, json::error_handler_t::replace) + "\n";
  const std::string csv = regions_csv(document);
  const std::string stem = "regions" + snapshot.file_suffix;
  auto write_into = [&](const std::filesystem::path& dir) {
    results::ensure_writable_directory(dir);
    results::write_file_atomically(dir / (stem + ".json"), text);
    results::write_file_atomically(dir / (stem + ".csv"), csv);
  };
  try {
    write_into(snapshot.out_dir);
    return true;
  } catch (const std::exception& error) {
    const auto fallback =
        std::filesystem::temp_directory_path() / ("larm-regions-" + std::to_string(::getpid()));
    try {
      write_into(fallback);
      report(MessageKind::lifecycle,
             std::string(error.what()) + ": regions written to " + fallback.string() + " instead");
    } catch (const std::exception& second) {
      report(MessageKind::lifecycle,
             std::string(error.what()) + "; " + second.what() + ": regions not written");
    }
    return false;
  }
}

}  // namespace larm::instrument
