// Which memory holds each page of a range: move_pages with no target, on a sample of pages.
#pragma once

#include <cstddef>
#include <map>

namespace larm::platform {

// Queries the NUMA node (OS index) of up to max_pages pages spread evenly over [data, data +
// bytes). Returns node -> pages; a page the kernel cannot place counts under -errno (-ENOENT: not
// touched yet, -EFAULT: not mapped). Throws std::runtime_error when the query itself fails.
std::map<int, std::size_t> query_page_nodes(const void* data, std::size_t bytes,
                                            std::size_t max_pages);

}  // namespace larm::platform
