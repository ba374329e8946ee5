// The domain × memory view of a results set.
#include "report/text/matrix_table.h"

#include <algorithm>
#include <cstdio>
#include <initializer_list>
#include <map>
#include <set>
#include <sstream>

#include "results/number_text.h"
#include "results/statistics.h"

namespace larm::text {
namespace {

std::string matrix_cell(double value, bool present) {
  if (!present) return "-";
  return results::table_value_text(value);
}

}  // namespace

std::string matrix_table(const results::Results& results) {
  std::ostringstream out;
  // Memories in the topology's order, labelled "P#kind".
  std::vector<std::string> memories;
  std::map<std::string, std::string> kinds;
  for (const results::MemoryRecord& m : results.topology.memories) {
    const std::string os = std::to_string(m.os_index);
    memories.push_back(os);
    kinds[os] = m.kind;
  }
  // A memory the roofs name that the topology does not list (a file assembled from several).
  for (const results::Roof& r : results.roofs) {
    if (!r.memory) continue;
    const std::string os = r.memory->text();
    if (std::find(memories.begin(), memories.end(), os) == memories.end()) {
      memories.push_back(os);
      kinds[os] = r.memory_kind;
    }
  }
  std::set<int> domains;
  for (const results::Roof& r : results.roofs) domains.insert(r.domain);

  auto table = [&](const std::string& title, auto value_of) {
    bool any = false;
    for (int d : domains) {
      for (const std::string& m : memories) any = any || !value_of(d, m).empty();
    }
    if (!any) {
      out << title.substr(0, title.find(" (")) << ": none measured\n";
      return;
    }
    // Columns as wide as their widest text, as many a block as fit in kWidth columns: a node
    // with many memories gets several blocks, each with the domains' column.
    std::size_t cell = 8;
    for (const std::string& m : memories) {
      cell = std::max(cell, (m + " " + kinds[m]).size() + 2);
      for (int d : domains) cell = std::max(cell, value_of(d, m).size() + 2);
    }
    constexpr std::size_t kWidth = 80, kLabel = 8;
    const std::size_t per_block = std::max<std::size_t>(1, (kWidth - 2 - kLabel) / cell);
    out << title << "\n";
    for (std::size_t first = 0; first < memories.size(); first += per_block) {
      const std::size_t last = std::min(memories.size(), first + per_block);
      out << "  " << results::right_aligned(first == 0 ? "dom\\mem" : "", kLabel);
      for (std::size_t k = first; k < last; ++k) {
        out << results::right_aligned(memories[k] + " " + kinds[memories[k]], cell);
      }
      out << "\n";
      for (int d : domains) {
        out << "  " << results::right_aligned(std::to_string(d), kLabel);
        for (std::size_t k = first; k < last; ++k)
          out << results::right_aligned(value_of(d, memories[k]), cell);
        out << "\n";
      }
    }
  };

  // A memory roof of domain d on memory m with this access and one of these placements.
  const auto memory_roof =
      [&](int d, const std::string& m, Access access,
          std::initializer_list<Placement> placements) -> const results::Roof* {
    for (const results::Roof& r : results.roofs) {
      if (r.domain == d && r.level == Level::memory && memory_text(r.memory) == m &&
          r.access == access && r.placement &&
          std::find(placements.begin(), placements.end(), *r.placement) != placements.end()) {
        return &r;
      }
    }
    return nullptr;
  };
  for (Access access : all<Access>()) {
    table(
        std::string("Bandwidth, ") + name(access) + " (GB/s, " +
            std::string(name(results::roof_estimator(results))) + "; all cores of the domain)",
        [&](int d, const std::string& m) {
          const results::Roof* r = memory_roof(d, m, access, {Placement::local, Placement::remote});
          if (r == nullptr) return std::string("");
          // "*" marks an unstable value in every table of larm's: local is bracketed.
          const std::string cell = matrix_cell(r->roof, r->present());
          return r->placement == Placement::local ? "[" + cell + "]" : cell;
        });
    table(std::string("Contention, ") + name(access) +
              " (GB/s per domain, every core of the machine on the memory)",
          [&](int d, const std::string& m) {
            const results::Roof* r = memory_roof(d, m, access, {Placement::contention});
            return r == nullptr ? std::string("") : matrix_cell(r->roof, r->present());
          });
  }
  table("Latency (ns, median; one core)", [&](int d, const std::string& m) {
    for (const results::LatencyPoint& p : results.latency) {
      if (p.domain == d && p.level == Level::memory && !p.base_pages &&
          memory_text(p.memory) == m) {
        return matrix_cell(p.stats.median, p.stats.count > 0);
      }
    }
    return std::string("");
  });
  out << "  ([value]: the domain's local memory)\n";

  if (const auto& distances = results.topology.distances) {
    out << "hwloc distances (" << distances->kind << ")\n  " << results::right_aligned("", 8);
    for (const std::string& m : memories) out << results::right_aligned(m, 6);
    out << "\n";
    std::size_t i = 0;
    for (const auto& row : distances->values) {
      out << "  " << results::right_aligned(i < memories.size() ? memories[i] : "?", 8);
      for (std::uint64_t v : row) out << results::right_aligned(std::to_string(v), 6);
      out << "\n";
      ++i;
    }
  } else {
    out << "hwloc distances: none given\n";
  }
  return out.str();
}

}  // namespace larm::text
