// The interactive roofline of report.html: per domain, the roofs and FLOP ceilings the LARM figure
// draws and the regions placed on them, drawn in the browser by uPlot (inlined: the page works
// offline). Hover a roof or a point to read its value and interval, click a key entry to hide
// it, drag to zoom (double-click: back). The static SVG figures stay for print.
//
// uPlot rather than Plotly.js or Vega-Lite: about 50 KB inlined in every report against 3.5 MB
// (Plotly's smallest bundle) or 800 KB (Vega-Lite with Vega), log axes, a key that toggles series
// and drag-zoom built in; MIT-licensed and kept up (github.com/leeoniya/uPlot).
#pragma once

#include <string>

#include "report/plot_set.h"

namespace larm::report {

// The figure's data: every text it shows (a roof's value and interval, a region's verdict) is
// written here, as the report's tables write it, so that page, tables and terminal agree.
nlohmann::json interactive_roofline_data(const PlotInputs& inputs);

// The HTML section: the charts' containers, the data, uPlot and the glue script inlined; a note
// instead when this larm was built without uPlot.
std::string interactive_roofline_html(const PlotInputs& inputs);

}  // namespace larm::report
