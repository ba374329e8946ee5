// Monitors' values drawn on the topology, as the thesis' fig. 5.8: each object of a monitor's
// level coloured from green (0) to red (the highest value any of them reached), and the value
// itself, as info attributes of an hwloc XML export, which lstopo draws (it reads an object's
// colour from its "lstopoStyle" info, "Background=#rrggbb": lstopo(1), CUSTOM COLORS).
#pragma once

#include <hwloc.h>

#include <filesystem>
#include <string>
#include <vector>

namespace larm::monitor {

struct PictureLayer {
  std::string monitor, value_name;
  hwloc_obj_type_t type = HWLOC_OBJ_PU;
  std::vector<unsigned> logical_indexes;  // of the monitor's objects
  std::vector<double> values;             // one per object
};

// "#rrggbb" from green (share 0) through yellow to red (share 1); shares out of [0, 1] clamped.
std::string heat_colour(double share);

// The topology as hwloc XML with each layer's objects coloured and their values in
// "larm <monitor> <value>" info attributes; a layer drawn on a level another already coloured
// keeps the first colour. Written whole or not at all (a planted link replaced, never followed).
void write_pictured_topology(hwloc_topology_t topology, const std::vector<PictureLayer>& layers,
                             const std::filesystem::path& xml);

}  // namespace larm::monitor
