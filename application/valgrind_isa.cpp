// objdump -d over the executable, read line by line through a pipe: the function a line belongs
// to ("0000000000401126 <triad>:"), then each instruction's address, bytes and text. On x86-64 an
// instruction whose first byte (after an address-size prefix) is 0x62 is EVEX-encoded: in 64-bit
// mode 0x62 is no other opcode. On AArch64 an SVE instruction names a Z register with its element
// size ("z0.d") or a governing predicate ("p0/z").
#include "application/valgrind_isa.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <regex>
#include <string_view>
#include <vector>

#include "results/printable_text.h"

extern char** environ;

namespace larm::application {
namespace {
// Only x86-64 (EVEX) and AArch64 (SVE) have instructions larm's Valgrind cannot run.
#if defined(__x86_64__) || defined(__aarch64__)

constexpr double kObjdumpSeconds = 60;

// A function compiled for one instruction set among others, one chosen at run time.
bool dispatched_variant(std::string_view function) {
  static const std::regex variant(
      R"((avx512|evex|[.]arch_|skylake|icelake|sapphire|znver[45]|_skx|_knl|sve))",
      std::regex::icase);
  return std::regex_search(std::string(function), variant);
}

#if defined(__x86_64__)
bool evex(std::string_view bytes) {
  std::string_view rest = bytes;
  while (rest.substr(0, 3) == "67 ") rest.remove_prefix(3);
  return rest.substr(0, 2) == "62";
}

#elif defined(__aarch64__)
bool sve(std::string_view text) {
  static const std::regex operand(
      R"(\b(z[0-9]{1,2}\.[bhsdq]|p[0-9]{1,2}/[zm]|p[0-9]{1,2}\.[bhsd])\b)");
  return std::regex_search(std::string(text), operand);
}
#endif

std::string trimmed(std::string_view text) {
  const auto first = text.find_first_not_of(" \t");
  const auto last = text.find_last_not_of(" \t");
  return first == std::string_view::npos ? std::string()
                                         : std::string(text.substr(first, last - first + 1));
}

// The listing's state: the function being read, and whether it is a dispatched variant (judged
// once, at its header, not at each of its instructions).
struct Listing {
  std::string function;
  bool variant = false;
};

// Finds the first unrunnable instruction in one line of the listing.
std::string examine(const std::string& line, Listing& listing) {
  if (line.size() > 2 && line.back() == ':' && line[line.size() - 2] == '>') {
    const auto open = line.find('<');
    if (open != std::string::npos) {
      listing.function = line.substr(open + 1, line.size() - open - 3);
      listing.variant = dispatched_variant(listing.function);
    }
    return "";
  }
  if (listing.variant) return "";
  // "  401136:\t62 f1 fd 48 58 c1 \tvaddpd %zmm1,%zmm0,%zmm0"
  const auto tab1 = line.find('\t');
  if (tab1 == std::string::npos || line.find(':') > tab1) return "";
  const auto tab2 = line.find('\t', tab1 + 1);
  if (tab2 == std::string::npos) return "";
#if defined(__x86_64__)
  if (!evex(std::string_view(line).substr(tab1 + 1, tab2 - tab1 - 1))) return "";
  const char* what = "AVX-512, EVEX-encoded";
#elif defined(__aarch64__)
  if (!sve(std::string_view(line).substr(tab2 + 1))) return "";
  const char* what = "SVE";
#endif
  std::string text = trimmed(std::string_view(line).substr(tab2 + 1));
  for (char& c : text) {
    if (c == '\t') c = ' ';
  }
  return text.substr(0, 80) + " (" + what + ") in " + listing.function.substr(0, 80) + " at 0x" +
         trimmed(std::string_view(line).substr(0, line.find(':')));
}

#endif
}  // namespace

std::string valgrind_unrunnable_instruction(const std::string& program) {
#if !defined(__x86_64__) && !defined(__aarch64__)
  (void)program;
  return "";
#else
  int pipe_fds[2];
  if (::pipe2(pipe_fds, O_CLOEXEC) != 0) return "";
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, pipe_fds[1], STDOUT_FILENO);
  posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, "/dev/null", O_WRONLY, 0);
  std::vector<std::string> args = {"objdump", "-d", "--insn-width=15", program};
  std::vector<char*> argv;
  for (std::string& arg : args) argv.push_back(arg.data());
  argv.push_back(nullptr);
  pid_t pid = -1;
  const int spawned = ::posix_spawnp(&pid, "objdump", &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  ::close(pipe_fds[1]);
  if (spawned != 0) {
    ::close(pipe_fds[0]);
    return "";
  }
  const auto deadline =
      std::chrono::steady_clock::now() + std::chrono::duration<double>(kObjdumpSeconds);
  std::string found;
  Listing listing;
  std::string pending;
  char buffer[1 << 16];
  for (;;) {
    const double left =
        std::chrono::duration<double>(deadline - std::chrono::steady_clock::now()).count();
    if (left <= 0) break;
    pollfd p{pipe_fds[0], POLLIN, 0};
    if (::poll(&p, 1, static_cast<int>(left * 1000) + 1) <= 0) break;
    const ssize_t got = ::read(pipe_fds[0], buffer, sizeof buffer);
    if (got <= 0) break;
    pending.append(buffer, static_cast<std::size_t>(got));
    std::size_t start = 0;
    for (std::size_t end; (end = pending.find('\n', start)) != std::string::npos; start = end + 1) {
      found = examine(pending.substr(start, end - start), listing);
      if (!found.empty()) break;
    }
    if (!found.empty()) break;
    pending.erase(0, start);
  }
  ::close(pipe_fds[0]);
  ::kill(pid, SIGKILL);  // done reading (found, or the deadline): an end either way
  int status = 0;
  ::waitpid(pid, &status, 0);
  return results::printable(found);
#endif
}

std::string valgrind_unrunnable_refusal(const std::string& app, const std::string& instruction) {
  return app + " runs " + instruction +
         ", which larm's Valgrind tool (Valgrind 3.19) cannot run: build it through larm-cc, "
         "larm-c++ or larm-fortran (the compiler plugin counts this build natively), or build "
         "the counting run for an older ISA (-march=x86-64-v3 on x86-64, without SVE on "
         "AArch64)";
}

}  // namespace larm::application
