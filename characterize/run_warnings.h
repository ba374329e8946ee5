// The run's own warnings, from its records once the passes are done: clocks that disagree,
// interfered samples, large buffers huge pages did not back; and the count of misplaced
// measurements --require-placement stops at.
#pragma once

#include "results/records.h"

namespace larm::characterize {

// How far apart the add and imul clocks may be before the run warns.
inline constexpr double kClockDisagreement = 0.05;

// A warning when a domain's add and imul clocks differ past kClockDisagreement.
void warn_if_chains_disagree(const results::FrequencyRecord& record, results::Results& results);

// The records whose pages were not where they should be.
int count_misplaced(const results::Results& results);

// One warning for the run: how many samples were interfered with, re-taken or kept.
void summarize_interference(results::Results& results);

// One warning for the run: measurements whose large buffers huge pages did not back enough.
void summarize_huge_pages(results::Results& results);

}  // namespace larm::characterize
