// The colours of a node figure's series, in order (the Okabe-Ito palette, blue first): the
// figures of one kind colour their series alike.
#pragma once

#include <cstddef>

namespace larm::report {

const char* series_colour(std::size_t i);

}  // namespace larm::report
