// lstopo, run bounded, its SVG committed only when whole.
#include "application/lstopo_drawing.h"

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <thread>
#include <vector>

#include "report/gnuplot_runner.h"
#include "results/atomic_file.h"

extern char** environ;

namespace larm::application {

namespace fs = std::filesystem;

std::string draw_with_lstopo(const std::filesystem::path& xml, const std::filesystem::path& svg) {
  fs::path lstopo = report::find_in_path("lstopo-no-graphics");
  if (lstopo.empty()) lstopo = report::find_in_path("lstopo");
  if (lstopo.empty()) return "lstopo is not installed (Debian: hwloc)";
  results::Temporary temporary = results::create_temporary_beside(svg);
  std::vector<std::string> args = {
      lstopo.filename().string(), "--input", xml.string(), "--of", "svg", "-f",
      temporary.path.string()};
  std::vector<char*> argv;
  for (std::string& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0);
  pid_t pid = 0;
  const int spawned = ::posix_spawn(&pid, lstopo.c_str(), &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  ::close(temporary.fd);
  temporary.fd = -1;  // closed: lstopo writes it by name
  if (spawned != 0) {
    results::discard_temporary(temporary);
    return "lstopo could not be run";
  }
  int status = 0;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  while (::waitpid(pid, &status, WNOHANG) == 0) {
    if (std::chrono::steady_clock::now() > deadline) {
      ::kill(pid, SIGKILL);
      ::waitpid(pid, &status, 0);
      results::discard_temporary(temporary);
      return "lstopo ran past 60 s";
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0 ||
      !report::incomplete_figure(temporary.path, "svg").empty()) {
    results::discard_temporary(temporary);
    return "lstopo failed";
  }
  results::commit_temporary(temporary, svg);
  return "";
}

}  // namespace larm::application
