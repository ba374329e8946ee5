// Which memory holds each page of a range: move_pages with no target, on a sample of pages.
#pragma once

#include <cstddef>
#include <map>
#include <optional>

namespace larm::platform {

// Queries the NUMA node (OS index) of up to max_pages pages spread evenly over [data, data +
// bytes). Returns node -> pages; a page the kernel cannot place counts under -errno (-ENOENT: not
// touched yet, -EFAULT: not mapped). Throws std::runtime_error when the query itself fails.
std::map<int, std::size_t> query_page_nodes(const void* data, std::size_t bytes,
                                            std::size_t max_pages);

// How the pages of a range are laid out: node -> pages as above, and how often two neighbouring
// pages sit on different nodes. Pages interleaved over k nodes switch at nearly every page (a
// share of about 1 - 1/k); pages first-touched by the domains' threads sit in blocks and almost
// never do. Every page is queried when the range has at most max_pages; otherwise max_pages / 2
// pairs of neighbours, each pair at a varying offset within its stretch of the range, so that
// the samples do not alias with an interleave's period.
struct PageLayout {
  std::map<int, std::size_t> per_node;
  std::size_t neighbours_compared = 0;  // pairs of neighbouring pages both placed
  std::size_t neighbours_apart = 0;     // of those, on different nodes
};
PageLayout query_page_layout(const void* data, std::size_t bytes, std::size_t max_pages);

// A kernel without NUMA memory policy (built without CONFIG_NUMA, or QEMU's user mode, whose
// mbind and move_pages answer ENOSYS) on a machine of one memory: its node's OS index, which holds
// every page by construction. nullopt when the kernel answers those calls or there are several
// memories (then binding and page queries are needed and their failure is an error).
std::optional<int> only_node_without_numa_calls();

}  // namespace larm::platform
