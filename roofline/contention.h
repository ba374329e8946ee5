// What the machine-wide runs say: the knee of each memory's contention curve, and the totals of
// contention and congestion next to what each domain obtained.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "results/records.h"

namespace larm::roofline {

// The thread count after which the total bandwidth grows by less than `growth` (5 %): the
// smallest n whose bandwidth is within that factor of every point with more threads, at least
// one point coming after it (a curve still rising at its last point has no knee within its
// range). Absent points are ignored; nullopt when there is no knee.
std::optional<int> contention_knee(const std::vector<results::CurvePoint>& curve,
                                   double growth = 0.05);
// The same on (threads, GB/s) pairs, in any order: also the knee of a cache scaling curve.
std::optional<int> knee_of(std::vector<std::pair<int, double>> curve, double growth = 0.05);

// Per memory: the curve (threads → GB/s) and its knee; per domain and shared cache level, its
// scaling curve and knee; then the contention and congestion totals.
std::string describe_contention(const results::Results& results);

}  // namespace larm::roofline
