// Weighted interleave: sysfs weights and set_mempolicy.
#include "platform/weighted_interleave.h"

#include <fcntl.h>
#include <numaif.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <vector>

namespace larm::platform {
namespace {

// MPOL_WEIGHTED_INTERLEAVE of linux/mempolicy.h: Debian 12's headers predate it.
constexpr int kMpolWeightedInterleave = 6;

// Writes `text` to a sysfs attribute; "" or why.
std::string write_attribute(const std::string& file, const std::string& text);

}  // namespace

std::string weight_file(unsigned node) {
  return std::string(kWeightedInterleaveDir) + "/node" + std::to_string(node);
}

std::string weighted_interleave_missing() {
  std::error_code error;
  if (!std::filesystem::is_directory(kWeightedInterleaveDir, error)) {
    return std::string("this kernel has no weighted interleave (") + kWeightedInterleaveDir +
           " is missing; Linux 6.9 or later has it)";
  }
  return "";
}

std::optional<int> read_weight(unsigned node, std::string& why) {
  std::ifstream in(weight_file(node));
  if (!in) {
    why = "node " + std::to_string(node) + " has no weight (" + weight_file(node) +
          " cannot be read: " + std::strerror(errno) + ")";
    return std::nullopt;
  }
  long weight = 0;
  if (!(in >> weight) || weight < 1 || weight > UCHAR_MAX) {
    why = weight_file(node) + " holds no weight in [1, 255]";
    return std::nullopt;
  }
  return static_cast<int>(weight);
}

std::string write_weight(unsigned node, int weight) {
  return write_attribute(weight_file(node), std::to_string(weight) + "\n");
}

namespace {

// The automatic-weights flag: `auto`, or `__auto_type` where the kernel was built in C23 mode
// (its `auto` a macro there: Linux 6.16 to 6.18 built by GCC 15); "" when the kernel has none.
std::string automatic_flag_file() {
  for (const char* name : {"auto", "__auto_type"}) {
    const std::string file = std::string(kWeightedInterleaveDir) + "/" + name;
    std::error_code error;
    if (std::filesystem::is_regular_file(file, error)) return file;
  }
  return "";
}

// Writes `text` to a sysfs attribute; "" or why.
std::string write_attribute(const std::string& file, const std::string& text) {
  // O_NOFOLLOW: a sysfs attribute is never a link; one planted there is not followed.
  const int fd = ::open(file.c_str(), O_WRONLY | O_NOFOLLOW | O_CLOEXEC);
  if (fd < 0) return "cannot open " + file + ": " + std::strerror(errno);
  const ssize_t written = ::write(fd, text.data(), text.size());
  const int saved = errno;
  ::close(fd);
  if (written != static_cast<ssize_t>(text.size())) {
    return "the kernel refused '" + text.substr(0, text.size() - 1) + "' in " + file + ": " +
           std::strerror(written < 0 ? saved : EIO);
  }
  return "";
}

}  // namespace

std::optional<WeightSettings> read_weight_settings(const std::vector<unsigned>& nodes,
                                                   std::string& why) {
  WeightSettings settings;
  for (unsigned node : nodes) {
    const std::optional<int> weight = read_weight(node, why);
    if (!weight) return std::nullopt;
    settings.weights[node] = *weight;
  }
  if (const std::string file = automatic_flag_file(); !file.empty()) {
    std::ifstream in(file);
    std::string text;
    if (!(in >> text) || (text != "true" && text != "false")) {
      why = file + " holds neither true nor false";
      return std::nullopt;
    }
    settings.automatic = text == "true";
  }
  return settings;
}

std::string write_weights(const std::map<unsigned, int>& weights) {
  for (const auto& [node, weight] : weights) {
    if (std::string why = write_weight(node, weight); !why.empty()) return why;
  }
  return "";
}

std::string restore_weight_settings(const WeightSettings& before) {
  std::string problems;
  const auto add = [&](const std::string& why) {
    if (!why.empty()) problems += (problems.empty() ? "" : "; ") + why;
  };
  for (const auto& [node, weight] : before.weights) {
    std::string why;
    const std::optional<int> now = read_weight(node, why);
    if (now && *now == weight) continue;
    add(write_weight(node, weight));
  }
  if (before.automatic.value_or(false)) {
    const std::string file = automatic_flag_file();
    std::ifstream in(file);
    std::string text;
    if (!(in >> text) || text != "true") add(write_attribute(file, "true\n"));
  }
  return problems;
}

std::string set_weighted_interleave(const std::vector<unsigned>& nodes) {
  if (nodes.empty()) return "no node to interleave over";
  constexpr unsigned kBits = sizeof(unsigned long) * CHAR_BIT;
  const unsigned largest = *std::max_element(nodes.begin(), nodes.end());
  std::vector<unsigned long> mask(largest / kBits + 1, 0);
  for (unsigned node : nodes) mask[node / kBits] |= 1UL << (node % kBits);
  // The kernel reads maxnode - 1 bits of the mask.
  const unsigned long maxnode = mask.size() * kBits + 1;
  if (set_mempolicy(kMpolWeightedInterleave, mask.data(), maxnode) != 0) {
    const int saved = errno;
    if (saved == EINVAL) {
      return "the kernel refused weighted interleave over these nodes (EINVAL: a kernel before "
             "6.9, or a node without memory)";
    }
    return std::string("set_mempolicy(MPOL_WEIGHTED_INTERLEAVE) failed: ") + std::strerror(saved);
  }
  return "";
}

}  // namespace larm::platform
