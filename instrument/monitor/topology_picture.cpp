#include "instrument/monitor/topology_picture.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <memory>
#include <set>
#include <stdexcept>

#include "results/atomic_file.h"
#include "results/number_text.h"

namespace larm::monitor {

std::string heat_colour(double share) {
  share = std::isfinite(share) ? std::clamp(share, 0.0, 1.0) : 0.0;
  // Green (0x00c000) to yellow (0xffd000) over the first half, yellow to red (0xe00000) after.
  const auto mix = [](double a, double b, double t) {
    return static_cast<int>(std::lround(a + (b - a) * t));
  };
  int red, green;
  if (share < 0.5) {
    red = mix(0x00, 0xff, share * 2);
    green = mix(0xc0, 0xd0, share * 2);
  } else {
    red = mix(0xff, 0xe0, share * 2 - 1);
    green = mix(0xd0, 0x00, share * 2 - 1);
  }
  char text[8];
  std::snprintf(text, sizeof text, "#%02x%02x00", red, green);
  return text;
}

void write_pictured_topology(hwloc_topology_t topology, const std::vector<PictureLayer>& layers,
                             const std::filesystem::path& xml) {
  hwloc_topology_t copy = nullptr;
  if (hwloc_topology_dup(&copy, topology) != 0)
    throw std::runtime_error("hwloc_topology_dup failed");
  const std::unique_ptr<hwloc_topology, void (*)(hwloc_topology_t)> owned(copy,
                                                                          hwloc_topology_destroy);
  std::set<hwloc_obj_type_t> coloured;
  for (const PictureLayer& layer : layers) {
    double highest = 0;
    for (double v : layer.values) {
      if (std::isfinite(v)) highest = std::max(highest, v);
    }
    const bool colour = coloured.insert(layer.type).second;
    for (std::size_t i = 0; i < layer.values.size() && i < layer.logical_indexes.size(); ++i) {
      hwloc_obj_t object = hwloc_get_obj_by_type(copy, layer.type, layer.logical_indexes[i]);
      if (object == nullptr) continue;
      const double value = layer.values[i];
      hwloc_obj_add_info(object, ("larm " + layer.monitor + " " + layer.value_name).c_str(),
                         results::format_number("%.6g", value).c_str());
      if (colour) {
        const double share = highest > 0 ? value / highest : 0;
        hwloc_obj_add_info(object, "lstopoStyle", ("Background=" + heat_colour(share)).c_str());
      }
    }
  }
  char* buffer = nullptr;
  int length = 0;
  if (hwloc_topology_export_xmlbuffer(copy, &buffer, &length, 0) != 0 || buffer == nullptr) {
    throw std::runtime_error("hwloc could not export the topology as XML");
  }
  // hwloc counts the final NUL in length.
  const std::string text(buffer, length > 0 ? static_cast<std::size_t>(length - 1) : 0);
  hwloc_free_xmlbuffer(copy, buffer);
  results::write_file_atomically(xml, text);
}

}  // namespace larm::monitor
