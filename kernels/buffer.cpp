// Nodeset-bound buffers and page placement queries.
#include "kernels/buffer.h"

#include <numaif.h>
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <stdexcept>
#include <string>

namespace larm::kernels {
namespace {

// Buffers from this size ask for transparent huge pages, so the TLB does not cut the
// bandwidth or add page walks to the memory latency (recorded in the provenance).
constexpr std::size_t kHugePageThreshold = 4u << 20;

}  // namespace

NodeBuffer::NodeBuffer(hwloc_topology_t topology, std::size_t bytes,
                       const std::vector<unsigned>& nodes, BindPolicy policy)
    : topology_(topology), bytes_(bytes) {
  hwloc_bitmap_t nodeset = hwloc_bitmap_alloc();
  for (unsigned node : nodes) hwloc_bitmap_set(nodeset, node);
  const hwloc_membind_policy_t hwloc_policy =
      policy == BindPolicy::interleave ? HWLOC_MEMBIND_INTERLEAVE : HWLOC_MEMBIND_BIND;
  data_ = hwloc_alloc_membind(topology, bytes, nodeset, hwloc_policy,
                              HWLOC_MEMBIND_BYNODESET | HWLOC_MEMBIND_STRICT);
  const int error = errno;
  hwloc_bitmap_free(nodeset);
  if (data_ == nullptr) {
    std::string list;
    for (unsigned node : nodes) list += (list.empty() ? "" : ",") + std::to_string(node);
    throw std::runtime_error("cannot allocate " + std::to_string(bytes) + " bytes bound to memory " +
                             list + ": " + std::strerror(error));
  }
  if (bytes >= kHugePageThreshold) ::madvise(data_, bytes, MADV_HUGEPAGE);
}

NodeBuffer::~NodeBuffer() { release(); }

NodeBuffer::NodeBuffer(NodeBuffer&& other) noexcept
    : topology_(other.topology_), data_(other.data_), bytes_(other.bytes_) {
  other.data_ = nullptr;
  other.bytes_ = 0;
}

NodeBuffer& NodeBuffer::operator=(NodeBuffer&& other) noexcept {
  if (this != &other) {
    release();
    topology_ = other.topology_;
    data_ = other.data_;
    bytes_ = other.bytes_;
    other.data_ = nullptr;
    other.bytes_ = 0;
  }
  return *this;
}

void NodeBuffer::release() {
  if (data_ != nullptr) hwloc_free(topology_, data_, bytes_);
  data_ = nullptr;
}

PlacementCount count_placement(const void* data, std::size_t bytes,
                               const std::vector<unsigned>& intended_nodes,
                               std::size_t max_pages) {
  PlacementCount count;
  const auto page = static_cast<std::size_t>(::sysconf(_SC_PAGESIZE));
  const std::size_t pages = (bytes + page - 1) / page;
  if (pages == 0) return count;
  const std::size_t queried = std::min(pages, max_pages);
  std::vector<void*> addresses(queried);
  for (std::size_t i = 0; i < queried; ++i) {
    const std::size_t index = i * pages / queried;
    addresses[i] = const_cast<char*>(static_cast<const char*>(data) + index * page);
  }
  std::vector<int> status(queried, -1);
  if (::move_pages(0, queried, addresses.data(), nullptr, status.data(), 0) != 0) {
    throw std::runtime_error(std::string("move_pages cannot query page placement: ") +
                             std::strerror(errno));
  }
  count.queried = queried;
  for (int node : status) {
    if (node >= 0 && std::find(intended_nodes.begin(), intended_nodes.end(),
                               static_cast<unsigned>(node)) != intended_nodes.end()) {
      ++count.on_intended;
    }
  }
  return count;
}

}  // namespace larm::kernels
