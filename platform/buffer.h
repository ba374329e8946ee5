// Memory bound by nodeset (the only binding that works for CPU-less nodes), huge-page aligned
// from 2 MiB, and the check of where its pages really are (METHOD §6).
#pragma once

#include <hwloc.h>

#include <cstddef>
#include <map>
#include <optional>
#include <utility>
#include <vector>

namespace larm::platform {

enum class BindPolicy { bind, interleave };
// The pages of a bound buffer of 2 MiB or more: transparent huge pages asked for (madvise), or
// refused, base pages only, as a program's plain allocation gets them where THP is "madvise".
enum class PageSize { huge, base };

// Binds [start, start + bytes) by nodeset, strict, before its first touch (nothing for 0 bytes).
// Throws std::runtime_error naming the memories and the reason.
void bind_area(hwloc_topology_t topology, void* start, std::size_t bytes,
               const std::vector<unsigned>& nodes, BindPolicy policy);

class NodeBuffer {
 public:
  NodeBuffer() = default;
  // Allocates bytes on the memories with these OS indexes (strict). Pages materialize at first
  // touch, which the thread that will use the buffer must do. Throws std::runtime_error.
  NodeBuffer(hwloc_topology_t topology, std::size_t bytes, const std::vector<unsigned>& nodes,
             BindPolicy policy = BindPolicy::bind, PageSize pages = PageSize::huge);
  ~NodeBuffer();
  NodeBuffer(NodeBuffer&& other) noexcept;
  NodeBuffer& operator=(NodeBuffer&& other) noexcept;
  NodeBuffer(const NodeBuffer&) = delete;
  NodeBuffer& operator=(const NodeBuffer&) = delete;

  void* data() const { return data_; }
  std::size_t size() const { return bytes_; }  // rounded up to whole pages

 private:
  void release();
  void* data_ = nullptr;
  std::size_t bytes_ = 0;
};

// The share of these areas' whole 2 MiB pages (NodeBuffers: each in mappings of its own, from a
// huge-page boundary) that transparent huge pages back, from AnonHugePages in /proc/self/smaps;
// nullopt when the kernel does not say or no area holds a whole huge page.
std::optional<double> huge_page_fraction(
    const std::vector<std::pair<const void*, std::size_t>>& areas);
// Below this share a measurement's buffers of 2 MiB or more warn.
inline constexpr double kMinHugePageFraction = 0.90;
inline constexpr std::size_t kHugePageBytes = 2u << 20;

// Pages of [data, data + bytes) on the intended nodes, and pages queried, per node too.
struct PlacementCount {
  std::size_t on_intended = 0;
  std::size_t queried = 0;
  std::map<int, std::size_t> per_node;  // node (-errno when the page has none) -> pages
  double fraction() const {
    return queried ? static_cast<double>(on_intended) / static_cast<double>(queried) : 0;
  }
  // For an interleaved buffer: 1 - the total variation distance between the pages' spread over
  // the intended nodes and an even spread (1 when even; pages elsewhere count as uneven).
  double evenness(const std::vector<unsigned>& intended_nodes) const;
  PlacementCount& operator+=(const PlacementCount& other) {
    on_intended += other.on_intended;
    queried += other.queried;
    for (const auto& [node, pages] : other.per_node) per_node[node] += pages;
    return *this;
  }
};

// Queries the node of up to max_pages pages spread evenly over the range (move_pages with no
// target). Pages not yet touched count as misplaced.
PlacementCount count_placement(const void* data, std::size_t bytes,
                               const std::vector<unsigned>& intended_nodes,
                               std::size_t max_pages = 1024);

// Below this fraction of pages on the intended memories a measurement is marked misplaced.
inline constexpr double kMinPlacedFraction = 0.99;
// Interleaved data below this evenness is misplaced too. Looser than the fraction: the query
// samples at most 1024 pages, and a buffer's size need not be a multiple of the memories.
inline constexpr double kMinInterleaveEvenness = 0.90;

}  // namespace larm::platform
