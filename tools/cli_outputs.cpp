// Output claims, writable output files, and the Ctrl-C guard.
#include "tools/cli_outputs.h"

#include <csignal>
#include <iostream>
#include <stdexcept>

#include "results/atomic_file.h"
#include "tools/cli_options.h"

namespace larm::cli {

results::OutputClaim claim_output(const std::filesystem::path& dir, const std::string& what) {
  try {
    return results::OutputClaim(dir, what);
  } catch (const results::OutputInUse& e) {
    throw UsageError(e.what());
  } catch (const std::runtime_error& e) {
    throw UsageError(std::string("output directory: ") + e.what());
  }
}

void check_output_file(const std::string& file) {
  try {
    results::ensure_writable_file(file);
  } catch (const std::runtime_error& e) {
    throw UsageError(e.what());
  }
}

namespace {
// Set by the first Ctrl-C under an InterruptGuard.
std::atomic<bool> g_stop_requested{false};
static_assert(std::atomic<bool>::is_always_lock_free);

extern "C" void on_interrupt(int signal) {
  if (g_stop_requested.load()) {
    std::signal(signal, SIG_DFL);  // a second Ctrl-C ends the process at once
    std::raise(signal);
    return;
  }
  g_stop_requested.store(true);
}
}  // namespace

InterruptGuard::InterruptGuard(bool also_terminate) : also_terminate_(also_terminate) {
  g_stop_requested.store(false);
  previous_ = std::signal(SIGINT, on_interrupt);
  if (also_terminate_) previous_terminate_ = std::signal(SIGTERM, on_interrupt);
}

InterruptGuard::~InterruptGuard() {
  std::signal(SIGINT, previous_);
  if (also_terminate_) std::signal(SIGTERM, previous_terminate_);
}

const std::atomic<bool>* InterruptGuard::stop_flag() const {
  return &g_stop_requested;
}

int report_interrupted_drawing(const report::PlotOutcome& outcome,
                               const std::filesystem::path& figures_dir) {
  std::size_t drawn = 0;
  for (const auto& f : outcome.figures) drawn += f.error.empty() ? 1 : 0;
  std::cerr << "larm: interrupted: " << drawn << " figure(s) drawn in " << figures_dir.string()
            << "; the figures not yet redrawn there are left as they were, and no report "
               "page is written\n";
  return 130;
}

}  // namespace larm::cli
