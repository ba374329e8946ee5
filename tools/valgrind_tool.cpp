// Finding and loading larm's Valgrind tool.
#include "tools/valgrind_tool.h"

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <stdexcept>
#include <vector>

#include "tools/cli_options.h"

namespace larm::cli {

namespace fs = std::filesystem;

fs::path tool_directory(const std::string& command) {
  // Valgrind itself first: without it the tool cannot run, wherever it is.
  bool valgrind = false;
  if (const char* path = std::getenv("PATH")) {
    std::string dirs = path;
    for (std::size_t start = 0; start <= dirs.size();) {
      const std::size_t end = std::min(dirs.find(':', start), dirs.size());
      const fs::path dir = dirs.substr(start, end - start);
      valgrind = valgrind || (!dir.empty() && ::access((dir / "valgrind").c_str(), X_OK) == 0);
      start = end + 1;
    }
  }
  if (!valgrind) {
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
  if (std::strlen(LARM_COUNT_TOOL_BUILD_DIR) > 0)
    candidates.emplace_back(LARM_COUNT_TOOL_BUILD_DIR);
  for (const fs::path& dir : candidates) {
    if (::access((dir / kToolFile).c_str(), X_OK) == 0) return dir;
  }
  throw UsageError(
      command +
      ": larm's Valgrind tool (larmcount) is not built or not found: install Debian's valgrind "
      "package (scripts/install-deps.sh test), rebuild larm, or set LARM_COUNT_TOOL_DIR");
}

ValgrindLibDir::ValgrindLibDir(const fs::path& tool_dir) {
  std::string pattern = (fs::temp_directory_path() / "larm-count-XXXXXX").string();
  if (::mkdtemp(pattern.data()) == nullptr) {
    throw std::runtime_error("cannot create a temporary directory: " +
                             std::string(std::strerror(errno)));
  }
  path_ = pattern;
  const fs::path libexec = LARM_VALGRIND_LIBEXEC_DIR;
  std::error_code ec;
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

std::string unhandled_instruction(const fs::path& log) {
  std::ifstream in(log);
  std::string line;
  while (std::getline(in, line)) {
    const auto at = line.find("unhandled instruction bytes: ");
    if (at != std::string::npos)
      return line.substr(at + std::strlen("unhandled instruction bytes: "));
  }
  return {};
}

std::string unhandled_instruction_error(const std::string& program, const std::string& bytes,
                                        const fs::path& log) {
  const bool evex = bytes.rfind("0x62", 0) == 0;
  return "larm: error: " + program +
         (evex ? " executes AVX-512 instructions (EVEX prefix 0x62), which Valgrind 3.19 cannot "
                 "run: build the counting run for x86-64-v3 (-march=x86-64-v3; the FLOPs and bytes "
                 "are the algorithm's)"
               : " executes an instruction Valgrind cannot run (bytes " + bytes.substr(0, 40) +
                     "): build the counting run for an older ISA (x86-64-v3)") +
         "; see " + log.string();
}

}  // namespace larm::cli
