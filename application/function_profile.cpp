// From samples and counts per function to regions.
#include "application/function_profile.h"

#include <algorithm>
#include <fstream>
#include <limits>
#include <sstream>
#include <stdexcept>

#include "application/symbol_names.h"
#include "results/printable_text.h"
#include "results/region_merge.h"
#include "results/region_repeats.h"
#include "results/statistics.h"
#include "topology/node_map.h"
#include "topology/topology.h"

namespace larm::application {

namespace fs = std::filesystem;

namespace {

std::vector<std::string> split_tabs(const std::string& line) {
  std::vector<std::string> fields;
  std::size_t start = 0;
  for (;;) {
    const std::size_t tab = line.find('\t', start);
    fields.push_back(line.substr(start, tab - start));
    if (tab == std::string::npos) return fields;
    start = tab + 1;
  }
}

// FLOPs, bytes and their split from the tool's counts, as liblarm reads them under larm count.
void set_counts(regions::ThreadRecord& thread, const std::map<std::string, double>& counts) {
  double flops = 0;
  for (const auto& [name, value] : counts) {
    if (name.rfind("flops_", 0) == 0) flops += value;
  }
  const auto get = [&](const char* name) {
    const auto found = counts.find(name);
    return found != counts.end() ? found->second : 0.0;
  };
  thread.flops = {flops, "counted"};
  thread.bytes = {get("bytes_loaded") + get("bytes_stored"), "counted"};
  thread.bytes_read = {get("bytes_loaded"), "counted"};
  thread.bytes_written = {get("bytes_stored"), "counted"};
  thread.load_instructions = get("loads");
  thread.store_instructions = get("stores");
  thread.counted = counts;
}

// The function's name as a region: its short demangled name, or the full one (with its
// parameters) when another function has the same short one; "name [library]" for a library's.
std::string region_name(const FunctionKey& key, const std::string& main_object, bool full) {
  if (key.second == kRuntimeIdle) return kRuntimeIdle;
  const std::string function = full ? demangled_name(key.second) : short_function_name(key.second);
  std::string name = key.first == main_object || key.first == key.second
                         ? function
                         : function + " [" + key.first + "]";
  return results::cut_to_bytes(name, 255);
}

}  // namespace

FunctionCounts read_function_counts(const std::vector<fs::path>& files) {
  FunctionCounts out;
  for (const fs::path& file : files) {
    std::ifstream in(file);
    std::string line;
    if (!std::getline(in, line) || line.rfind("larmcount-functions\t", 0) != 0) {
      throw std::runtime_error(file.string() + ": not a larmcount functions file");
    }
    std::vector<std::string> names;
    std::map<long, FunctionKey> keys;
    while (std::getline(in, line)) {
      const auto fields = split_tabs(line);
      if (fields[0] == "counts") {
        names.assign(fields.begin() + 1, fields.end());
      } else if (fields[0] == "f" && fields.size() == 4) {
        // Made valid, printable UTF-8 as perf's names are (read_perf_script): the two still meet.
        keys[std::stol(fields[1])] = {
            object_key(results::printable(fields[2])),
            fold_function_name(fields[3] == "???" ? "[unknown]" : results::printable(fields[3]))};
      } else if (fields[0] == "c" && fields.size() == 3 + names.size()) {
        const auto key = keys.find(std::stol(fields[2]));
        if (key == keys.end()) continue;
        // Thread slots in creation order; the threads that ended, together, after them.
        const int slot =
            fields[1] == "retired" ? std::numeric_limits<int>::max() : std::stoi(fields[1]);
        auto& thread = out.functions[key->second].threads[slot];
        for (std::size_t i = 0; i < names.size(); ++i) thread[names[i]] += std::stod(fields[3 + i]);
      }
    }
  }
  return out;
}

Profile build_profile(const std::vector<SampledRun>& runs, const std::vector<bool>& clean,
                      const FunctionCounts& counts, FunctionCounter counter,
                      const std::string& main_object, int top, double min_share) {
  Profile profile;
  const bool any_clean = std::find(clean.begin(), clean.end(), true) != clean.end();
  // Each function's share of the samples and slowest thread's time, median over the chosen runs.
  std::map<FunctionKey, std::vector<double>> shares, seconds, sample_counts;
  std::map<FunctionKey, int> threads;
  for (std::size_t r = 0; r < runs.size(); ++r) {
    if (any_clean && !clean[r]) continue;
    for (const auto& [key, by_thread] : runs[r].functions) {
      double total = 0, slowest = 0;
      for (const auto& [tid, samples] : by_thread) {
        total += samples.sampled();
        slowest = std::max(slowest, samples.wall());
      }
      shares[key].push_back(runs[r].sampled_seconds > 0 ? total / runs[r].sampled_seconds : 0);
      sample_counts[key].push_back(total * runs[r].frequency);
      seconds[key].push_back(slowest);
      threads[key] = std::max(threads[key], static_cast<int>(by_thread.size()));
    }
  }
  std::map<FunctionKey, std::string> short_name;
  std::map<std::string, int> sharing;  // short name -> functions that have it
  for (const auto& [key, values] : shares) {
    short_name[key] = region_name(key, main_object, false);
    ++sharing[short_name[key]];
  }
  for (const auto& [key, values] : shares) {
    ProfiledFunction f;
    f.key = key;
    f.region = sharing[short_name[key]] > 1 ? region_name(key, main_object, true) : short_name[key];
    f.share = results::median(values);
    f.median_seconds = results::median(seconds[key]);
    f.threads = threads[key];
    f.samples = results::median(sample_counts[key]);
    f.counted = counts.functions.count(key) > 0;
    if (key.first == "[kernel]") profile.kernel_share += f.share;
    profile.functions.push_back(f);
  }
  std::sort(profile.functions.begin(), profile.functions.end(),
            [](const auto& a, const auto& b) { return a.share > b.share; });
  int taken = 0;
  for (ProfiledFunction& f : profile.functions) {
    // Kernel time and code without a symbol cannot be counted or named: said, not placed.
    if (f.key.first == "[kernel]" || f.key.second == "[unknown]" || f.key.second == kRuntimeIdle ||
        !f.counted)
      continue;
    // Too few samples to time it: the time of n samples is known to about 1/sqrt(n).
    if (f.samples < kMinSamples || f.share < min_share) continue;
    if (taken < top) {
      f.placed = true;
      ++taken;
    }
  }
  // One regions file per run, then their medians as larm count merges its native runs.
  // The whole machine, as liblarm records it: domain numbers match `larm characterize`'s.
  const topology::NodeMap node = topology::node_map(
      topology::Topology::load_live(topology::Topology::LiveScope::whole_machine));
  std::vector<regions::RegionsFile> files;
  for (const SampledRun& run : runs) {
    regions::RegionsFile file;
    file.run = "timed";
    file.label = "profile";
    file.wall_seconds = run.run.seconds;
    file.clock_source = "perf cpu-clock samples";
    file.counters.available = true;
    const bool compiled = counter == FunctionCounter::compiler;
    file.counters.tool =
        compiled ? "larm's compiler plugin, per function" : "larmcount (Valgrind), per function";
    // The Valgrind tool's counts come from another run than the times: no counted_by ("valgrind"
    // says a counted run's times are Valgrind's).
    if (compiled) file.counters.counted_by = "compiler";
    file.topology = node.topology;
    for (const ProfiledFunction& f : profile.functions) {
      if (!f.placed) continue;
      regions::Region region;
      region.name = f.region;
      const auto sampled = run.functions.find(f.key);
      const CountedFunction& counted = counts.functions.at(f.key);
      std::vector<const std::map<std::string, double>*> slots;
      // The threads that ran it (the plugin counts no instructions: any count says so).
      for (const auto& [slot, values] : counted.threads) {
        if (std::any_of(values.begin(), values.end(), [](const auto& v) { return v.second > 0; }))
          slots.push_back(&values);
      }
      if (sampled != run.functions.end()) {
        double sampled_total = 0;
        for (const auto& [tid, samples] : sampled->second) sampled_total += samples.sampled();
        // Threads in the order they were created (thread ids grow; the tool's slots too): the
        // k-th sampled thread takes the k-th counted one's counts when both saw as many threads,
        // else a share of the total in proportion to its samples.
        const bool paired = slots.size() == sampled->second.size();
        std::map<std::string, double> total;
        for (const auto* slot : slots) {
          for (const auto& [name, value] : *slot) total[name] += value;
        }
        int k = 0;
        for (const auto& [tid, samples] : sampled->second) {
          regions::ThreadRecord t;
          t.thread = k;
          t.tid = tid;
          double most = -1;
          for (const auto& [cpu, s] : samples.cpu_share) {
            if (s > most) {
              most = s;
              t.cpu = cpu;
            }
          }
          if (const auto d = node.domain_of_cpu.find(t.cpu); d != node.domain_of_cpu.end()) {
            t.domain = d->second;
          }
          t.migrated = samples.cpu_share.size() > 1;
          t.calls = 1;
          t.seconds = samples.wall();
          std::map<std::string, double> mine;
          if (paired) {
            mine = *slots[static_cast<std::size_t>(k)];
          } else {
            for (const auto& [name, value] : total) {
              mine[name] = sampled_total > 0 ? value * samples.sampled() / sampled_total : 0;
            }
          }
          set_counts(t, mine);
          t.rates = regions::rates_of(t.flops.value, t.bytes.value, t.seconds);
          region.threads.push_back(std::move(t));
          ++k;
        }
      }
      std::map<int, std::vector<const regions::ThreadRecord*>> by_domain;
      std::vector<const regions::ThreadRecord*> all;
      for (const auto& t : region.threads) {
        by_domain[t.domain.value_or(-1)].push_back(&t);
        all.push_back(&t);
      }
      for (const auto& [domain, members] : by_domain) {
        regions::Aggregate a = regions::merge_threads(members);
        if (domain >= 0) a.domain = domain;
        region.domains.push_back(std::move(a));
      }
      region.machine = regions::merge_threads(all);
      file.regions.push_back(std::move(region));
    }
    files.push_back(std::move(file));
  }
  profile.file = regions::merge_repeated_runs(files, clean);
  return profile;
}

}  // namespace larm::application
