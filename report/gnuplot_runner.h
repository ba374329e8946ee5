// Running gnuplot on the scripts larm writes: found on PATH, run in the figures' directory (so
// that a user can rerun a script there), its messages kept in SCRIPT.log.
#pragma once

#include <atomic>
#include <filesystem>
#include <string>
#include <string_view>

namespace larm::report {

// gnuplot's path, or empty when it is not installed.
std::filesystem::path find_gnuplot();
// The first executable regular file `program` in $PATH's directories (an empty entry: the
// current directory), as execvp finds it; empty when there is none.
std::filesystem::path find_in_path(std::string_view program);

struct GnuplotRun {
  bool ok = false;
  bool interrupted = false;  // stopped by *stop: gnuplot was ended
  std::string error;         // why it failed: gnuplot's last error line, or why it could not run
};

// The start of the suffix of the files gnuplot draws into when larm runs it (".partial-" and a
// random word, the files created by larm beforehand, O_EXCL): renamed over the figures only once
// gnuplot succeeded and each file is whole, so a failed, interrupted or disk-full run leaves the
// previous figures whole. A user who reruns a script by hand draws straight into the figures.
inline constexpr const char* kPartialSuffix = ".partial";

// A fresh suffix for one drawing: kPartialSuffix, '-', eight random letters and digits.
std::string partial_suffix();

// Runs `gnuplot SCRIPT` with SCRIPT's directory as working directory, the script's larm_partial
// variable set to partial. Its messages go to SCRIPT.log (written beside, then renamed: never
// through a link or FIFO found there). When *stop turns true, gnuplot is ended (SIGTERM) and
// waited for.
GnuplotRun run_gnuplot(const std::filesystem::path& gnuplot, const std::filesystem::path& script,
                       const std::string& partial, const std::atomic<bool>* stop = nullptr);

// Why a file gnuplot wrote is not a whole figure of its format ("" when it is): empty, an SVG
// without its closing </svg>, a PNG without its IEND chunk, a PDF without %%EOF (gnuplot exits 0
// when the disk fills up). Reads it without following a link; a FIFO or device is no figure.
// format: "svg", "png" or "pdf" (the partial file's name does not end with it).
std::string incomplete_figure(const std::filesystem::path& file, const std::string& format);

}  // namespace larm::report
