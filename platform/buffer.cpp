// Nodeset-bound buffers and page placement queries.
#include "platform/buffer.h"

#include "platform/page_nodes.h"

#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>

namespace larm::platform {
namespace {

constexpr std::size_t kHugePageBytes = 2u << 20;

}  // namespace

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
  if (status != 0) {
    std::string list;
    for (unsigned node : nodes) list += (list.empty() ? "" : ",") + std::to_string(node);
    throw std::runtime_error("cannot bind " + std::to_string(bytes) + " bytes to memory " + list +
                             ": " + std::strerror(error));
  }
}

NodeBuffer::NodeBuffer(hwloc_topology_t topology, std::size_t bytes,
                       const std::vector<unsigned>& nodes, BindPolicy policy)
    : bytes_(bytes) {
  // Buffers of a huge page or more start on a huge-page boundary so that transparent huge
  // pages can back them whole (the TLB then neither cuts bandwidth nor adds page walks to
  // latency); the mapping is over-sized, then trimmed to the aligned part.
  const std::size_t alignment = bytes >= kHugePageBytes ? kHugePageBytes : 4096;
  const std::size_t mapped = bytes + alignment;
  void* raw = ::mmap(nullptr, mapped, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (raw == MAP_FAILED) {
    throw std::runtime_error("cannot map " + std::to_string(bytes) +
                             " bytes: " + std::strerror(errno));
  }
  const auto start = reinterpret_cast<std::uintptr_t>(raw);
  const std::uintptr_t aligned = (start + alignment - 1) / alignment * alignment;
  const std::size_t head = aligned - start;
  if (head > 0) ::munmap(raw, head);
  const std::size_t page = 4096;
  const std::size_t kept = (bytes + page - 1) / page * page;
  if (const std::size_t rest = mapped - head - kept; rest > 0) {
    ::munmap(reinterpret_cast<void*>(aligned + kept), rest);
  }
  data_ = reinterpret_cast<void*>(aligned);
  bytes_ = kept;
  // Interleaving is page by page: huge pages would make it 2 MiB by 2 MiB.
  if (bytes >= kHugePageBytes && policy == BindPolicy::bind) {
    ::madvise(data_, bytes_, MADV_HUGEPAGE);
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
  if (data_ != nullptr) ::munmap(data_, bytes_);
  data_ = nullptr;
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
