// Page placement queries through move_pages (libnuma's numaif.h).
#include "platform/page_nodes.h"

#include <numaif.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

namespace larm::platform {

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
  if (::move_pages(0, queried, addresses.data(), nullptr, status.data(), 0) != 0) {
    throw std::runtime_error(std::string("move_pages cannot query page placement: ") +
                             std::strerror(errno));
  }
  for (int node : status) ++per_node[node];
  return per_node;
}

}  // namespace larm::platform
