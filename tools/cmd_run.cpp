// larm run: a program started under a memory policy larm sets before exec: weighted interleave
// (MPOL_WEIGHTED_INTERLEAVE, Linux 6.9), which numactl 2.0.16 cannot set.
#include <sys/wait.h>

#include <cstdio>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "platform/weighted_interleave.h"
#include "tools/cli_inputs.h"
#include "tools/commands.h"
#include "tools/program_run.h"

namespace larm::cli {
namespace {

struct RunOptions {
  std::vector<std::string> weighted_interleave;  // NODE:WEIGHT
  bool set_weights = false;
  std::vector<std::string> command;
};

// A whole number in [low, high] written in decimal digits only, or nullopt.
std::optional<long> whole_number(const std::string& text, long low, long high) {
  if (text.empty() || text.size() > 9 || text.find_first_not_of("0123456789") != text.npos) {
    return std::nullopt;
  }
  const long value = std::stol(text);
  if (value < low || value > high) return std::nullopt;
  return value;
}

// NODE:WEIGHT items -> node -> weight, each checked.
std::map<unsigned, int> parse_weights(const std::vector<std::string>& items) {
  std::map<unsigned, int> weights;
  for (const std::string& item : items) {
    const auto colon = item.find(':');
    if (colon == std::string::npos) {
      throw UsageError("larm run: --weighted-interleave: '" + item +
                       "' is not NODE:WEIGHT (e.g. 0:3,1:1)");
    }
    const auto node = whole_number(item.substr(0, colon), 0, 1 << 20);
    if (!node) {
      throw UsageError("larm run: --weighted-interleave: '" + item.substr(0, colon) +
                       "' is not a node number");
    }
    const auto weight = whole_number(item.substr(colon + 1), 1, 255);
    if (!weight) {
      throw UsageError("larm run: --weighted-interleave: weight '" + item.substr(colon + 1) +
                       "' of node " + std::to_string(*node) +
                       " is not a whole number in [1, 255] (the kernel keeps one byte, not 0)");
    }
    if (!weights.emplace(static_cast<unsigned>(*node), static_cast<int>(*weight)).second) {
      throw UsageError("larm run: --weighted-interleave: node " + std::to_string(*node) +
                       " is given twice");
    }
  }
  return weights;
}

// Brings sysfs's weights to those asked (with --set-weights) or refuses with the lines that
// would: they are system-wide, so larm writes them only when told to.
void apply_weights(const std::map<unsigned, int>& asked, bool set_weights) {
  std::string differ, lines;
  for (const auto& [node, weight] : asked) {
    std::string why;
    const std::optional<int> current = platform::read_weight(node, why);
    if (!current) throw UsageError("larm run: " + why);
    if (*current == weight) continue;
    differ += (differ.empty() ? "" : ", ") + std::string("node ") + std::to_string(node) + " has " +
              std::to_string(*current) + " (asked " + std::to_string(weight) + ")";
    lines += (lines.empty() ? "" : "; ") + std::string("echo ") + std::to_string(weight) + " > " +
             platform::weight_file(node);
  }
  if (differ.empty()) return;
  if (!set_weights) {
    throw UsageError("larm run: the kernel's weights differ: " + differ +
                     "; they are system-wide: add --set-weights (root), or run: " + lines);
  }
  for (const auto& [node, weight] : asked) {
    if (const std::string why = platform::write_weight(node, weight); !why.empty()) {
      throw UsageError("larm run: --set-weights: " + why);
    }
  }
  std::fprintf(stderr, "larm: weighted interleave weights set system-wide: %s\n", differ.c_str());
}

int exit_status_of(int status) {
  if (WIFEXITED(status)) return WEXITSTATUS(status);
  if (WIFSIGNALED(status)) return 128 + WTERMSIG(status);
  return 1;
}

int run_run(const RunOptions& options, const GlobalOptions& global) {
  if (options.command.empty()) {
    throw UsageError(
        "larm run: give a program after the policy (larm run --weighted-interleave "
        "0:3,1:1 -- APP ARGS...)");
  }
  if (options.weighted_interleave.empty()) {
    throw UsageError("larm run: give the policy (--weighted-interleave NODE:WEIGHT,...)");
  }
  const std::map<unsigned, int> weights = parse_weights(options.weighted_interleave);
  find_program(options.command[0], "larm run");
  const topology::Topology topology = load_topology(global);
  for (const auto& [node, weight] : weights) {
    if (topology.memory_by_os_index(node) == nullptr) {
      throw UsageError("larm run: --weighted-interleave: node " + std::to_string(node) +
                       " is not a memory of this machine");
    }
  }
  if (const std::string why = platform::weighted_interleave_missing(); !why.empty()) {
    throw UsageError("larm run: --weighted-interleave: " + why);
  }
  apply_weights(weights, options.set_weights);
  std::vector<unsigned> nodes;
  for (const auto& [node, weight] : weights) nodes.push_back(node);
  // larm's own policy: the program inherits it at fork and keeps it through exec.
  if (const std::string why = platform::set_weighted_interleave(nodes); !why.empty()) {
    throw UsageError("larm run: --weighted-interleave: " + why);
  }
  const ProgramRun run = run_program(options.command, {});
  if (!(WIFEXITED(run.status) && WEXITSTATUS(run.status) == 0)) {
    std::fprintf(stderr, "larm: the program %s\n", exit_text(run.status).c_str());
  }
  return exit_status_of(run.status);
}

}  // namespace

void setup_run(CLI::App& app, GlobalOptions& global, Action& action) {
  auto options = std::make_shared<RunOptions>();
  CLI::App* command = app.add_subcommand(
      "run",
      "run a program under a memory policy larm sets before it starts: weighted interleave of "
      "its pages over nodes (as larm hybrid weights advises); its exit status is larm's");
  command
      ->add_option("--weighted-interleave", options->weighted_interleave,
                   "NODE:WEIGHT,...: the program's pages in rounds of WEIGHT pages per node "
                   "(Linux 6.9 or later; the weights are the kernel's, system-wide)")
      ->delimiter(',');
  command->add_flag("--set-weights", options->set_weights,
                    "write the weights to the kernel (root; system-wide) when they differ "
                    "instead of refusing");
  command->add_option("command", options->command, "the program and its arguments, after --");
  command->positionals_at_end();
  command->callback([options, &global, &action] {
    action = [options, &global] { return run_run(*options, global); };
  });
}

}  // namespace larm::cli
