// The settings that silently change results (METHOD §6), read for the provenance and warnings.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "platform/cpu_info.h"

namespace larm::platform {

struct EnvironmentReport {
  nlohmann::json values = nlohmann::json::object();
  std::vector<std::string> warnings;
};

// Reads /proc and /sys; a file that does not exist reads as "unavailable", never a guess.
EnvironmentReport read_environment(const CpuInfo& cpu);

// The first line of a file, or "unavailable".
std::string read_first_line(const std::string& path);

// This machine's host name, as regions files and results name it; "unknown" when it has none.
std::string host_name();

// A hypervisor's CPUID signature as a reader knows it: "KVMKVMKVM" -> "KVM"; unknown ones as
// they are, trailing blanks removed.
std::string hypervisor_name(const std::string& vendor);

}  // namespace larm::platform
