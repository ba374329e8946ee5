// larm run: a program started under a memory policy larm sets before exec: weighted interleave
// (MPOL_WEIGHTED_INTERLEAVE, Linux 6.9), which numactl 2.0.16 cannot set.
#include <sys/wait.h>

#include <cstdio>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "application/program_run.h"
#include "platform/weighted_interleave.h"
#include "tools/cli_inputs.h"
#include "tools/commands.h"

namespace larm::cli {

using namespace larm::application;  // the engine that runs, samples and counts programs
namespace {

struct RunOptions {
  std::vector<std::string> weighted_interleave;  // NODE:WEIGHT
  bool set_weights = false;
  bool keep_weights = false;
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
      throw UsageError("--weighted-interleave: '" + item + "' is not NODE:WEIGHT (e.g. 0:3,1:1)");
    }
    const auto node = whole_number(item.substr(0, colon), 0, 1 << 20);
    if (!node) {
      throw UsageError("--weighted-interleave: '" + item.substr(0, colon) +
                       "' is not a node number");
    }
    const auto weight = whole_number(item.substr(colon + 1), 1, 255);
    if (!weight) {
      throw UsageError("--weighted-interleave: weight '" + item.substr(colon + 1) + "' of node " +
                       std::to_string(*node) +
                       " is not a whole number in [1, 255] (the kernel keeps one byte, not 0)");
    }
    if (!weights.emplace(static_cast<unsigned>(*node), static_cast<int>(*weight)).second) {
      throw UsageError("--weighted-interleave: node " + std::to_string(*node) + " is given twice");
    }
  }
  return weights;
}

// The kernel's weights that differ from those asked, in words ("node 0 has 1 (asked 3)") and as
// the lines that would set them; both empty when none differ.
struct WeightChange {
  std::string differ, lines;
};

WeightChange weight_change(const std::map<unsigned, int>& asked,
                           const platform::WeightSettings& current) {
  WeightChange change;
  for (const auto& [node, weight] : asked) {
    const int now = current.weights.at(node);
    if (now == weight) continue;
    change.differ += (change.differ.empty() ? "" : ", ") + std::string("node ") +
                     std::to_string(node) + " has " + std::to_string(now) + " (asked " +
                     std::to_string(weight) + ")";
    change.lines += (change.lines.empty() ? "" : "; ") + std::string("echo ") +
                    std::to_string(weight) + " > " + platform::weight_file(node);
  }
  return change;
}

// The kernel's weights as larm found them, put back when it ends (the program ended, larm failed
// or was signalled), unless they are to be kept.
class WeightsRestorer {
 public:
  WeightsRestorer(platform::WeightSettings before, bool keep)
      : before_(std::move(before)), keep_(keep) {}
  WeightsRestorer(const WeightsRestorer&) = delete;
  WeightsRestorer& operator=(const WeightsRestorer&) = delete;
  ~WeightsRestorer() {
    if (!armed_ || keep_) return;
    const std::string why = platform::restore_weight_settings(before_);
    if (why.empty()) {
      std::fprintf(stderr, "larm run: the kernel's weights are back as they were\n");
    } else {
      std::fprintf(stderr, "larm: error: the kernel's weights could not be put back: %s\n",
                   why.c_str());
    }
  }
  void arm() { armed_ = true; }

 private:
  platform::WeightSettings before_;
  bool keep_;
  bool armed_ = false;
};

int exit_status_of(int status) {
  if (WIFEXITED(status)) return WEXITSTATUS(status);
  if (WIFSIGNALED(status)) return 128 + WTERMSIG(status);
  return 1;
}

int run_run(const RunOptions& options, const GlobalOptions& global) {
  if (options.command.empty()) {
    throw UsageError(
        "give a program after the policy (larm run --weighted-interleave "
        "0:3,1:1 -- APP ARGS...)");
  }
  if (options.weighted_interleave.empty()) {
    throw UsageError("give the policy (--weighted-interleave NODE:WEIGHT,...)");
  }
  const std::map<unsigned, int> weights = parse_weights(options.weighted_interleave);
  find_program(options.command[0], "larm run");
  const topology::Topology topology = load_topology(global);
  for (const auto& [node, weight] : weights) {
    check_policy_node(topology, node, "--weighted-interleave");
  }
  if (const std::string why = platform::weighted_interleave_missing(); !why.empty()) {
    throw UsageError("--weighted-interleave: " + why);
  }
  std::vector<unsigned> nodes;
  for (const auto& [node, weight] : weights) nodes.push_back(node);
  // Every value larm may change, read before anything is written.
  std::string why;
  const std::optional<platform::WeightSettings> before = platform::read_weight_settings(nodes, why);
  if (!before) throw UsageError(why);
  const WeightChange change = weight_change(weights, *before);
  if (!change.differ.empty() && !options.set_weights) {
    throw UsageError("the kernel's weights differ: " + change.differ +
                     "; they are system-wide: add --set-weights (root), or run: " + change.lines);
  }
  if (options.keep_weights && !options.set_weights) {
    throw UsageError("--keep-weights keeps what --set-weights writes: give both");
  }
  // larm's own policy, before any weight is written (a kernel that refuses it changes nothing):
  // the program inherits it at fork and keeps it through exec.
  if (const std::string refused = platform::set_weighted_interleave(nodes); !refused.empty()) {
    throw UsageError("--weighted-interleave: " + refused);
  }
  WeightsRestorer restorer(*before, options.keep_weights);
  if (!change.differ.empty()) {
    const bool turns_off_auto = before->automatic.value_or(false);
    std::fprintf(
        stderr,
        "larm run: writing the kernel's weights, system-wide (every process under weighted "
        "interleave uses them): %s%s; %s\n",
        change.differ.c_str(),
        turns_off_auto ? "; this turns the kernel's automatic weights off" : "",
        options.keep_weights ? "kept after the program (--keep-weights)"
                             : "put back when the program ends");
    restorer.arm();  // from here on, whatever ends larm run puts them back, a refused write too
    if (const std::string refused = platform::write_weights(weights); !refused.empty()) {
      throw UsageError("--set-weights: " + refused);
    }
  }
  const ProgramRun run = run_program(options.command, {});
  if (const int signal = interrupting_signal(run); signal != 0) {
    std::fprintf(stderr, "larm run: interrupted (%s)\n", signal_name(signal).c_str());
    return 128 + signal;
  }
  if (!(WIFEXITED(run.status) && WEXITSTATUS(run.status) == 0)) {
    std::fprintf(stderr, "larm run: the program %s\n", exit_text(run.status).c_str());
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
                    "instead of refusing; they are put back when the program ends");
  command->add_flag(
      "--keep-weights", options->keep_weights,
      "with --set-weights: leave the written weights in the kernel after the program");
  command->add_option("command", options->command, "the program and its arguments, after --");
  command->positionals_at_end();
  command->callback([options, &global, &action] {
    action = [options, &global] { return run_run(*options, global); };
  });
}

}  // namespace larm::cli
