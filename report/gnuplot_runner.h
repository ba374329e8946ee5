// Running gnuplot on the scripts larm writes: found on PATH, run in the figures' directory (so
// that a user can rerun a script there), its messages kept in SCRIPT.log.
#pragma once

#include <filesystem>
#include <string>

namespace larm::report {

// gnuplot's path, or empty when it is not installed.
std::filesystem::path find_gnuplot();

struct GnuplotRun {
  bool ok = false;
  std::string error;  // why it failed: gnuplot's first error line, or why it could not run
};

// Runs `gnuplot SCRIPT` with SCRIPT's directory as working directory.
GnuplotRun run_gnuplot(const std::filesystem::path& gnuplot, const std::filesystem::path& script);

}  // namespace larm::report
