// How a subcommand owns its outputs: the output directory's claim, a writable output file
// checked before any work, what an interrupted drawing leaves (platform/interrupt_guard.h stops
// runs).
#pragma once

#include <filesystem>
#include <string>

#include "report/plot_set.h"
#include "results/output_claim.h"

namespace larm::cli {

// Claims dir, the output directory of this run (created if needed), until the claim is destroyed;
// UsageError when another larm run holds it or it cannot be written. what: "larm characterize".
// A path as larm prints it: made printable (a name may hold terminal escapes).
std::string shown_path(const std::filesystem::path& path);

results::OutputClaim claim_output(const std::filesystem::path& dir, const std::string& what);

// Refuses (UsageError) an output file that could not be written, before any work is done.
void check_output_file(const std::string& file);

// After a Ctrl-C stopped larm plot or report: says which figures were drawn and that the others
// were left as they were (no page written); returns 130, the exit status of an interrupted run.
int report_interrupted_drawing(const report::PlotOutcome& outcome,
                               const std::filesystem::path& figures_dir);

}  // namespace larm::cli
