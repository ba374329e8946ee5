// CSV exports of the result records: roofs.csv, sweep.csv, latency.csv, validation.csv (columns
// in SCHEMA.md), and the reading of one CSV line back into fields.
#pragma once

#include <optional>
#include <string>
#include <vector>

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

// Splits one CSV line into fields, each trimmed of surrounding white space (double-quoted fields
// may hold commas and "" quotes, as csv_field writes them).
std::vector<std::string> split_csv_line(const std::string& line);

}  // namespace larm::results
