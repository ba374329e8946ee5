// gnuplot as a child process.
#include "report/gnuplot_runner.h"

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <fstream>
#include <string_view>

extern char** environ;

namespace larm::report {

std::filesystem::path find_gnuplot() {
  const char* path = std::getenv("PATH");
  if (path == nullptr) return {};
  std::string_view rest(path);
  while (!rest.empty()) {
    const std::size_t colon = rest.find(':');
    const std::filesystem::path candidate =
        std::filesystem::path(rest.substr(0, colon)) / "gnuplot";
    if (::access(candidate.c_str(), X_OK) == 0) return candidate;
    if (colon == std::string_view::npos) break;
    rest.remove_prefix(colon + 1);
  }
  return {};
}

GnuplotRun run_gnuplot(const std::filesystem::path& gnuplot, const std::filesystem::path& script,
                       const std::atomic<bool>* stop) {
  GnuplotRun run;
  const std::filesystem::path dir = std::filesystem::absolute(script).parent_path();
  const std::filesystem::path log = std::filesystem::path(script).replace_extension(".log");
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addchdir_np(&actions, dir.c_str());
  posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_addopen(&actions, 2, std::filesystem::absolute(log).c_str(),
                                   O_WRONLY | O_CREAT | O_TRUNC, 0644);
  std::string program = gnuplot.string(), name = script.filename().string();
  std::string flag = "-e", partial = std::string("larm_partial = '") + kPartialSuffix + "'";
  char* argv[] = {program.data(), flag.data(), partial.data(), name.data(), nullptr};
  pid_t pid = 0;
  const int spawned = posix_spawn(&pid, program.c_str(), &actions, nullptr, argv, environ);
  posix_spawn_file_actions_destroy(&actions);
  if (spawned != 0) {
    run.error = "cannot run " + program;
    return run;
  }
  int status = 0;
  // Polled, so that a Ctrl-C (which sets *stop and interrupts nothing) ends gnuplot too.
  bool terminated = false;
  for (;;) {
    const pid_t done = ::waitpid(pid, &status, stop != nullptr ? WNOHANG : 0);
    if (done == pid) break;
    if (done < 0 && errno != EINTR) break;
    if (stop != nullptr && stop->load() && !terminated) {
      ::kill(pid, SIGTERM);
      terminated = true;
    }
    if (done == 0) ::usleep(10000);
  }
  if (stop != nullptr && stop->load()) {
    run.interrupted = true;
    run.error = "interrupted while gnuplot drew " + name;
    return run;
  }
  run.ok = WIFEXITED(status) && WEXITSTATUS(status) == 0;
  if (!run.ok) {
    std::ifstream in(log);
    std::string line, last;
    while (std::getline(in, line)) {
      if (!line.empty()) last = line;
    }
    run.error = "gnuplot failed on " + name + (last.empty() ? "" : ": " + last);
  }
  return run;
}

}  // namespace larm::report
