// Output claims, writable output files, an interrupted drawing's last words.
#include "tools/cli_outputs.h"

#include <iostream>
#include <stdexcept>

#include "results/atomic_file.h"
#include "results/printable_text.h"
#include "tools/cli_options.h"

namespace larm::cli {

std::string shown_path(const std::filesystem::path& path) {
  return results::printable(path.string());
}

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
