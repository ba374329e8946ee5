// The JSON files larm writes, checked as their readers check them before a byte is written.
#pragma once

#include <filesystem>
#include <string>

#include <nlohmann/json.hpp>

#include "results/atomic_file.h"
#include "results/json_schema.h"

namespace larm::results {

// Throws std::logic_error naming the file when a reader of format would refuse document: a number
// out of range (results/input_file.h: NaN, infinite, beyond 1e18) or a break of the format's
// schema. A value larm computed that its own readers refuse is a fault of larm's, never a file
// written that `larm show` then refuses; the run's journal keeps what was measured.
void check_output_document(const nlohmann::json& document, FileFormat format,
                           const std::filesystem::path& file);

// check_output_document, then write_file_atomically with document dumped at indent.
void write_json_output(const std::filesystem::path& file, const nlohmann::json& document,
                       FileFormat format, int indent, Flush flush = Flush::now);

}  // namespace larm::results
