// The affinity matrix CSV of `larm advise --affinity`: bytes exchanged between each pair of
// threads, the communication TreeMatch maps (roofline/treematch.h).
#pragma once

#include <filesystem>
#include <vector>

namespace larm::results {

using AffinityMatrix = std::vector<std::vector<double>>;

// A CSV matrix (threads × threads, bytes; optional header row and column of names are not
// accepted: numbers only, comma-separated). Read strictly (input_file.h); throws
// std::runtime_error naming the file, row and column of the first problem.
AffinityMatrix read_affinity_csv(const std::filesystem::path& file);

}  // namespace larm::results
