// Running gnuplot on the scripts larm writes: found on PATH, run in the figures' directory (so
// that a user can rerun a script there), its messages kept in SCRIPT.log.
#pragma once

#include <atomic>
#include <filesystem>
#include <string>

namespace larm::report {

// gnuplot's path, or empty when it is not installed.
std::filesystem::path find_gnuplot();

struct GnuplotRun {
  bool ok = false;
  bool interrupted = false;  // stopped by *stop: gnuplot was ended
  std::string error;         // why it failed: gnuplot's last error line, or why it could not run
};

// The suffix of the files gnuplot draws into when larm runs it: renamed over the figures only
// once gnuplot succeeded, so a failed or interrupted run leaves the previous figures whole. A
// user who reruns a script by hand draws straight into the figures.
inline constexpr const char* kPartialSuffix = ".partial";

// Runs `gnuplot SCRIPT` with SCRIPT's directory as working directory, the script's larm_partial
// variable set to kPartialSuffix. When *stop turns true, gnuplot is ended (SIGTERM) and waited
// for.
GnuplotRun run_gnuplot(const std::filesystem::path& gnuplot, const std::filesystem::path& script,
                       const std::atomic<bool>* stop = nullptr);

}  // namespace larm::report
