// Writes a file so that readers see either the old content or the whole new one, never a part.
#pragma once

#include <filesystem>
#include <string_view>

namespace larm::results {

// Writes content to a temporary file beside path, flushes it to disk and renames it over path.
// Throws std::runtime_error naming the path and the reason on failure.
void write_file_atomically(const std::filesystem::path& path, std::string_view content);

// Creates dir (and parents) and checks a file can be written there; throws with the reason if not.
void ensure_writable_directory(const std::filesystem::path& dir);

}  // namespace larm::results
