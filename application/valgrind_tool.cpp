// Finding and loading larm's Valgrind tool.
#include "application/valgrind_tool.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <vector>

#include "report/gnuplot_runner.h"
#include "results/input_file.h"
#include "results/number_text.h"
#include "results/printable_text.h"
#include "results/usage_error.h"

namespace larm::application {

namespace fs = std::filesystem;

namespace {

constexpr const char* kPluginRuntimeFile = "larm_plugin_runtime.so";

// Whether path lies under directory (both as they are: /proc/self/exe is already resolved).
bool inside(const fs::path& path, const fs::path& directory) {
  const fs::path relative = path.lexically_relative(directory);
  return !relative.empty() && *relative.begin() != "..";
}

}  // namespace

fs::path tool_directory(const std::string& command) {
  // Valgrind itself first: without it the tool cannot run, wherever it is.
  if (report::find_in_path("valgrind").empty()) {
    throw UsageError(command +
                     ": Valgrind is not installed (Debian: sudo apt install valgrind, or "
                     "scripts/install-deps.sh test), and larm's tool needs its core");
  }
  std::vector<fs::path> candidates;
  if (const char* dir = std::getenv("LARM_COUNT_TOOL_DIR")) candidates.emplace_back(dir);
  std::error_code ec;
  const fs::path self = fs::read_symlink("/proc/self/exe", ec);
  if (!ec)
    candidates.push_back(self.parent_path().parent_path() / LARM_INSTALL_LIBDIR / "larm" /
                         "valgrind");
  // The build's tree only for the larm built there: an installed copy keeps to its own files.
  if (!ec && std::strlen(LARM_COUNT_TOOL_BUILD_DIR) > 0 && inside(self, LARM_BUILD_TREE))
    candidates.emplace_back(LARM_COUNT_TOOL_BUILD_DIR);
  for (const fs::path& dir : candidates) {
    if (::access((dir / kToolFile).c_str(), X_OK) == 0) return dir;
  }
  throw UsageError(
      command +
      ": larm's Valgrind tool (larmcount) is not built or not found: install Debian's valgrind "
      "package (scripts/install-deps.sh test), rebuild larm, or set LARM_COUNT_TOOL_DIR");
}

fs::path plugin_runtime_library(const std::string& command) {
  std::vector<fs::path> candidates;
  std::error_code ec;
  const fs::path self = fs::read_symlink("/proc/self/exe", ec);
  if (!ec)
    candidates.push_back(self.parent_path().parent_path() / LARM_INSTALL_LIBDIR / "larm" /
                         kPluginRuntimeFile);
  if (!ec && std::strlen(LARM_PLUGIN_RUNTIME_BUILD_PATH) > 0 && inside(self, LARM_BUILD_TREE))
    candidates.emplace_back(LARM_PLUGIN_RUNTIME_BUILD_PATH);
  for (const fs::path& file : candidates) {
    if (::access(file.c_str(), R_OK) == 0) return file;
  }
  throw UsageError(command + ": " + kPluginRuntimeFile +
                   " (which reads the compiler plugin's counts per function) is not built or not "
                   "found beside this larm: rebuild or reinstall larm");
}

std::string preload_setting(const fs::path& library) {
  const char* preloaded = std::getenv("LD_PRELOAD");
  return "LD_PRELOAD=" + library.string() +
         (preloaded != nullptr && *preloaded != '\0' ? std::string(":") + preloaded
                                                     : std::string());
}

std::vector<std::string> plugin_runtime_environment(const fs::path& runtime,
                                                    const std::string& model_option,
                                                    unsigned long cache_sample) {
  std::vector<std::string> set = {preload_setting(runtime)};
  if (!model_option.empty()) {
    set.push_back("LARM_CACHE_MODEL=" + model_option);
    set.push_back("LARM_CACHE_SAMPLE=" + std::to_string(cache_sample));
  }
  return set;
}

namespace {

// The directories a run killed before its end left under parent (directories only: a link is
// removed, not followed): those of the output, and those in the temporary directory whose
// process is gone.
void remove_stale_lib_dirs(const fs::path& parent, const std::string& prefix, bool by_process) {
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(parent, ec)) {
    const std::string name = entry.path().filename().string();
    if (name.rfind(prefix, 0) != 0) continue;
    if (by_process) {
      // Another user's, or one whose process still runs: not ours to remove.
      const std::string pid =
          name.substr(prefix.size(), name.find('-', prefix.size()) - prefix.size());
      struct stat info {};
      if (pid.empty() || fs::exists("/proc/" + pid) || ::lstat(entry.path().c_str(), &info) != 0 ||
          info.st_uid != ::getuid()) {
        continue;
      }
    }
    fs::remove_all(entry.path(), ec);
  }
}

}  // namespace

ValgrindLibDir::ValgrindLibDir(const fs::path& tool_dir, const fs::path& out) {
  // Valgrind puts VALGRIND_LIB's preload libraries in LD_PRELOAD, which splits at spaces and
  // colons: an output whose path holds one takes the directory in the temporary directory.
  const std::string absolute_out = fs::absolute(out).string();
  const bool in_output = absolute_out.find_first_of(" :\t") == std::string::npos;
  const fs::path parent = in_output ? fs::path(absolute_out) : fs::temp_directory_path();
  const std::string prefix = in_output ? ".valgrind-lib-" : "larm-valgrind-lib-";
  remove_stale_lib_dirs(parent, prefix, !in_output);
  std::string pattern =
      (parent / (prefix + (in_output ? "" : std::to_string(::getpid()) + "-") + "XXXXXX")).string();
  if (::mkdtemp(pattern.data()) == nullptr) {
    throw std::runtime_error("cannot create a directory in " + parent.string() + ": " +
                             std::strerror(errno));
  }
  path_ = pattern;
  std::error_code ec;
  const fs::path libexec = LARM_VALGRIND_LIBEXEC_DIR;
  for (const auto& entry : fs::directory_iterator(libexec, ec)) {
    fs::create_symlink(entry.path(), path_ / entry.path().filename(), ec);
  }
  fs::create_symlink(fs::absolute(tool_dir / kToolFile), path_ / kToolFile, ec);
  if (ec) throw std::runtime_error("cannot link larm's Valgrind tool: " + ec.message());
}

ValgrindLibDir::~ValgrindLibDir() {
  std::error_code ec;
  fs::remove_all(path_, ec);
}

std::string valgrind_path(const fs::path& path) {
  std::string text;
  for (const char c : path.string()) {
    text += c;
    if (c == '%') text += '%';
  }
  return text;
}

ValgrindLog::ValgrindLog(const fs::path& path) : path_(path) {
  std::error_code ec;
  fs::remove(path, ec);  // a stale log, or a link planted in its place: the link, not its target
  // Created here (O_EXCL: not through a link made in between), read back through the same
  // descriptor, inherited by Valgrind (not close-on-exec) above the descriptors a program expects.
  const int created = ::open(path.c_str(), O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW, 0644);
  fd_ = created < 0 ? -1 : ::fcntl(created, F_DUPFD, 10);
  const int error = errno;
  if (created >= 0) ::close(created);
  if (fd_ < 0) {
    throw std::runtime_error("cannot create " + path.string() + ": " + std::strerror(error));
  }
}

ValgrindLog::~ValgrindLog() {
  if (fd_ >= 0) ::close(fd_);
}

std::string ValgrindLog::option() const {
  return "--log-fd=" + std::to_string(fd_);
}

std::string valgrind_run_expectation(double native_seconds) {
  if (!(native_seconds > 0)) return "";
  const auto seconds = [](double s) { return results::fixed_text(s, s < 10 ? 1 : 0) + " s"; };
  return " (expect " + seconds(native_seconds * kValgrindSlowdownLow) + " to " +
         seconds(native_seconds * kValgrindSlowdownHigh) + ": " +
         results::fixed_text(kValgrindSlowdownLow, 0) + "-" +
         results::fixed_text(kValgrindSlowdownHigh, 0) + "x the native run's " +
         results::fixed_text(native_seconds, 2) + " s)";
}

std::string valgrind_refusal(const ValgrindLog& log, const std::string& program) {
  // Read through the descriptor larm created: whatever the name now points to.
  std::string text;
  try {
    text = results::read_input_descriptor(log.descriptor(), log.path().string());
  } catch (const std::runtime_error&) {
    return {};
  }
  const std::string see = "; see " + log.path().string();
  const std::string marker = "unhandled instruction bytes: ";
  if (const auto at = text.find(marker); at != std::string::npos) {
    const auto end = text.find('\n', at);
    const std::string bytes = results::printable(text.substr(
        at + marker.size(), (end == std::string::npos ? text.size() : end) - at - marker.size()));
    if (bytes.rfind("0x62", 0) == 0) {
      return "larm: error: " + program +
             " executes AVX-512 instructions (EVEX prefix 0x62), which Valgrind 3.19 cannot run: "
             "build the counting run for x86-64-v3 (-march=x86-64-v3; the FLOPs and bytes are the "
             "algorithm's), or through larm-cc, whose runs count themselves" +
             see;
    }
    return "larm: error: " + program + " executes an instruction Valgrind cannot run (bytes " +
           bytes.substr(0, 40) + "): build the counting run for an older ISA (x86-64-v3)" + see;
  }
  // Valgrind gives up on debug information it cannot parse before the program starts: 3.19 does
  // not know every DWARF 5 form that clang 14's -g writes (DW_FORM_strx1, addrx1...).
  if (text.find("Possibly corrupted debuginfo file") != std::string::npos) {
    const bool dwarf5 = text.find("unhandled dwarf2 abbrev form") != std::string::npos;
    return "larm: error: Valgrind 3.19 cannot read the debug information of " + program +
           (dwarf5 ? " (DWARF 5 forms it does not know, as clang 14's -g writes them)" : "") +
           ": build the counting run with -gdwarf-4 (or without -g)" + see;
  }
  return {};
}

}  // namespace larm::application
