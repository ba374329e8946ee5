// A region's verdict in words, from its record (results/placement_records.h): every output that
// tells it — larm place's table, larm profile, larm advise, the report, the interactive roofline's
// tooltips, the figures' captions — phrases it here, so that it reads the same everywhere.
#pragma once

#include <string>
#include <vector>

#include "results/placement_records.h"

namespace larm::text {

// The widest a line of a verdict is, in columns, with the 4 it is indented by under its row.
inline constexpr std::size_t kVerdictColumns = 100;
inline constexpr std::size_t kHeadlineColumns = kVerdictColumns - 4;

// The bound in a word or two, for a table's column: "compute", "L2", "memory local", "latency",
// "unexplained", "above roofs", "not placed".
std::string bound_word(const results::RegionPlacement& p);

// One line of at most kHeadlineColumns: the bound, the region's share of it, the next step;
// "[unstable] " first when its runs do not settle the share.
std::string headline(const results::RegionPlacement& p);

// The evidence, one fact each (a table wraps them at kHeadlineColumns): the roof and its
// estimator and interval, the levels, the runner-up, the FP mix, Little's law, the byte
// convention, the access family, the data, the time, the steps.
std::vector<std::string> details(const results::RegionPlacement& p);

// What makes its numbers not what they seem (undercounted threads, sequential initialization,
// a hybrid roof it has or lacks), one fact each.
std::vector<std::string> warnings(const results::RegionPlacement& p);

// A next step in words: "avx512 with FMA (x6.1 ceiling)".
std::string next_step_text(const results::NextStep& step);

// The time its rates rest on, with its estimator: "0.0412 s (median of 5 clean runs of 5)".
std::string time_text(const results::RegionPlacement& p);

// What a placement file stands against: "Regions on the roofs of each region's access mix and dp
// ceilings of DIR", then a line per roof kind absent on a domain.
std::string place_file_header(const results::PlaceFile& file);
// The what-if the placement is (regions of another host on these roofs, or bytes per level
// modelled with another machine's caches), in a line; "" when none.
std::string what_if_line(const results::PlaceFile& file);

// `larm place`'s table: a row per region (at most kVerdictColumns), its headline under it, its
// warnings, and with `verbose` its details; then what the times are.
std::string placement_table(const std::vector<results::RegionPlacement>& placements, bool verbose);

// text wrapped at spaces to `width` columns, continuation lines indented by `indent`.
std::vector<std::string> wrap(const std::string& text, std::size_t width, std::size_t indent);

}  // namespace larm::text
