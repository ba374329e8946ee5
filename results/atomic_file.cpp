// Atomic file replacement: write a temporary sibling, fsync, rename, fsync the directory.
#include "results/atomic_file.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <stdexcept>
#include <string>

namespace larm::results {
namespace {

[[noreturn]] void fail(const std::filesystem::path& path, const char* what) {
  throw std::runtime_error(std::string("cannot ") + what + " " + path.string() + ": " +
                           std::strerror(errno));
}

void fsync_directory(const std::filesystem::path& dir) {
  const int fd = ::open(dir.empty() ? "." : dir.c_str(), O_RDONLY | O_DIRECTORY);
  if (fd >= 0) {
    ::fsync(fd);
    ::close(fd);
  }
}

}  // namespace

void write_file_atomically(const std::filesystem::path& path, std::string_view content,
                           Flush flush) {
  const std::filesystem::path tmp =
      path.parent_path() / ("." + path.filename().string() + ".tmp." + std::to_string(::getpid()));
  const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) fail(tmp, "create");
  std::size_t written = 0;
  while (written < content.size()) {
    const ssize_t n = ::write(fd, content.data() + written, content.size() - written);
    if (n < 0) {
      if (errno == EINTR) continue;
      ::close(fd);
      ::unlink(tmp.c_str());
      fail(tmp, "write");
    }
    written += static_cast<std::size_t>(n);
  }
  if ((flush == Flush::now && ::fsync(fd) != 0) || ::close(fd) != 0) {
    ::unlink(tmp.c_str());
    fail(tmp, "flush");
  }
  if (::rename(tmp.c_str(), path.c_str()) != 0) {
    ::unlink(tmp.c_str());
    fail(path, "replace");
  }
  if (flush == Flush::now) fsync_directory(path.parent_path());
}

bool write_file_if_changed(const std::filesystem::path& path, std::string_view content,
                           Flush flush) {
  std::error_code ec;
  if (std::filesystem::file_size(path, ec) == content.size() && !ec) {
    std::ifstream in(path, std::ios::binary);
    std::string existing(content.size(), '\0');
    if (in.read(existing.data(), static_cast<std::streamsize>(existing.size())) &&
        existing == content) {
      return false;
    }
  }
  write_file_atomically(path, content, flush);
  return true;
}

void sync_file_system(const std::filesystem::path& dir) {
  const int fd = ::open(dir.empty() ? "." : dir.c_str(), O_RDONLY | O_DIRECTORY);
  if (fd >= 0) {
    ::syncfs(fd);
    ::close(fd);
  }
}

void ensure_writable_directory(const std::filesystem::path& dir) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) throw std::runtime_error("cannot create directory " + dir.string() + ": " + ec.message());
  if (!std::filesystem::is_directory(dir)) {
    throw std::runtime_error("not a directory: " + dir.string());
  }
  if (::access(dir.c_str(), W_OK | X_OK) != 0) fail(dir, "write into");
}

}  // namespace larm::results
