// How a subcommand owns its outputs and ends early: the output directory's claim, a writable
// output file checked before any work, Ctrl-C (and SIGTERM) handling.
#pragma once

#include <atomic>
#include <filesystem>
#include <string>

#include "report/plot_set.h"
#include "results/output_claim.h"

namespace larm::cli {

// Claims dir, the output directory of this run (created if needed), until the claim is destroyed;
// UsageError when another larm run holds it or it cannot be written. what: "larm characterize".
results::OutputClaim claim_output(const std::filesystem::path& dir, const std::string& what);

// Refuses (UsageError) an output file that could not be written, before any work is done.
void check_output_file(const std::string& file);

// While alive, the first Ctrl-C sets the stop flag (measurements stop between samples and save
// what they finished) and a second one ends the process at once; the previous SIGINT handler is
// restored on destruction. One at a time.
class InterruptGuard {
 public:
  // also_terminate: SIGTERM too (larm fleet: mpirun and Slurm end ranks with it on Ctrl-C).
  explicit InterruptGuard(bool also_terminate = false);
  ~InterruptGuard();
  InterruptGuard(const InterruptGuard&) = delete;
  InterruptGuard& operator=(const InterruptGuard&) = delete;
  const std::atomic<bool>* stop_flag() const;

 private:
  void (*previous_)(int);
  void (*previous_terminate_)(int) = nullptr;
  bool also_terminate_ = false;
};

// After a Ctrl-C stopped larm plot or report: says which figures were drawn and that the others
// were left as they were (no page written); returns 130, the exit status of an interrupted run.
int report_interrupted_drawing(const report::PlotOutcome& outcome,
                               const std::filesystem::path& figures_dir);

}  // namespace larm::cli
