// Nodeset-bound buffers and page placement queries.
#include "platform/buffer.h"

#include "platform/page_nodes.h"

#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <stdexcept>
#include <string>

namespace larm::platform {

void bind_area(hwloc_topology_t topology, void* start, std::size_t bytes,
               const std::vector<unsigned>& nodes, BindPolicy policy) {
  if (bytes == 0) return;
  hwloc_bitmap_t nodeset = hwloc_bitmap_alloc();
  for (unsigned node : nodes) hwloc_bitmap_set(nodeset, node);
  const hwloc_membind_policy_t hwloc_policy =
      policy == BindPolicy::interleave ? HWLOC_MEMBIND_INTERLEAVE : HWLOC_MEMBIND_BIND;
  const int status = hwloc_set_area_membind(topology, start, bytes, nodeset, hwloc_policy,
                                            HWLOC_MEMBIND_BYNODESET | HWLOC_MEMBIND_STRICT);
  const int error = errno;
  hwloc_bitmap_free(nodeset);
  // A kernel without NUMA policy on one memory: every page lands on it unbound.
  if (status != 0 && error == ENOSYS && only_node_without_numa_calls()) return;
  if (status != 0) {
    std::string list;
    for (unsigned node : nodes) list += (list.empty() ? "" : ",") + std::to_string(node);
    throw std::runtime_error("cannot bind " + std::to_string(bytes) + " bytes to memory " + list +
                             ": " + std::strerror(error));
  }
}

NodeBuffer::NodeBuffer(hwloc_topology_t topology, std::size_t bytes,
                       const std::vector<unsigned>& nodes, BindPolicy policy, PageSize pages)
    : bytes_(bytes) {
  // Buffers of a huge page or more start on a huge-page boundary so that transparent huge
  // pages can back them whole (the TLB then neither cuts bandwidth nor adds page walks to
  // latency); the mapping is over-sized, then trimmed to the aligned part.
  // A PROT_NONE guard page on each side keeps the buffer in mappings of its own, so that
  // /proc/self/smaps tells how much of it huge pages back (huge_page_fraction).
  const std::size_t alignment = bytes >= kHugePageBytes ? kHugePageBytes : 4096;
  const std::size_t page = 4096;
  const std::size_t kept = (bytes + page - 1) / page * page;
  const std::size_t mapped = kept + alignment + 2 * page;
  void* raw = ::mmap(nullptr, mapped, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (raw == MAP_FAILED) {
    throw std::runtime_error("cannot map " + std::to_string(bytes) +
                             " bytes: " + std::strerror(errno));
  }
  const auto start = reinterpret_cast<std::uintptr_t>(raw);
  const std::uintptr_t aligned = (start + page + alignment - 1) / alignment * alignment;
  const std::size_t head = aligned - page - start;
  if (head > 0) ::munmap(raw, head);
  if (const std::size_t rest = mapped - head - 2 * page - kept; rest > 0) {
    ::munmap(reinterpret_cast<void*>(aligned + kept + page), rest);
  }
  ::mprotect(reinterpret_cast<void*>(aligned - page), page, PROT_NONE);
  ::mprotect(reinterpret_cast<void*>(aligned + kept), page, PROT_NONE);
  data_ = reinterpret_cast<void*>(aligned);
  bytes_ = kept;
  // Interleaving is page by page: huge pages would make it 2 MiB by 2 MiB.
  if (bytes >= kHugePageBytes && policy == BindPolicy::bind) {
    ::madvise(data_, bytes_, pages == PageSize::huge ? MADV_HUGEPAGE : MADV_NOHUGEPAGE);
  }

  // Bound by nodeset before the first touch: the only binding that works for CPU-less nodes.
  try {
    bind_area(topology, data_, bytes_, nodes, policy);
  } catch (...) {
    release();
    throw;
  }
}

NodeBuffer::~NodeBuffer() {
  release();
}

NodeBuffer::NodeBuffer(NodeBuffer&& other) noexcept : data_(other.data_), bytes_(other.bytes_) {
  other.data_ = nullptr;
  other.bytes_ = 0;
}

NodeBuffer& NodeBuffer::operator=(NodeBuffer&& other) noexcept {
  if (this != &other) {
    release();
    data_ = other.data_;
    bytes_ = other.bytes_;
    other.data_ = nullptr;
    other.bytes_ = 0;
  }
  return *this;
}

void NodeBuffer::release() {
  // With its guard pages.
  if (data_ != nullptr) ::munmap(static_cast<char*>(data_) - 4096, bytes_ + 2 * 4096);
  data_ = nullptr;
}

std::optional<double> huge_page_fraction(
    const std::vector<std::pair<const void*, std::size_t>>& areas) {
  std::ifstream smaps("/proc/self/smaps");
  if (!smaps) return std::nullopt;
  // What huge pages can back: the whole 2 MiB pages of each area (which starts on one).
  std::uintptr_t total = 0;
  for (const auto& [data, bytes] : areas) total += bytes / kHugePageBytes * kHugePageBytes;
  if (total == 0) return std::nullopt;
  auto inside = [&](std::uintptr_t begin, std::uintptr_t end) {
    for (const auto& [data, bytes] : areas) {
      const auto a = reinterpret_cast<std::uintptr_t>(data);
      if (begin >= a && end <= a + bytes) return true;
    }
    return false;
  };
  std::string line;
  bool counting = false;
  bool field_seen = false;
  std::uintptr_t huge = 0;
  while (std::getline(smaps, line)) {
    unsigned long begin = 0, end = 0;
    // A mapping's header: "begin-end perms offset dev inode [path]".
    if (std::sscanf(line.c_str(), "%lx-%lx ", &begin, &end) == 2 && line.find('-') < 16) {
      counting = inside(begin, end);
      continue;
    }
    unsigned long kib = 0;
    if (std::sscanf(line.c_str(), "AnonHugePages: %lu kB", &kib) == 1) {
      field_seen = true;
      if (counting) huge += kib * 1024;
    }
  }
  if (!field_seen) return std::nullopt;  // a kernel without transparent huge pages
  return std::min(1.0, static_cast<double>(huge) / static_cast<double>(total));
}

double PlacementCount::evenness(const std::vector<unsigned>& intended_nodes) const {
  if (queried == 0 || intended_nodes.empty()) return 0;
  const double fair = 1.0 / static_cast<double>(intended_nodes.size());
  double distance = 0;
  for (unsigned node : intended_nodes) {
    const auto it = per_node.find(static_cast<int>(node));
    const double share =
        it == per_node.end() ? 0 : static_cast<double>(it->second) / static_cast<double>(queried);
    distance += std::abs(share - fair);
  }
  distance += 1 - fraction();  // pages on no intended node
  return 1 - distance / 2;
}

PlacementCount count_placement(const void* data, std::size_t bytes,
                               const std::vector<unsigned>& intended_nodes, std::size_t max_pages) {
  PlacementCount count;
  count.per_node = platform::query_page_nodes(data, bytes, max_pages);
  for (const auto& [node, pages] : count.per_node) {
    count.queried += pages;
    if (node >= 0 && std::find(intended_nodes.begin(), intended_nodes.end(),
                               static_cast<unsigned>(node)) != intended_nodes.end()) {
      count.on_intended += pages;
    }
  }
  return count;
}

}  // namespace larm::platform
