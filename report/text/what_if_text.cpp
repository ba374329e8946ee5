// The what-if a placement is, in one line: regions of another machine on these roofs, and whose
// caches modelled their bytes per level.
#include "report/text/placement_text.h"
#include "results/printable_text.h"

namespace larm::text {

std::string what_if_line(const results::PlaceFile& file) {
  const std::string modelled = results::printable(file.levels_modelled_for);
  if (!file.what_if) {
    if (file.levels_modelled_for.empty()) return "";
    return "The bytes each cache level served were modelled with " + modelled +
           "'s caches (a count given that machine's results), not with those of the machine "
           "these roofs are: its cache verdicts are a what-if";
  }
  std::string hosts;
  for (const std::string& h : file.what_if->regions_hosts) {
    hosts += (hosts.empty() ? "" : ", ") + results::printable(h) +
             (h == file.what_if->results_host ? " (another machine of that name)" : "");
  }
  const std::string roofs_host = results::printable(file.what_if->results_host);
  const std::string head = "What-if: these regions ran on " + hosts + ", the roofs are " +
                           roofs_host +
                           "'s: their FLOPs and the bytes the core loads and stores hold on any "
                           "machine; ";
  if (file.levels_modelled_for == file.what_if->results_host) {
    return head + "the bytes each cache level serves were modelled with " + roofs_host +
           "'s caches (larm count --results); their times are the machine they ran on's (only a "
           "run on " +
           roofs_host + " gives its times)";
  }
  if (!file.levels_modelled_for.empty()) {
    return head + "the bytes each cache level serves were modelled with " + modelled +
           "'s caches, neither these roofs' machine's nor the one they ran on; their times are "
           "the machine they ran on's";
  }
  return head +
         "their times and the bytes each cache level serves are the machine they ran on's (larm "
         "count --results RESULTS models that node's caches; only a run there gives its times)";
}

}  // namespace larm::text
