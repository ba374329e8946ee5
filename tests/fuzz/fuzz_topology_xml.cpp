// libFuzzer target: an hwloc XML topology as `--topology FILE` loads it, then what larm derives
// from it (domains, caches, memories) and describes.
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string_view>

#include "report/text/topology_text.h"
#include "topology/topology.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  try {
    const auto topology = larm::topology::Topology::parse_xml(
        std::string_view(reinterpret_cast<const char*>(data), size), "fuzz.xml");
    (void)topology.to_json();
    (void)larm::text::topology_text(topology.record());
  } catch (const std::runtime_error&) {
  }
  return 0;
}
