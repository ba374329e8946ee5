// The text of a fleet (larm fleet's end, larm show FLEET_DIR): the outliers first with the roofs
// and topology that make them so, the nodes without full results, then the key roofs.
#pragma once

#include <string>

#include "results/fleet_records.h"

namespace larm::text {

std::string describe_fleet(const fleet::Fleet& fleet);

}  // namespace larm::text
