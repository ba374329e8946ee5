// CSV exports of the result records: roofs.csv, sweep.csv, latency.csv, validation.csv (columns
// in SCHEMA.md).
#pragma once

#include <optional>
#include <string>

#include "results/records.h"

namespace larm::results {

std::string roofs_csv(const Results& results);
std::string sweep_csv(const Results& results);
std::string latency_csv(const Results& results);
std::string validation_csv(const Results& results);

// A CSV field: the text made printable (results/printable_text.h), quoted when it holds a comma
// or a quote.
std::string csv_field(const std::string& value);

// A number with this many significant digits ("%g"-like, as an ostream writes it); "" for none.
std::string csv_number(const std::optional<double>& value, int significant_digits);

}  // namespace larm::results
