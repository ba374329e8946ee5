// The recorder's data tags: the address runs of each handle, where their pages sit, and the
// regions that use them.
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <map>
#include <utility>
#include <vector>

#include "instrument/messages.h"
#include "instrument/recorder.h"
#include "instrument/recorder_parts.h"
#include "platform/page_nodes.h"

namespace larm::instrument {
namespace recorder_parts {
namespace {

std::uintptr_t page_bytes() {
  static const auto bytes = static_cast<std::uintptr_t>(::sysconf(_SC_PAGESIZE));
  return bytes;
}

// The pages of [first, end) not yet in `runs`, merged into them; returns the new stretches.
std::vector<std::pair<std::uintptr_t, std::uintptr_t>> merge_run(
    std::map<std::uintptr_t, std::uintptr_t>& runs, std::uintptr_t first, std::uintptr_t end) {
  std::vector<std::pair<std::uintptr_t, std::uintptr_t>> added;
  auto it = runs.upper_bound(first);
  if (it != runs.begin() && std::prev(it)->second >= first) --it;
  std::uintptr_t cursor = first, merged_first = first, merged_end = end;
  while (it != runs.end() && it->first <= end) {
    if (it->first > cursor) added.emplace_back(cursor, it->first);
    cursor = std::max(cursor, it->second);
    merged_first = std::min(merged_first, it->first);
    merged_end = std::max(merged_end, it->second);
    it = runs.erase(it);
  }
  if (cursor < end) added.emplace_back(cursor, end);
  runs.emplace(merged_first, merged_end);
  return added;
}

}  // namespace

bool has_untouched_pages(const DataTag& tag) {
  const auto it = tag.pages_by_node.find(-ENOENT);
  return it != tag.pages_by_node.end() && it->second > 0;
}

// Where the pages of a handle's runs sit now: kMaxPagesQueried pages at most over all its runs,
// shared in proportion to their pages (each run at least one).
void query_handle(DataHandle& handle) {
  DataTag& tag = handle.tag;
  tag.pages_by_node.clear();
  tag.neighbours_compared = tag.neighbours_apart = 0;
  // Its extent, kept here rather than at every tag (a handle tagged row by row has many).
  tag.address = handle.runs.empty() ? 0 : handle.runs.begin()->first;
  tag.runs = handle.runs.size();
  tag.bytes = 0;
  for (const auto& [first, end] : handle.runs) tag.bytes += end - first;
  const std::size_t pages = tag.bytes / page_bytes();
  if (pages == 0) return;
  // More runs than pages to query: every k-th run, so that the queries stay bounded.
  const std::size_t stride = std::max<std::size_t>(1, handle.runs.size() / kMaxPagesQueried);
  std::size_t index = 0;
  try {
    for (const auto& [first, end] : handle.runs) {
      if (index++ % stride != 0) continue;
      const std::size_t run_pages = (end - first) / page_bytes();
      const std::size_t budget =
          std::max<std::size_t>(1, run_pages * kMaxPagesQueried * stride / pages);
      const platform::PageLayout layout =
          platform::query_page_layout(reinterpret_cast<const void*>(first), end - first, budget);
      for (const auto& [node, count] : layout.per_node) tag.pages_by_node[node] += count;
      tag.neighbours_compared += layout.neighbours_compared;
      tag.neighbours_apart += layout.neighbours_apart;
    }
  } catch (const std::exception& error) {
    report(MessageKind::placement, error.what());
    tag.pages_by_node.clear();
    tag.neighbours_compared = tag.neighbours_apart = 0;
  }
}

}  // namespace recorder_parts

using namespace recorder_parts;

void Recorder::tag_range(const std::string& name, const void* ptr, std::size_t len) {
  const auto address = reinterpret_cast<std::uintptr_t>(ptr);
  const std::uintptr_t first = address & ~(page_bytes() - 1);
  const std::uintptr_t end = (address + len + page_bytes() - 1) & ~(page_bytes() - 1);
  DataHandle& handle = handles_[name];
  const bool was_pending = !handle.runs.empty() && handle.tag.pending;
  handle.tag.handle = name;
  ++handle.tag.ranges_tagged;
  // The pages tagged for the first time: were they touched already, and where?
  for (const auto& [from, to] : merge_run(handle.runs, first, end)) {
    try {
      const std::size_t pages = (to - from) / page_bytes();
      for (const auto& [node, count] :
           platform::query_page_nodes(reinterpret_cast<const void*>(from), to - from,
                                      std::min<std::size_t>(pages, kMaxPagesQueried))) {
        handle.tag.at_tag_by_node[node] += count;
      }
    } catch (const std::exception& error) {
      report(MessageKind::placement, error.what());
    }
  }
  // Not queried now (a handle tagged row by row would be queried once per row): marked pending,
  // queried at the next end of a region that uses it and at finalize.
  handle.tag.pending = true;
  handle.tag.requeries = 0;
  if (!was_pending) pending_data_.fetch_add(1, std::memory_order_relaxed);
}

int Recorder::data(const char* name, const void* ptr, std::size_t len) {
  return tag_data("larm_region_data", name, ptr, len, true);
}

int Recorder::data_tag(const char* handle, const void* ptr, std::size_t len) {
  return tag_data("larm_data_tag", handle, ptr, len, false);
}

int Recorder::tag_data(const char* api, const char* name, const void* ptr, std::size_t len,
                       bool used_by_region) {
  if (!ensure_active()) return -1;
  const auto checked = checked_name(name, api, true);
  if (!checked) return -1;
  if (ptr == nullptr || len == 0) {
    report(MessageKind::misuse, std::string(api) + "(" + shown_name(*checked) +
                                    "): NULL pointer or zero length: ignored");
    return -1;
  }
  const std::string key(*checked);
  std::lock_guard lock(data_mutex_);
  tag_range(key, ptr, len);
  if (used_by_region) {
    auto& used = uses_[key];
    if (std::find(used.begin(), used.end(), key) == used.end()) used.push_back(key);
  }
  return 0;
}

int Recorder::region_uses(const char* region, const char* handle) {
  if (!ensure_active()) return -1;
  const auto region_name = checked_name(region, "larm_region_uses", true);
  if (!region_name) return -1;
  const auto handle_name = checked_name(handle, "larm_region_uses", true);
  if (!handle_name) return -1;
  std::lock_guard lock(data_mutex_);
  auto& used = uses_[std::string(*region_name)];
  if (std::find(used.begin(), used.end(), *handle_name) == used.end()) {
    used.emplace_back(*handle_name);
  }
  return 0;
}

void Recorder::requery_pending_data(std::string_view name) {
  std::lock_guard lock(data_mutex_);
  const auto found = uses_.find(name);
  if (found == uses_.end()) return;
  for (const std::string& used : found->second) {
    const auto handle = handles_.find(used);
    if (handle == handles_.end() || !handle->second.tag.pending) continue;
    DataTag& tag = handle->second.tag;
    query_handle(handle->second);
    ++tag.requeries;
    if (!has_untouched_pages(tag) || tag.requeries >= kMaxDataRequeries) {
      tag.pending = false;
      pending_data_.fetch_sub(1, std::memory_order_relaxed);
    }
  }
}

}  // namespace larm::instrument
