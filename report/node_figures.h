// The other figures of a characterization: bandwidth vs working-set size with the cache sizes
// marked, the domain × memory bandwidth heatmap with its numbers, the contention curves with
// their knee, cache and memory scaling with threads, and the model validation (measured points
// against their roofs, errors in the key). A figure whose data is absent is not made: the reason
// goes to `omitted`.
#pragma once

#include <string>
#include <vector>

#include "report/figure.h"
#include "results/records.h"

namespace larm::report {

std::vector<Figure> sweep_figures(const results::Results& results,
                                  std::vector<std::string>& omitted);
// One core's latency vs working-set size, declared and effective cache capacities marked.
std::vector<Figure> latency_sweep_figures(const results::Results& results,
                                          std::vector<std::string>& omitted);
std::vector<Figure> matrix_figures(const results::Results& results, Access access,
                                   std::vector<std::string>& omitted);
std::vector<Figure> contention_figures(const results::Results& results,
                                       std::vector<std::string>& omitted);
// Per domain (thesis figs. 2.11-2.12): each shared cache level's scaling curve and the
// contention curve of the domain's local memory, bandwidth against threads, knees circled.
std::vector<Figure> scaling_figures(const results::Results& results,
                                    std::vector<std::string>& omitted);
std::vector<Figure> validation_figures(const results::Results& results,
                                       std::vector<std::string>& omitted);

}  // namespace larm::report
