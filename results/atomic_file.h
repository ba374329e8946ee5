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

// As ensure_writable_directory for a directory larm creates inside an output (DIR/plots,
// FLEET/<host>): one that is already there must be a directory, not a symbolic link, so that a
// link planted in an output never sends larm's files elsewhere.
void ensure_output_subdirectory(const std::filesystem::path& dir);
// As ensure_output_subdirectory, creating nothing: dir must be there, a directory, no link. For an
// output a program ran in, checked again before larm writes into it.
void check_output_subdirectory(const std::filesystem::path& dir);

// A new empty file at path, opened for writing: created by this call (O_EXCL), never through a
// link or a FIFO that was already there (O_NOFOLLOW). Returns its descriptor; throws naming path.
int create_new_file(const std::filesystem::path& path);

// A new private temporary file beside target (mkostemp: a name no one can have created before),
// its mode set as write_file_atomically sets it: for a program that writes a file of larm's
// through a descriptor (gnuplot's log, objdump's listing). commit_temporary renames it over
// target; discard_temporary removes it.
struct Temporary {
  int fd = -1;
  std::filesystem::path path;
};
Temporary create_temporary_beside(const std::filesystem::path& target);
void commit_temporary(const Temporary& temporary, const std::filesystem::path& target);
void discard_temporary(const Temporary& temporary) noexcept;

// The file named by path when it is a regular file opened without following a link (lstat-safe):
// its descriptor, or -1 (missing, a link, a FIFO, a device). For files larm reads back from its
// own outputs.
int open_own_output(const std::filesystem::path& path);

}  // namespace larm::results
