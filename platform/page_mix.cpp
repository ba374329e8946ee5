// Page-mixed buffers over a fast and a slow memory.
#include "platform/page_mix.h"

#include <sys/mman.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <stdexcept>
#include <string>

#include "platform/buffer.h"
#include "platform/page_nodes.h"

namespace larm::platform {
namespace {

constexpr std::size_t kPageBytes = 4096;

}  // namespace

PageMix plan_page_mix(std::size_t pages, double ratio_fast) {
  PageMix mix;
  mix.pages = pages;
  mix.fast_pages = static_cast<std::size_t>(std::llround(ratio_fast * static_cast<double>(pages)));
  mix.fast_pages = std::min(mix.fast_pages, pages);
  const std::size_t slow_pages = pages - mix.fast_pages;
  mix.interleaved_pages = 2 * std::min(mix.fast_pages, slow_pages);
  mix.rest_on_fast = mix.fast_pages > slow_pages;
  return mix;
}

PageMixBuffer::PageMixBuffer(hwloc_topology_t topology, std::size_t bytes, unsigned fast_node,
                             unsigned slow_node, double ratio_fast)
    : fast_(fast_node), slow_(slow_node) {
  if (fast_node == slow_node) {
    throw std::runtime_error("the fast and the slow memory are the same (memory " +
                             std::to_string(fast_node) + ")");
  }
  bytes_ = (bytes + kPageBytes - 1) / kPageBytes * kPageBytes;
  void* raw = ::mmap(nullptr, bytes_, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (raw == MAP_FAILED) {
    throw std::runtime_error("cannot map " + std::to_string(bytes_) +
                             " bytes: " + std::strerror(errno));
  }
  data_ = raw;
  ::madvise(data_, bytes_, MADV_NOHUGEPAGE);
  mix_ = plan_page_mix(bytes_ / kPageBytes, ratio_fast);
  try {
    auto* base = static_cast<char*>(data_);
    const std::size_t interleaved = mix_.interleaved_pages * kPageBytes;
    bind_area(topology, base, interleaved, {fast_node, slow_node}, BindPolicy::interleave);
    bind_area(topology, base + interleaved, bytes_ - interleaved,
              {mix_.rest_on_fast ? fast_node : slow_node}, BindPolicy::bind);
  } catch (...) {
    release();
    throw;
  }
}

PageMixBuffer::~PageMixBuffer() {
  release();
}

PageMixBuffer::PageMixBuffer(PageMixBuffer&& other) noexcept
    : data_(other.data_),
      bytes_(other.bytes_),
      fast_(other.fast_),
      slow_(other.slow_),
      mix_(other.mix_) {
  other.data_ = nullptr;
  other.bytes_ = 0;
}

PageMixBuffer& PageMixBuffer::operator=(PageMixBuffer&& other) noexcept {
  if (this != &other) {
    release();
    data_ = other.data_;
    bytes_ = other.bytes_;
    fast_ = other.fast_;
    slow_ = other.slow_;
    mix_ = other.mix_;
    other.data_ = nullptr;
    other.bytes_ = 0;
  }
  return *this;
}

void PageMixBuffer::release() {
  if (data_ != nullptr) ::munmap(data_, bytes_);
  data_ = nullptr;
}

PageMixCheck PageMixBuffer::check() const {
  PageMixCheck result;
  if (mix_.pages == 0) return result;
  const std::size_t interleaved = mix_.interleaved_pages * kPageBytes;
  const auto* base = static_cast<const char*>(data_);
  const auto count = [](const std::map<int, std::size_t>& per_node, unsigned node) {
    const auto it = per_node.find(static_cast<int>(node));
    return it == per_node.end() ? std::size_t{0} : it->second;
  };
  const auto head = platform::query_page_nodes(base, interleaved, mix_.interleaved_pages);
  const std::size_t rest_pages = mix_.pages - mix_.interleaved_pages;
  const auto tail =
      platform::query_page_nodes(base + interleaved, bytes_ - interleaved, rest_pages);
  const unsigned rest_node = mix_.rest_on_fast ? fast_ : slow_;
  const std::size_t placed = count(head, fast_) + count(head, slow_) + count(tail, rest_node);
  const std::size_t on_fast = count(head, fast_) + count(tail, fast_);
  const auto pages = static_cast<double>(mix_.pages);
  result.placed_fraction = static_cast<double>(placed) / pages;
  result.fast_fraction = static_cast<double>(on_fast) / pages;
  return result;
}

}  // namespace larm::platform
