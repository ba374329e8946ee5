#include "platform/cpuinfo_text.h"

#include <fstream>
#include <sstream>

namespace larm::platform {

std::string read_proc_cpuinfo() {
  std::ostringstream text;
  std::ifstream in("/proc/cpuinfo");
  if (in) text << in.rdbuf();
  return text.str();
}

std::optional<std::string> cpuinfo_value(const std::string& cpuinfo, const std::string& key) {
  std::istringstream in(cpuinfo);
  std::string line;
  while (std::getline(in, line)) {
    const auto colon = line.find(':');
    if (colon == std::string::npos) continue;
    std::string name = line.substr(0, colon);
    while (!name.empty() && (name.back() == ' ' || name.back() == '\t')) name.pop_back();
    if (name != key) continue;
    const auto first = line.find_first_not_of(" \t", colon + 1);
    return first == std::string::npos ? std::string() : line.substr(first);
  }
  return std::nullopt;
}

std::optional<unsigned long long> cpuinfo_number(const std::string& cpuinfo,
                                                 const std::string& key) {
  const auto text = cpuinfo_value(cpuinfo, key);
  if (!text || text->empty()) return std::nullopt;
  try {
    std::size_t used = 0;
    const unsigned long long value = std::stoull(*text, &used, 0);
    if (used != text->size()) return std::nullopt;
    return value;
  } catch (const std::exception&) {
    return std::nullopt;
  }
}

HypervisorSign read_hypervisor_sign() {
  HypervisorSign sign;
  std::ifstream type("/sys/hypervisor/type");
  std::getline(type, sign.type);
  sign.present =
      !sign.type.empty() || std::ifstream("/proc/device-tree/hypervisor/compatible").good();
  return sign;
}

std::string foreign_host_emulation(const std::string& cpuinfo, bool own_field_seen) {
  const auto host = cpuinfo_value(cpuinfo, "vendor_id");
  if (own_field_seen || !host) return "";
  return "user-mode emulation on another architecture's host (/proc/cpuinfo shows " +
         (host->empty() ? std::string("an empty vendor_id") : "a host with vendor_id " + *host) +
         ")";
}

}  // namespace larm::platform
