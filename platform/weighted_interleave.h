// Linux's weighted interleave (MPOL_WEIGHTED_INTERLEAVE, Linux 6.9): pages placed over a set of
// nodes in rounds of each node's weight, the weights system-wide in sysfs.
#pragma once

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

// Sets the calling thread's policy to weighted interleave over `nodes` with the weights sysfs
// holds (the thread's children inherit it, and exec keeps it); "" or why the kernel refused.
std::string set_weighted_interleave(const std::vector<unsigned>& nodes);

}  // namespace larm::platform
