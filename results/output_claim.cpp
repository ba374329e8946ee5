// Output claims: flock(2) on a lock file that is never removed (removing it would let a third run
// lock a new file while the second still holds the old one).
#include "results/output_claim.h"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <map>
#include <mutex>

#include "results/atomic_file.h"
#include "results/printable_text.h"

namespace larm::results {
namespace {

struct Held {
  int fd = -1;
  int count = 0;
};

std::mutex& claims_mutex() {
  static std::mutex m;
  return m;
}
std::map<std::string, Held>& claims() {
  static std::map<std::string, Held> held;
  return held;
}

std::string read_holder(int fd) {
  char text[256] = {};
  const ssize_t n = ::pread(fd, text, sizeof text - 1, 0);
  std::string holder(text, n > 0 ? static_cast<std::size_t>(n) : 0);
  while (!holder.empty() && (holder.back() == '\n' || holder.back() == '\0')) holder.pop_back();
  // Another user's file: shown as text.
  return holder.empty() ? "another process" : printable(holder);
}

}  // namespace

int try_claim_directory(const std::filesystem::path& dir, const std::string& what,
                        std::string* holder) {
  const std::filesystem::path lock = dir / kClaimFile;
  const int fd = ::open(lock.c_str(), O_RDWR | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0644);
  if (fd < 0) {
    throw std::runtime_error("cannot claim " + dir.string() + " (" + lock.filename().string() +
                             "): " + std::strerror(errno));
  }
  struct stat info {};
  if (::fstat(fd, &info) != 0 || !S_ISREG(info.st_mode)) {
    ::close(fd);
    throw std::runtime_error("cannot claim " + dir.string() + ": " + lock.filename().string() +
                             " is not a regular file");
  }
  if (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
    const int saved = errno;
    if (holder != nullptr) *holder = read_holder(fd);
    ::close(fd);
    if (saved == EWOULDBLOCK) return -1;
    errno = saved;
    throw std::runtime_error("cannot claim " + dir.string() + ": " + std::strerror(errno));
  }
  const std::string text = "process " + std::to_string(::getpid()) + ", " + what + "\n";
  if (::ftruncate(fd, 0) == 0) {
    [[maybe_unused]] const ssize_t n = ::pwrite(fd, text.data(), text.size(), 0);
  }
  return fd;
}

OutputClaim::OutputClaim(const std::filesystem::path& dir, const std::string& what) {
  ensure_writable_directory(dir);
  const std::string key = std::filesystem::canonical(dir).string();
  std::lock_guard guard(claims_mutex());
  auto held = claims().find(key);
  if (held == claims().end()) {
    std::string holder;
    const int fd = try_claim_directory(dir, what, &holder);
    if (fd < 0) {
      throw OutputInUse(dir.string() + " is in use by another larm run (" + holder +
                        "): wait for it to end or choose another output directory");
    }
    held = claims().emplace(key, Held{fd, 0}).first;
  }
  ++held->second.count;
  key_ = key;
}

void OutputClaim::release() noexcept {
  if (key_.empty()) return;
  std::lock_guard guard(claims_mutex());
  const auto it = claims().find(key_);
  if (it != claims().end() && --it->second.count == 0) {
    ::close(it->second.fd);  // unlocks
    claims().erase(it);
  }
  key_.clear();
}

OutputClaim::~OutputClaim() {
  release();
}

OutputClaim::OutputClaim(OutputClaim&& other) noexcept : key_(std::move(other.key_)) {
  other.key_.clear();
}

OutputClaim& OutputClaim::operator=(OutputClaim&& other) noexcept {
  if (this != &other) {
    release();
    key_ = std::move(other.key_);
    other.key_.clear();
  }
  return *this;
}

}  // namespace larm::results
