// Ctrl-C (and SIGTERM) during a run: the first asks the measurements to stop between samples,
// keeping what they finished; a second ends the process.
#pragma once

#include <signal.h>

#include <atomic>

namespace larm::platform {

// While alive, the first Ctrl-C sets the stop flag (measurements stop between samples and save
// what they finished) and a second one ends the process at once; the previous SIGINT handler is
// restored on destruction. One at a time.
class InterruptGuard {
 public:
  // also_terminate: SIGTERM too (larm fleet: mpirun and Slurm end ranks with it on Ctrl-C).
  explicit InterruptGuard(bool also_terminate = false);
  ~InterruptGuard();
  InterruptGuard(const InterruptGuard&) = delete;
  InterruptGuard& operator=(const InterruptGuard&) = delete;
  const std::atomic<bool>* stop_flag() const;
  // The signal that set the stop flag (SIGINT, SIGTERM), 0 while none came: a command that stops
  // on it exits 128 + this.
  int signal() const;

 private:
  struct sigaction previous_ {};
  struct sigaction previous_terminate_ {};
  bool also_terminate_ = false;
};

}  // namespace larm::platform
