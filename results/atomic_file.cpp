// Atomic file replacement: write a temporary sibling, fsync, rename, fsync the directory.
#include "results/atomic_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <stdexcept>
#include <string>

namespace larm::results {
namespace {

[[noreturn]] void fail_with_errno(const std::filesystem::path& path, const char* what) {
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

// The process's file mode creation mask, read once without changing it (umask() would, for every
// thread); 022 where /proc does not say. Read once: larm fleet writes thousands of files.
mode_t process_umask() {
  static const mode_t mask = [] {
    std::ifstream status("/proc/self/status");
    std::string line;
    while (std::getline(status, line)) {
      if (line.rfind("Umask:", 0) == 0) {
        return static_cast<mode_t>(std::stoul(line.substr(6), nullptr, 8));
      }
    }
    return static_cast<mode_t>(022);
  }();
  return mask;
}

}  // namespace

void write_file_atomically(const std::filesystem::path& path, std::string_view content,
                           Flush flush) {
  // A name no one can guess or have created beforehand (mkostemp opens with O_EXCL: never through
  // a link planted in a shared directory such as liblarm's /tmp fallback).
  std::string tmp = (path.parent_path() / ("." + path.filename().string() + ".XXXXXX")).string();
  const int fd = ::mkostemp(tmp.data(), O_CLOEXEC);
  if (fd < 0) fail_with_errno(path, "create a temporary file for");
  // Each failure removes the temporary file and names path with the first error's errno.
  auto discard = [&](const char* what) {
    const int saved = errno;
    ::unlink(tmp.c_str());
    errno = saved;
    fail_with_errno(path, what);
  };
  auto give_up = [&](const char* what) {
    const int saved = errno;
    ::close(fd);
    errno = saved;
    discard(what);
  };
  // mkostemp creates the file private (0600); results are for everyone the umask allows.
  if (::fchmod(fd, 0666 & ~process_umask()) != 0) give_up("set the mode of");
  std::size_t written = 0;
  while (written < content.size()) {
    const ssize_t n = ::write(fd, content.data() + written, content.size() - written);
    if (n < 0) {
      if (errno == EINTR) continue;
      give_up("write");
    }
    written += static_cast<std::size_t>(n);
  }
  if (flush == Flush::now && ::fsync(fd) != 0) give_up("flush");
  if (::close(fd) != 0) discard("flush");
  if (::rename(tmp.c_str(), path.c_str()) != 0) discard("replace");
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

void ensure_writable_file(const std::filesystem::path& path) {
  std::error_code ec;
  if (path.empty()) throw std::runtime_error("an output file needs a name");
  if (std::filesystem::is_directory(path, ec)) {
    throw std::runtime_error("cannot write " + path.string() + ": it is a directory");
  }
  const std::filesystem::path dir = path.parent_path().empty() ? "." : path.parent_path();
  if (!std::filesystem::is_directory(dir, ec)) {
    throw std::runtime_error("cannot write " + path.string() + ": no directory " + dir.string());
  }
  if (::access(dir.c_str(), W_OK | X_OK) != 0) fail_with_errno(path, "write");
}

void ensure_writable_directory(const std::filesystem::path& dir) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) throw std::runtime_error("cannot create directory " + dir.string() + ": " + ec.message());
  if (!std::filesystem::is_directory(dir)) {
    throw std::runtime_error("not a directory: " + dir.string());
  }
  if (::access(dir.c_str(), W_OK | X_OK) != 0) fail_with_errno(dir, "write into");
}

void ensure_output_subdirectory(const std::filesystem::path& dir) {
  if (::mkdir(dir.c_str(), 0777) != 0 && errno != EEXIST) fail_with_errno(dir, "create directory");
  check_output_subdirectory(dir);
}

void check_output_subdirectory(const std::filesystem::path& dir) {
  struct stat info {};
  if (::lstat(dir.c_str(), &info) != 0) fail_with_errno(dir, "create directory");
  if (S_ISLNK(info.st_mode)) {
    throw std::runtime_error("refusing to write through " + dir.string() +
                             ": it is a symbolic link (remove it)");
  }
  if (!S_ISDIR(info.st_mode)) throw std::runtime_error("not a directory: " + dir.string());
  if (::access(dir.c_str(), W_OK | X_OK) != 0) fail_with_errno(dir, "write into");
}

int create_new_file(const std::filesystem::path& path) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
                        0666 & ~process_umask());
  if (fd < 0) fail_with_errno(path, "create");
  return fd;
}

Temporary create_temporary_beside(const std::filesystem::path& target) {
  std::string tmp =
      (target.parent_path() / ("." + target.filename().string() + ".XXXXXX")).string();
  const int fd = ::mkostemp(tmp.data(), O_CLOEXEC);
  if (fd < 0) fail_with_errno(target, "create a temporary file for");
  if (::fchmod(fd, 0666 & ~process_umask()) != 0) {
    const int saved = errno;
    ::close(fd);
    ::unlink(tmp.c_str());
    errno = saved;
    fail_with_errno(target, "set the mode of");
  }
  return {fd, tmp};
}

void commit_temporary(const Temporary& temporary, const std::filesystem::path& target) {
  if (temporary.fd >= 0) ::close(temporary.fd);
  if (::rename(temporary.path.c_str(), target.c_str()) != 0) {
    const int saved = errno;
    ::unlink(temporary.path.c_str());
    errno = saved;
    fail_with_errno(target, "replace");
  }
}

void discard_temporary(const Temporary& temporary) noexcept {
  if (temporary.fd >= 0) ::close(temporary.fd);
  ::unlink(temporary.path.c_str());
}

int open_own_output(const std::filesystem::path& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) return -1;
  struct stat info {};
  if (::fstat(fd, &info) != 0 || !S_ISREG(info.st_mode)) {
    ::close(fd);
    return -1;
  }
  return fd;
}

}  // namespace larm::results
