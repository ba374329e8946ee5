// Merging the per-thread records and writing them.
#include "instrument/region_report.h"

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <set>
#include <sstream>
#include <stdexcept>

#include "instrument/messages.h"
#include "platform/cpu_info.h"
#include "platform/environment.h"
#include "results/atomic_file.h"
#include "results/json_output.h"
#include "results/region_merge.h"
#include "results/region_records.h"
#include "topology/node_map.h"
#include "topology/topology.h"

namespace larm::instrument {
namespace {

using nlohmann::json;

// A thread's FLOPs and bytes (from the counters, else as declared) and the raw counter values.
struct ThreadWork {
  regions::Count flops;
  regions::Count bytes;
  regions::Count bytes_read, bytes_written;
  std::optional<double> papi_flops;
  std::optional<double> load_instructions;
  std::optional<double> store_instructions;
  std::map<std::string, double> counted;  // larm count: every count of the tool
};

ThreadWork thread_work(const RegionRecord& record, const Snapshot& snapshot) {
  ThreadWork work;
  const Counters* counters = snapshot.counters;
  const bool has_counts = record.counted && counters != nullptr && counters->active();
  const CountedWork counted =
      has_counts ? counted_work(counters->events(), record.counter_deltas) : CountedWork{};
  if (has_counts && counters->exact()) {
    // larm count's tool or the compiler plugin's code: FLOPs, bytes and their split, exact.
    work.flops = {counted.flops, "counted"};
    work.bytes = {counted.bytes_loaded + counted.bytes_stored, "counted"};
    work.bytes_read = {counted.bytes_loaded, "counted"};
    work.bytes_written = {counted.bytes_stored, "counted"};
    work.load_instructions = counted.load_instructions;
    work.store_instructions = counted.store_instructions;
    for (const auto& [name, value] : counted.by_event) work.counted[name] = value;
  } else if (has_counts) {
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
      work.bytes_read = {counted.load_instructions * snapshot.access_bytes, "papi"};
      work.bytes_written = {counted.store_instructions * snapshot.access_bytes, "papi"};
    }
  }
  if (!work.flops.value && record.flops_declared) work.flops = {record.declared_flops, "declared"};
  if (!work.bytes.value && record.bytes_declared) work.bytes = {record.declared_bytes, "declared"};
  if (!work.bytes_read.value && record.rw_declared) {
    work.bytes_read = {record.declared_bytes_read, "declared"};
    work.bytes_written = {record.declared_bytes_written, "declared"};
  }
  return work;
}

regions::DataPlacement data_placement(const std::vector<DataTag>& tags) {
  regions::DataPlacement d;
  std::map<unsigned, std::uint64_t> placed;
  for (const auto& tag : tags) {
    regions::DataRange range;
    for (const auto& [node, pages] : tag.pages_by_node) {
      range.pages_sampled += pages;
      if (node >= 0) {
        range.pages_by_memory[static_cast<unsigned>(node)] += pages;
        placed[static_cast<unsigned>(node)] += pages;
      } else if (node == -ENOENT) {
        range.pages_not_present += pages;
      } else {
        range.pages_unplaced += pages;
      }
    }
    range.neighbours_compared = tag.neighbours_compared;
    range.neighbours_apart = tag.neighbours_apart;
    d.pages_not_present += range.pages_not_present;
    d.pages_unplaced += range.pages_unplaced;
    std::ostringstream address;
    address << "0x" << std::hex << tag.address;
    range.address = address.str();
    range.bytes = tag.bytes;
    if (!tag.handle.empty()) {
      range.handle = tag.handle;
      range.runs = tag.runs;
      range.ranges_tagged = tag.ranges_tagged;
      regions::DataRange::ResidentAtTag at_tag;
      for (const auto& [node, pages] : tag.at_tag_by_node) {
        at_tag.pages_sampled += pages;
        if (node >= 0) {
          at_tag.pages_present += pages;
          at_tag.pages_by_memory[static_cast<unsigned>(node)] += pages;
        }
      }
      if (at_tag.pages_sampled > 0) range.resident_at_tag = at_tag;
    }
    d.ranges.push_back(range);
  }
  for (const auto& [node, pages] : placed) d.pages_placed += pages;
  for (const auto& [node, pages] : placed) {
    d.memory_fractions[node] = static_cast<double>(pages) / static_cast<double>(d.pages_placed);
  }
  return d;
}

}  // namespace

NodeMap live_node_map() {
  NodeMap map;
  try {
    // The whole machine, so that domain numbers match `larm characterize` even when the
    // application runs bound to a part of it.
    topology::NodeMap node = topology::node_map(
        topology::Topology::load_live(topology::Topology::LiveScope::whole_machine));
    map.domain_of_cpu = std::move(node.domain_of_cpu);
    map.topology = std::move(node.topology);
  } catch (const std::exception& error) {
    map.unavailable = error.what();
  }
  return map;
}

regions::RegionsFile regions_file(const Snapshot& snapshot, const NodeMap& nodes) {
  regions::RegionsFile file;
  file.label = snapshot.label;
  file.host = platform::host_name();
  file.pid = ::getpid();
  file.started_at = snapshot.started_at;
  file.wall_seconds = snapshot.wall_seconds;
  file.clock_source = snapshot.clock_source;
  file.ticks_per_second = snapshot.ticks_per_second;
  // A counting run: its times are not the program's (Valgrind's, or slowed by the sampled cache
  // model).
  const bool counted_run =
      snapshot.counters != nullptr && snapshot.counters_unavailable.empty() &&
      (snapshot.counters->count_tool() || snapshot.counters->sampled_cache_model());
  file.run = counted_run ? "counted" : "timed";
  // The CPU's name, but for a run under Valgrind, whose CPUID names a CPU of its own; unknown, the
  // placement tells machines apart by host name alone.
  if (snapshot.counters == nullptr || !snapshot.counters->count_tool()) {
    try {
      file.cpu_model = platform::read_cpu_info().model_name;
    } catch (const std::exception&) {
    }
  }
  if (counted_run) {
    file.counters.tool = snapshot.counters->count_tool()
                             ? "larmcount (Valgrind)"
                             : "larm's compiler plugin, sampled cache model";
  }
  if (snapshot.counters != nullptr && snapshot.counters_unavailable.empty() &&
      snapshot.counters->exact()) {
    file.counters.counted_by = snapshot.counters->compiler() ? "compiler" : "valgrind";
  }
  file.counters.available = snapshot.counters_unavailable.empty();
  file.counters.reason = snapshot.counters_unavailable;
  if (snapshot.access_bytes > 0) file.counters.bytes_per_memory_instruction = snapshot.access_bytes;
  if (snapshot.counters != nullptr && snapshot.counters_unavailable.empty()) {
    for (const auto& event : snapshot.counters->events()) {
      file.counters.events.push_back(event.name);
    }
    file.counters.events_refused = snapshot.counters->events_refused();
  }
  file.topology = nodes.topology;
  if (!nodes.unavailable.empty()) file.topology["unavailable"] = nodes.unavailable;
  file.open_at_finalize = snapshot.open_at_finalize;

  // Region name -> (thread, record), in the order of their names.
  std::map<std::string, std::vector<std::pair<const ThreadSnapshot*, const RegionRecord*>>> by_name;
  for (const auto& thread : snapshot.threads) {
    for (const auto& record : thread.regions) by_name[record.name].emplace_back(&thread, &record);
  }
  for (const auto& [name, tags] : snapshot.data) by_name[name];  // tagged, maybe never run
  for (const auto& [name, records] : by_name) {
    regions::Region region;
    region.name = name;
    region.threads.reserve(records.size());
    for (const auto& [thread, record] : records) {
      const double seconds = static_cast<double>(record->ticks) / snapshot.ticks_per_second;
      const ThreadWork work = thread_work(*record, snapshot);
      const auto found = nodes.domain_of_cpu.find(record->cpu);
      const int domain = found != nodes.domain_of_cpu.end() ? found->second : -1;
      regions::ThreadRecord entry;
      entry.thread = thread->index;
      entry.tid = thread->tid;
      entry.cpu = record->cpu;
      if (domain >= 0) entry.domain = domain;
      entry.migrated = record->migrated;
      entry.calls = record->calls;
      entry.seconds = seconds;
      entry.flops = work.flops;
      entry.bytes = work.bytes;
      entry.bytes_read = work.bytes_read;
      entry.bytes_written = work.bytes_written;
      if (record->flops_declared) entry.flops_declared = record->declared_flops;
      if (record->bytes_declared) entry.bytes_declared = record->declared_bytes;
      // Counts that are not finite are written as null (results::number_or_null).
      entry.flops_papi = work.papi_flops;
      entry.load_instructions = work.load_instructions;
      entry.store_instructions = work.store_instructions;
      entry.rates = regions::rates_of(work.flops.value, work.bytes.value, seconds);
      entry.counted = work.counted;
      const auto since_start = [&](std::uint64_t ticks) -> std::optional<double> {
        if (ticks == 0 || ticks < snapshot.start_ticks) return std::nullopt;
        return static_cast<double>(ticks - snapshot.start_ticks) / snapshot.ticks_per_second;
      };
      entry.first_begin_s = since_start(record->first_begin_ticks);
      entry.last_end_s = since_start(record->last_end_ticks);
      if (record->busy_wall_ns > 0) {
        entry.busy_cpu_s = static_cast<double>(record->busy_cpu_ns) * 1e-9;
        entry.busy_thread_cpu_s = static_cast<double>(record->busy_thread_cpu_ns) * 1e-9;
        entry.busy_wall_s = static_cast<double>(record->busy_wall_ns) * 1e-9;
      }
      region.threads.push_back(entry);
    }
    // Threads registered only (no call) have no work to merge.
    std::map<int, std::vector<const regions::ThreadRecord*>> per_domain;
    std::vector<const regions::ThreadRecord*> machine;
    for (const regions::ThreadRecord& entry : region.threads) {
      if (entry.calls == 0) continue;
      per_domain[entry.domain.value_or(-1)].push_back(&entry);
      machine.push_back(&entry);
    }
    for (const auto& [domain, members] : per_domain) {
      regions::Aggregate aggregate = regions::merge_threads(members);
      if (domain >= 0) aggregate.domain = domain;
      region.domains.push_back(aggregate);
    }
    region.machine = regions::merge_threads(machine);
    const auto tags = snapshot.data.find(name);
    if (tags != snapshot.data.end()) region.data = data_placement(tags->second);
    file.regions.push_back(std::move(region));
  }
  return file;
}

bool write_regions(const Snapshot& snapshot) {
  const regions::RegionsFile file = regions_file(snapshot, live_node_map());
  for (const regions::Region& region : file.regions) {
    if (const std::string warning = regions::undercount_warning(region.machine); !warning.empty()) {
      report(MessageKind::misuse, "region \"" + region.name + "\" " + warning);
    }
  }
  const json document = regions::to_json(file);
  try {
    results::check_output_document(document, results::FileFormat::regions,
                                   "regions" + snapshot.file_suffix + ".json");
  } catch (const std::logic_error& refused) {
    report(MessageKind::lifecycle, refused.what());
    return false;
  }
  // Region names are the application's bytes: invalid UTF-8 is replaced, never a failure.
  const std::string text = document.dump(2, ' ', false, json::error_handler_t::replace) + "\n";
  const std::string csv = regions::regions_csv(file);
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
    try {
      // A new private directory (mkdtemp: a name no one can have planted a link or a directory
      // at), not a predictable one another user could prepare.
      std::string name = (std::filesystem::temp_directory_path() /
                          ("larm-regions-" + std::to_string(::getpid()) + "-XXXXXX"))
                             .string();
      if (::mkdtemp(name.data()) == nullptr) {
        throw std::runtime_error("cannot create a directory in " +
                                 std::filesystem::temp_directory_path().string() + ": " +
                                 std::strerror(errno));
      }
      const std::filesystem::path fallback = name;
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
