// The pictured topology of larm monitor drawn by hwloc's lstopo.
#pragma once

#include <filesystem>
#include <string>

namespace larm::application {

// lstopo draws the pictured topology as SVG (lstopo-no-graphics first: it needs no X or cairo),
// into a new file renamed over topology.svg once lstopo succeeded, bounded to 60 s. Returns
// why it could not, or "".
std::string draw_with_lstopo(const std::filesystem::path& xml, const std::filesystem::path& svg);

}  // namespace larm::application
