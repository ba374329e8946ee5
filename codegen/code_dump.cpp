// A kernel's machine code and its disassembly, written beside each other.
#include "codegen/code_dump.h"

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <string_view>

#include "results/atomic_file.h"

extern char** environ;

namespace larm::codegen {
namespace {

// Finds a program on PATH, without running a shell.
std::filesystem::path find_on_path(const std::string& program) {
  const char* path = std::getenv("PATH");
  if (path == nullptr) return {};
  std::string_view rest(path);
  while (!rest.empty()) {
    const std::size_t colon = rest.find(':');
    const std::filesystem::path candidate = std::filesystem::path(rest.substr(0, colon)) / program;
    if (::access(candidate.c_str(), X_OK) == 0) return candidate;
    if (colon == std::string_view::npos) break;
    rest.remove_prefix(colon + 1);
  }
  return {};
}

}  // namespace

std::vector<std::filesystem::path> dump_code(const std::filesystem::path& dir,
                                             const std::string& name, const void* code,
                                             std::size_t bytes, const Disassembler& disassembler) {
  std::vector<std::filesystem::path> written;
  const std::filesystem::path bin = dir / (name + ".bin");
  // Never through a link or FIFO planted in dir: a new file renamed over the name.
  results::write_file_atomically(bin, std::string_view(static_cast<const char*>(code), bytes));
  written.push_back(bin);
  std::filesystem::path objdump;
  for (const std::string& program : disassembler.programs) {
    if (objdump.empty()) objdump = find_on_path(program);
  }
  if (objdump.empty()) return written;
  const std::filesystem::path asm_file = dir / (name + ".asm");
  const results::Temporary listing = results::create_temporary_beside(asm_file);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, listing.fd, 1);
  std::vector<std::string> args = {objdump.filename().string(), "-D", "-b", "binary"};
  args.insert(args.end(), disassembler.options.begin(), disassembler.options.end());
  args.push_back(bin.string());
  std::vector<char*> argv;
  for (std::string& arg : args) argv.push_back(arg.data());
  argv.push_back(nullptr);
  pid_t pid;
  bool listed = false;
  if (posix_spawn(&pid, objdump.c_str(), &actions, nullptr, argv.data(), environ) == 0) {
    int status = 0;
    waitpid(pid, &status, 0);
    listed = WIFEXITED(status) && WEXITSTATUS(status) == 0;
  }
  posix_spawn_file_actions_destroy(&actions);
  if (listed) {
    results::commit_temporary(listing, asm_file);
    written.push_back(asm_file);
  } else {
    results::discard_temporary(listing);
  }
  return written;
}

}  // namespace larm::codegen
