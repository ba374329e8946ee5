// Linux's weighted interleave (MPOL_WEIGHTED_INTERLEAVE, Linux 6.9): pages placed over a set of
// nodes in rounds of each node's weight, the weights system-wide in sysfs.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace larm::platform {

inline constexpr const char* kWeightedInterleaveDir =
    "/sys/kernel/mm/mempolicy/weighted_interleave";

// The file that holds a node's weight.
std::string weight_file(unsigned node);

// Whether the running kernel has weighted interleave, and "" or why not (one line).
std::string weighted_interleave_missing();

// A node's weight, or nullopt with `why` when its file cannot be read or holds no weight.
std::optional<int> read_weight(unsigned node, std::string& why);

// Sets a node's weight; "" or why it could not (one line: permission, a refused value).
std::string write_weight(unsigned node, int weight);

// What larm may change of the kernel's system-wide weighted-interleave settings: the nodes'
// weights and the automatic-weights flag (Linux 6.16's `auto`: weights the kernel derives from
// the firmware's bandwidths; writing any weight turns it off).
struct WeightSettings {
  std::map<unsigned, int> weights;
  std::optional<bool> automatic;  // none: the kernel has no such flag
};

// The weights of `nodes` and the flag, or nullopt with `why` (one line) when one cannot be read.
std::optional<WeightSettings> read_weight_settings(const std::vector<unsigned>& nodes,
                                                   std::string& why);

// Writes `weights` node by node, stopping at the first the kernel refuses: "" or why (one line).
// The caller puts back what was written (restore_weight_settings of the values read before).
std::string write_weights(const std::map<unsigned, int>& weights);

// Puts `before` back: each weight that differs now, then the flag when it was on. "" or why (one
// line; the kernel refuses to turn automatic weights back on where the firmware gives no
// bandwidths).
std::string restore_weight_settings(const WeightSettings& before);

// Sets the calling thread's policy to weighted interleave over `nodes` with the weights sysfs
// holds (the thread's children inherit it, and exec keeps it); "" or why the kernel refused.
std::string set_weighted_interleave(const std::vector<unsigned>& nodes);

}  // namespace larm::platform
