// What the subcommands read: the topology, results, regions with their counts, fleets; each
// loader turns a reader's error into a UsageError naming the file.
#pragma once

#include <CLI/CLI.hpp>

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "results/fleet_records.h"
#include "results/records.h"
#include "results/region_records.h"
#include "tools/cli_options.h"
#include "topology/topology.h"

namespace larm::cli {

// The live machine, or the XML file given with --topology.
topology::Topology load_topology(const GlobalOptions& global);

// --domain D of a command that runs on one domain: UsageError naming the domains there are.
const topology::Domain& domain_option(const topology::Topology& topology, int domain);
// --memory M (an OS index), or else the domain's first local memory: UsageError when M is not a
// NUMA node, or when none is given and the domain has no local memory.
const topology::Memory& memory_option(const topology::Topology& topology,
                                      const topology::Domain& domain,
                                      std::optional<unsigned> memory);

// A node that a memory policy names (larm run --weighted-interleave, hybrid weights --nodes): a
// memory of this machine, or UsageError "OPTION: node N is not a memory of this machine (its
// memories: 0, 1)".
void check_policy_node(const topology::Topology& topology, unsigned node,
                       const std::string& option);

// The fleet of a directory (or its fleet.json); throws UsageError naming the problem.
fleet::Fleet load_fleet_argument(const std::string& dir_or_file);
// The fleet directory of a directory or of its fleet.json.
std::filesystem::path fleet_directory(const std::string& dir_or_file);

// The results of a directory (or its results.json); throws UsageError naming the problem.
results::Results load_results_argument(const std::string& dir_or_file);

// The results directory of a command that reads one: --results DIR (-r), the one spelling every
// command accepts (count and profile take no other), or the first argument (RESULTS) as these
// commands took it before --results existed. `description` says what DIR may be. With `regions`,
// the arguments after it are REGIONS..., required: with --results, every argument is a regions
// file. The check runs when the command's words are parsed: a missing directory is a usage error
// before any work.
void add_results_argument(CLI::App& command, std::string& dir, const std::string& description,
                          std::vector<std::string>* regions = nullptr);

// The results directory of show, plot and report, which also read a fleet directory.
void add_results_or_fleet_argument(CLI::App& command, std::string& dir);

// The results directory and REGIONS... of the commands that read regions (place, advise).
void add_results_and_regions_arguments(CLI::App& command, std::string& results_dir,
                                       std::vector<std::string>& region_files);

// A regions.json of liblarm (or a directory holding one), parsed; throws UsageError when it is
// missing or not JSON.
nlohmann::json read_regions_file(const std::string& file_or_dir);

// --counts FILE,...: count runs of larm count whose exact counts the timed regions files take:
// one for every regions file, or one per regions file in the same order.
void add_counts_option(CLI::App& command, std::vector<std::string>& counts_files);
// The count run that goes with the index-th of `files` regions files ("" for none); throws
// UsageError when the numbers do not match.
std::string counts_for(const std::vector<std::string>& counts_files, std::size_t index,
                       std::size_t files);
// A regions file to place: with the counts of counts_file when one is given (paired by region
// name; one line per region printed on stdout says how), and a count run given alone refused
// (its times are Valgrind's). Throws UsageError naming the problem.
regions::RegionsFile load_regions(const std::string& file_or_dir, const std::string& counts_file);

}  // namespace larm::cli
