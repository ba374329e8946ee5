// gnuplot as a child process.
#include "report/gnuplot_runner.h"

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cctype>
#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <random>
#include <string_view>

#include "results/atomic_file.h"

extern char** environ;

namespace larm::report {

std::filesystem::path find_gnuplot() {
  return find_in_path("gnuplot");
}

std::filesystem::path find_in_path(std::string_view program) {
  const char* path = std::getenv("PATH");
  if (path == nullptr) return {};
  std::string_view rest(path);
  while (!rest.empty()) {
    const std::size_t colon = rest.find(':');
    // An empty entry is the current directory, as execvp takes it.
    const std::string_view dir = rest.substr(0, colon);
    const std::filesystem::path candidate =
        std::filesystem::path(dir.empty() ? std::string_view(".") : dir) / program;
    std::error_code ec;
    if (std::filesystem::is_regular_file(candidate, ec) && ::access(candidate.c_str(), X_OK) == 0) {
      return candidate;
    }
    if (colon == std::string_view::npos) break;
    rest.remove_prefix(colon + 1);
  }
  return {};
}

std::string partial_suffix() {
  static const char letters[] = "abcdefghijklmnopqrstuvwxyz0123456789";
  std::random_device device;
  std::string suffix = std::string(kPartialSuffix) + "-";
  for (int i = 0; i < 8; ++i) suffix += letters[device() % (sizeof letters - 1)];
  return suffix;
}

std::string incomplete_figure(const std::filesystem::path& file, const std::string& format) {
  const int fd = results::open_own_output(file);
  if (fd < 0) return "not a regular file";
  std::string head(16, '\0'), tail(1024, '\0');
  const off_t size = ::lseek(fd, 0, SEEK_END);
  const ssize_t head_read = size > 0 ? ::pread(fd, head.data(), head.size(), 0) : 0;
  const off_t tail_at =
      size > static_cast<off_t>(tail.size()) ? size - static_cast<off_t>(tail.size()) : 0;
  const ssize_t tail_read = size > 0 ? ::pread(fd, tail.data(), tail.size(), tail_at) : 0;
  ::close(fd);
  if (size <= 0) return "empty";
  head.resize(head_read > 0 ? static_cast<std::size_t>(head_read) : 0);
  tail.resize(tail_read > 0 ? static_cast<std::size_t>(tail_read) : 0);
  while (!tail.empty() && std::isspace(static_cast<unsigned char>(tail.back()))) tail.pop_back();
  if (format == "svg") {
    if (tail.size() < 6 || tail.compare(tail.size() - 6, 6, "</svg>") != 0)
      return "no </svg> at its end";
  } else if (format == "png") {
    static const char signature[] = "\x89PNG\r\n\x1a\n";
    static const char end[] = "IEND\xae\x42\x60\x82";
    if (head.compare(0, 8, signature, 8) != 0) return "no PNG signature";
    if (tail.size() < 8 || tail.compare(tail.size() - 8, 8, end, 8) != 0)
      return "no IEND chunk at its end";
  } else if (format == "pdf") {
    if (tail.find("%%EOF") == std::string::npos) return "no %%EOF at its end";
  }
  return "";
}

GnuplotRun run_gnuplot(const std::filesystem::path& gnuplot, const std::filesystem::path& script,
                       const std::string& partial_name, const std::atomic<bool>* stop) {
  GnuplotRun run;
  const std::filesystem::path dir = std::filesystem::absolute(script).parent_path();
  const std::filesystem::path log =
      std::filesystem::absolute(std::filesystem::path(script).replace_extension(".log"));
  const results::Temporary log_file = results::create_temporary_beside(log);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addchdir_np(&actions, dir.c_str());
  posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_adddup2(&actions, log_file.fd, 2);
  std::string program = gnuplot.string(), name = script.filename().string();
  std::string flag = "-e", partial = "larm_partial = '" + partial_name + "'";
  char* argv[] = {program.data(), flag.data(), partial.data(), name.data(), nullptr};
  pid_t pid = 0;
  const int spawned = posix_spawn(&pid, program.c_str(), &actions, nullptr, argv, environ);
  posix_spawn_file_actions_destroy(&actions);
  if (spawned != 0) {
    results::discard_temporary(log_file);
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
  try {
    results::commit_temporary(log_file, log);
  } catch (const std::exception& e) {
    run.error = e.what();
    return run;
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
