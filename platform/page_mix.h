// The page layout of the hybrid model's sweep (METHOD §8, thesis figure 4.10): the share common
// to both memories interleaved page by page, then the rest on the memory that holds more, each
// page placed before its first touch and checked after it.
#pragma once

#include <hwloc.h>

#include <cstddef>

namespace larm::platform {

struct PageMix {
  std::size_t pages = 0;
  std::size_t fast_pages = 0;         // round(ratio_fast × pages)
  std::size_t interleaved_pages = 0;  // 2 × min(fast, slow), from the start of the buffer
  bool rest_on_fast = false;          // the pages after the interleaved ones
  double ratio_fast() const {
    return pages ? static_cast<double>(fast_pages) / static_cast<double>(pages) : 0;
  }
};

PageMix plan_page_mix(std::size_t pages, double ratio_fast);

// Where the pages of a PageMixBuffer really are, from a query of every page.
struct PageMixCheck {
  double placed_fraction = 0;  // pages on a memory the layout allows for them
  double fast_fraction = 0;    // pages on the fast memory
};

// 4 KiB pages (transparent huge pages are refused: they would place 2 MiB at once), bound by
// nodeset (strict): the interleaved part with an interleave policy over both memories (the kernel
// alternates them page by page), the rest with a bind policy. Two policies for the whole buffer,
// not one per page: per-page policies would split the mapping into one kernel area per page and
// run out of vm.max_map_count.
class PageMixBuffer {
 public:
  PageMixBuffer() = default;
  // Throws std::runtime_error naming the memories when the mapping or a binding fails.
  PageMixBuffer(hwloc_topology_t topology, std::size_t bytes, unsigned fast_node,
                unsigned slow_node, double ratio_fast);
  ~PageMixBuffer();
  PageMixBuffer(PageMixBuffer&& other) noexcept;
  PageMixBuffer& operator=(PageMixBuffer&& other) noexcept;
  PageMixBuffer(const PageMixBuffer&) = delete;
  PageMixBuffer& operator=(const PageMixBuffer&) = delete;

  void* data() const { return data_; }
  std::size_t size() const { return bytes_; }
  const PageMix& mix() const { return mix_; }

  // After the first touch. Pages not touched count as misplaced.
  PageMixCheck check() const;

 private:
  void release();
  void* data_ = nullptr;
  std::size_t bytes_ = 0;
  unsigned fast_ = 0, slow_ = 0;
  PageMix mix_;
};

}  // namespace larm::platform
