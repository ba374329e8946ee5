// The SIGINT/SIGTERM handler behind InterruptGuard: one flag, set with a lock-free atomic.
#include "platform/interrupt_guard.h"

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
  previous_ = std::signal(SIGINT, on_interrupt);
  if (also_terminate_) previous_terminate_ = std::signal(SIGTERM, on_interrupt);
}

InterruptGuard::~InterruptGuard() {
  std::signal(SIGINT, previous_);
  if (also_terminate_) std::signal(SIGTERM, previous_terminate_);
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
