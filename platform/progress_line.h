// A long command's progress, where its reader is: on a terminal, one line rewritten in place; in
// a pipe or a file (a batch job's log), a whole line every kProgressPeriodSeconds, so that a log
// shows the run advancing without thousands of lines. Nothing when quiet.
#pragma once

#include <chrono>
#include <string>

namespace larm::platform {

inline constexpr double kProgressPeriodSeconds = 10.0;

class ProgressLine {
 public:
  // To standard error, which is a terminal or not.
  explicit ProgressLine(bool quiet);
  ProgressLine(const ProgressLine&) = delete;
  ProgressLine& operator=(const ProgressLine&) = delete;
  ~ProgressLine();

  bool active() const { return !quiet_; }
  void update(const std::string& text);
  // Clears the terminal's line; in a log, nothing (its last line stays).
  void finish();

 private:
  bool quiet_;
  bool terminal_;
  bool shown_ = false;
  std::chrono::steady_clock::time_point last_{};
};

}  // namespace larm::platform
