// Page placement queries through move_pages (libnuma's numaif.h).
#include "platform/page_nodes.h"

#include <numaif.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace larm::platform {

namespace {

std::optional<int> probe_only_node_without_numa_calls() {
  // get_mempolicy of the calling thread: any kernel with NUMA policy answers it.
  int mode = 0;
  if (::get_mempolicy(&mode, nullptr, 0, nullptr, 0) == 0 || errno != ENOSYS) return std::nullopt;
  std::ifstream online("/sys/devices/system/node/online");
  std::string nodes;
  if (!std::getline(online, nodes)) return 0;  // no node directory: one memory, node 0
  if (nodes.empty() || nodes.find_first_of(",-") != std::string::npos) return std::nullopt;
  try {
    return std::stoi(nodes);
  } catch (const std::exception&) {
    return std::nullopt;
  }
}

}  // namespace

std::optional<int> only_node_without_numa_calls() {
  // What the kernel answers does not change while the process runs: asked once, not on every
  // page query and binding.
  static const std::optional<int> only = probe_only_node_without_numa_calls();
  return only;
}

std::map<int, std::size_t> query_page_nodes(const void* data, std::size_t bytes,
                                            std::size_t max_pages) {
  std::map<int, std::size_t> per_node;
  const auto page = static_cast<std::uintptr_t>(::sysconf(_SC_PAGESIZE));
  const auto first = reinterpret_cast<std::uintptr_t>(data) / page;
  const auto last = (reinterpret_cast<std::uintptr_t>(data) + bytes + page - 1) / page;
  const std::size_t pages = bytes == 0 ? 0 : last - first;
  if (pages == 0 || max_pages == 0) return per_node;
  const std::size_t queried = std::min(pages, max_pages);
  std::vector<void*> addresses(queried);
  for (std::size_t i = 0; i < queried; ++i) {
    addresses[i] = reinterpret_cast<void*>((first + i * pages / queried) * page);
  }
  std::vector<int> status(queried, -1);
  if (const auto only = only_node_without_numa_calls()) {
    per_node[*only] = queried;
    return per_node;
  }
  if (::move_pages(0, queried, addresses.data(), nullptr, status.data(), 0) != 0) {
    throw std::runtime_error(std::string("move_pages cannot query page placement: ") +
                             std::strerror(errno));
  }
  for (int node : status) ++per_node[node];
  return per_node;
}

PageLayout query_page_layout(const void* data, std::size_t bytes, std::size_t max_pages) {
  PageLayout layout;
  const auto page = static_cast<std::uintptr_t>(::sysconf(_SC_PAGESIZE));
  const auto first = reinterpret_cast<std::uintptr_t>(data) / page;
  const auto last = (reinterpret_cast<std::uintptr_t>(data) + bytes + page - 1) / page;
  const std::size_t pages = bytes == 0 ? 0 : last - first;
  if (pages == 0 || max_pages < 2) return layout;
  const bool every_page = pages <= max_pages;
  std::vector<void*> addresses;
  if (every_page) {
    for (std::size_t i = 0; i < pages; ++i)
      addresses.push_back(reinterpret_cast<void*>((first + i) * page));
  } else {
    const std::size_t pairs = max_pages / 2;
    const std::size_t stretch = pages / pairs;  // >= 2: pages > max_pages
    for (std::size_t j = 0; j < pairs; ++j) {
      // A multiplicative hash of j picks the pair's place in its stretch.
      const std::size_t offset = (j * 2654435761u) % (stretch - 1);
      const std::uintptr_t at = first + j * stretch + offset;
      addresses.push_back(reinterpret_cast<void*>(at * page));
      addresses.push_back(reinterpret_cast<void*>((at + 1) * page));
    }
  }
  std::vector<int> status(addresses.size(), -1);
  if (const auto only = only_node_without_numa_calls()) {
    std::fill(status.begin(), status.end(), *only);
  } else if (::move_pages(0, addresses.size(), addresses.data(), nullptr, status.data(), 0) != 0) {
    throw std::runtime_error(std::string("move_pages cannot query page placement: ") +
                             std::strerror(errno));
  }
  for (int node : status) ++layout.per_node[node];
  const std::size_t step = every_page ? 1 : 2;
  for (std::size_t i = 0; i + 1 < status.size(); i += step) {
    if (status[i] < 0 || status[i + 1] < 0) continue;
    ++layout.neighbours_compared;
    if (status[i] != status[i + 1]) ++layout.neighbours_apart;
  }
  return layout;
}

}  // namespace larm::platform
