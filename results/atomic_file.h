// Writes a file so that readers see either the old content or the whole new one, never a part.
#pragma once

#include <filesystem>
#include <string_view>

namespace larm::results {

// When a write reaches the disk: before it returns (each file flushed, then its directory), or
// later, at one sync_file_system of many files (larm fleet's gather writes a thousand nodes'
// files: one flush for all instead of two per file).
enum class Flush { now, later };

// Writes content to a temporary file beside path, flushes it to disk (Flush::now) and renames it
// over path. Throws std::runtime_error naming the path and the reason on failure.
void write_file_atomically(const std::filesystem::path& path, std::string_view content,
                           Flush flush = Flush::now);

// As write_file_atomically, unless path already holds exactly this content (a node's results
// that rank 0 of larm fleet receives and finds already there, on a shared file system): then
// nothing is written and it returns false.
bool write_file_if_changed(const std::filesystem::path& path, std::string_view content,
                           Flush flush = Flush::now);

// Flushes every write of the file system that holds dir (syncfs).
void sync_file_system(const std::filesystem::path& dir);

// Checks, before any work, that write_file_atomically(path) can succeed: path is no directory and
// its directory exists and is writable. Throws std::runtime_error naming path and the reason.
void ensure_writable_file(const std::filesystem::path& path);

// Creates dir (and parents) and checks a file can be written there; throws with the reason if not.
void ensure_writable_directory(const std::filesystem::path& dir);

}  // namespace larm::results
