// The SIGINT/SIGTERM handler behind InterruptGuard: one flag, set with a lock-free atomic.
#include "platform/interrupt_guard.h"

#include <signal.h>

#include <csignal>

namespace larm::platform {

namespace {
// Set by the first Ctrl-C under an InterruptGuard.
std::atomic<bool> g_stop_requested{false};
std::atomic<int> g_first_signal{0};
static_assert(std::atomic<bool>::is_always_lock_free && std::atomic<int>::is_always_lock_free);

extern "C" void on_interrupt(int signal) {
  if (g_stop_requested.load()) {
    std::signal(signal, SIG_DFL);  // a second Ctrl-C ends the process at once
    std::raise(signal);
    return;
  }
  g_first_signal.store(signal);
  g_stop_requested.store(true);
}
}  // namespace

InterruptGuard::InterruptGuard(bool also_terminate) : also_terminate_(also_terminate) {
  g_stop_requested.store(false);
  g_first_signal.store(0);
  // sigaction, not signal(): the handler before may take siginfo (SA_SIGINFO), and is put back
  // whole.
  struct sigaction action {};
  action.sa_handler = on_interrupt;
  action.sa_flags = SA_RESTART;  // as glibc's signal(): a system call under way goes on
  sigemptyset(&action.sa_mask);
  ::sigaction(SIGINT, &action, &previous_);
  if (also_terminate_) ::sigaction(SIGTERM, &action, &previous_terminate_);
}

InterruptGuard::~InterruptGuard() {
  ::sigaction(SIGINT, &previous_, nullptr);
  if (also_terminate_) ::sigaction(SIGTERM, &previous_terminate_, nullptr);
}

const std::atomic<bool>* InterruptGuard::stop_flag() const {
  return &g_stop_requested;
}

}  // namespace larm::platform

namespace larm::platform {

int InterruptGuard::signal() const {
  return g_first_signal.load();
}

}  // namespace larm::platform
