// The subcommands' loaders: a reader's error becomes a UsageError naming the file.
#include "tools/cli_inputs.h"

#include <iostream>
#include <memory>
#include <stdexcept>

#include "results/input_file.h"
#include "results/region_pairing.h"
#include "results/store.h"

namespace larm::cli {

topology::Topology load_topology(const GlobalOptions& global) {
  try {
    return global.topology_file.empty() ? topology::Topology::load_live()
                                        : topology::Topology::load_xml(global.topology_file);
  } catch (const std::runtime_error& e) {
    throw UsageError(e.what());
  }
}

const topology::Domain& domain_option(const topology::Topology& topology, int domain) {
  const int domains = static_cast<int>(topology.domains().size());
  if (domain < 0 || domain >= domains) {
    throw UsageError("--domain " + std::to_string(domain) + " does not exist (this machine has " +
                     std::to_string(domains) + ": 0-" + std::to_string(domains - 1) + ")");
  }
  return topology.domains()[static_cast<std::size_t>(domain)];
}

const topology::Memory& memory_option(const topology::Topology& topology,
                                      const topology::Domain& domain,
                                      std::optional<unsigned> memory) {
  if (memory) {
    const topology::Memory* found = topology.memory_by_os_index(*memory);
    if (found == nullptr) {
      throw UsageError("--memory " + std::to_string(*memory) + ": no such NUMA node");
    }
    return *found;
  }
  if (domain.local_memories.empty()) {
    throw UsageError("domain " + std::to_string(domain.index) +
                     " has no local memory: name one with --memory");
  }
  return topology.memories().at(static_cast<std::size_t>(domain.local_memories.front()));
}

void check_policy_node(const topology::Topology& topology, unsigned node,
                       const std::string& option) {
  if (topology.memory_by_os_index(node) != nullptr) return;
  std::string known;
  for (const topology::Memory& m : topology.memories()) {
    known += (known.empty() ? "" : ", ") + std::to_string(m.os_index);
  }
  throw UsageError(option + ": node " + std::to_string(node) +
                   " is not a memory of this machine (its memories: " + known + ")");
}

fleet::Fleet load_fleet_argument(const std::string& dir_or_file) {
  try {
    return fleet::load_fleet(dir_or_file);
  } catch (const std::runtime_error& e) {
    throw UsageError(e.what());
  }
}

std::filesystem::path fleet_directory(const std::string& dir_or_file) {
  const std::filesystem::path path(dir_or_file);
  return std::filesystem::is_directory(path) ? path : path.parent_path();
}

results::Results load_results_argument(const std::string& dir_or_file) {
  try {
    return results::load_results(dir_or_file);
  } catch (const std::runtime_error& e) {
    throw UsageError(e.what());
  }
}

void add_results_argument(CLI::App& command, std::string& dir, const std::string& description,
                          std::vector<std::string>* regions) {
  auto first = std::make_shared<std::string>();  // RESULTS: kept apart from --results (below)
  const CLI::Option* positional =
      command.add_option("RESULTS", *first, description + "; the same as --results");
  const CLI::Option* option = command.add_option("--results,-r", dir, description);
  if (regions != nullptr) {
    command.add_option("REGIONS", *regions, "regions.json files, or directories holding one");
  }
  // With --results, CLI11 still fills RESULTS first: that word is the first regions file.
  command.parse_complete_callback([first, &dir, regions, positional, option] {
    // Given empty ("larm show ''", "-r ''"): refuse_empty_values names it after the parse.
    if (option->count() > 0 ? dir.empty() : positional->count() > 0 && first->empty()) return;
    if (dir.empty()) {
      dir = *first;
    } else if (!first->empty()) {
      if (regions == nullptr) {
        throw CLI::ValidationError(
            "two results directories: --results " + dir + " and '" + *first + "' (give one)",
            CLI::ExitCodes::ValidationError);
      }
      regions->insert(regions->begin(), *first);
    }
    if (dir.empty()) {
      throw CLI::RequiredError(
          "missing the results directory: give --results DIR (or DIR as the first argument)",
          CLI::ExitCodes::RequiredError);
    }
    if (regions != nullptr && regions->empty()) {
      throw CLI::RequiredError(
          "missing REGIONS: give the regions.json files (or directories holding one) after the "
          "results directory",
          CLI::ExitCodes::RequiredError);
    }
  });
}

void add_results_or_fleet_argument(CLI::App& command, std::string& dir) {
  add_results_argument(command, dir,
                       "results directory (or its results.json), or a fleet directory");
}

void add_results_and_regions_arguments(CLI::App& command, std::string& results_dir,
                                       std::vector<std::string>& region_files) {
  add_results_argument(command, results_dir, "results directory (or its results.json)",
                       &region_files);
}

nlohmann::json read_regions_file(const std::string& given) {
  std::filesystem::path file = given;
  std::error_code ec;
  if (std::filesystem::is_directory(file, ec)) file /= "regions.json";
  if (!std::filesystem::exists(file, ec))
    throw UsageError("regions file not found: " + file.string());
  try {
    return results::read_json_file(file);
  } catch (const std::runtime_error& e) {
    throw UsageError(e.what());
  }
}

void add_counts_option(CLI::App& command, std::vector<std::string>& counts_files) {
  command
      .add_option("--counts", counts_files,
                  "regions.json of count runs (larm count) of the same commands: their exact "
                  "FLOP and byte counts replace the timed runs' (regions paired by name); one "
                  "for all regions files, or one per regions file in their order")
      ->delimiter(',');
}

std::string counts_for(const std::vector<std::string>& counts_files, std::size_t index,
                       std::size_t files) {
  if (counts_files.empty()) return {};
  if (counts_files.size() == 1) return counts_files.front();
  if (counts_files.size() != files) {
    throw UsageError("--counts: " + std::to_string(counts_files.size()) + " count runs for " +
                     std::to_string(files) +
                     " regions files (give one for all, or one per regions file)");
  }
  return counts_files[index];
}

regions::RegionsFile load_regions(const std::string& file_or_dir, const std::string& counts_file) {
  auto parse = [](const std::string& file) {
    try {
      return regions::regions_from_json(read_regions_file(file));
    } catch (const nlohmann::json::exception& e) {
      throw UsageError(file + " is not a valid regions file: " + e.what());
    } catch (const std::runtime_error& e) {
      if (dynamic_cast<const UsageError*>(&e) != nullptr) throw;
      throw UsageError(file + ": " + e.what());
    }
  };
  // A region that cannot be placed as recorded (FLOPs without bytes, calls without time) is the
  // file's problem: one line naming it, before anything is placed or written.
  const auto placeable = [](const std::string& file, regions::RegionsFile records) {
    if (const std::string problem = regions::unplaceable_region(records); !problem.empty()) {
      throw UsageError(file + ": " + problem);
    }
    return records;
  };
  regions::RegionsFile timed = parse(file_or_dir);
  if (counts_file.empty()) {
    if (timed.run == "counted") {
      throw UsageError(file_or_dir +
                       " is a count run (larm count): its times are Valgrind's, not the "
                       "program's; give the program's own run and this one with --counts");
    }
    return placeable(file_or_dir, std::move(timed));
  }
  const regions::RegionsFile counted = parse(counts_file);
  regions::Pairing pairing;
  try {
    pairing = regions::pair_counts(timed, counted);
  } catch (const std::runtime_error& e) {
    throw UsageError(std::string(e.what()));
  }
  for (const std::string& note : pairing.notes) {
    std::cout << "counts (" << counts_file << "): " << note << "\n";
  }
  return placeable(file_or_dir, std::move(pairing.file));
}

}  // namespace larm::cli
