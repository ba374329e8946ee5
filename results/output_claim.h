// One writer per output directory: a run claims the directory it writes (an flock on
// DIR/.larm-lock, released by the kernel when the process ends however it ends), and a second run
// that wants the same directory is refused before it measures anything.
#pragma once

#include <filesystem>
#include <stdexcept>
#include <string>

namespace larm::results {

// Another process holds the directory: a usage error (exit 2), naming it.
class OutputInUse : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// The lock file's name inside a claimed directory.
inline constexpr const char* kClaimFile = ".larm-lock";

// Holds the claim on a directory while alive. Claims of one directory by one process nest (larm
// characterize drawing its figures claims its --out again); the last release unlocks it.
class OutputClaim {
 public:
  OutputClaim() = default;
  // Creates dir if needed and claims it; throws OutputInUse when another process holds it (the
  // message names that process and what it runs), std::runtime_error when dir cannot be written.
  // what: this run, written into the lock file for the other runs' messages ("larm characterize").
  OutputClaim(const std::filesystem::path& dir, const std::string& what);
  ~OutputClaim();
  OutputClaim(OutputClaim&& other) noexcept;
  OutputClaim& operator=(OutputClaim&& other) noexcept;
  OutputClaim(const OutputClaim&) = delete;
  OutputClaim& operator=(const OutputClaim&) = delete;

 private:
  void release() noexcept;
  std::string key_;  // the directory's canonical path; empty when nothing is held
};

// Tries to claim dir for this process without waiting: the lock's descriptor (kept open for as
// long as the claim holds), or -1 with *holder set to what the lock file says of its holder
// ("process 1234, larm characterize") when another process holds it. For liblarm, which takes
// another file name rather than refusing the application.
int try_claim_directory(const std::filesystem::path& dir, const std::string& what,
                        std::string* holder);

}  // namespace larm::results
