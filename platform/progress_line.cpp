// A long command's progress.
#include "platform/progress_line.h"

#include <unistd.h>

#include <cstdio>

namespace larm::platform {

ProgressLine::ProgressLine(bool quiet) : quiet_(quiet), terminal_(::isatty(STDERR_FILENO) == 1) {}

ProgressLine::~ProgressLine() {
  finish();
}

void ProgressLine::update(const std::string& text) {
  if (quiet_) return;
  if (terminal_) {
    std::fprintf(stderr, "\r\033[K%s", text.c_str());
    std::fflush(stderr);
    shown_ = true;
    return;
  }
  const auto now = std::chrono::steady_clock::now();
  if (shown_ && std::chrono::duration<double>(now - last_).count() < kProgressPeriodSeconds) return;
  std::fprintf(stderr, "%s\n", text.c_str());
  std::fflush(stderr);
  shown_ = true;
  last_ = now;
}

void ProgressLine::finish() {
  if (quiet_ || !terminal_ || !shown_) return;
  std::fprintf(stderr, "\r\033[K");
  std::fflush(stderr);
  shown_ = false;
}

}  // namespace larm::platform
