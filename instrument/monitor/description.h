// A monitor description file, in the thesis' format (chapter 5, fig. 5.2): one block per monitor,
//   NAME{ OBJ:=L3; PERF_LIB:=accumulate; EVSET:=L3_ACCES_PU; REDUCTION:=1#hmonitor_evset_var;
//   OUTPUT:=1; }
// OBJ the hwloc object type it lives on (PU, Core, L1-L5, NUMANode, Package, Machine...);
// PERF_LIB its event source (papi, linux, region) or how it joins other monitors' outputs
// (accumulate: sums its children's vectors; hierarchical: reduces them with REDUCTION; rate: the
// values of a monitor of the same level per second since the previous update; ratio: a
// monitor's values over another's, EVSET:=NUMERATOR,DENOMINATOR, on its level); EVSET
// the events, comma-separated (the source's names, or the monitors it reads); REDUCTION sum,
// mean, min, max, var, sd, balance (max over mean) or count, with the thesis' spellings
// (1#hmonitor_evset_var) accepted; OUTPUT 0 keeps a monitor out of the trace. '#' starts a
// comment outside a value.
#pragma once

#include <cstddef>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace larm::monitor {

enum class Reduction { none, sum, mean, min, max, var, sd, balance, count };
const char* name(Reduction reduction);

struct MonitorSpec {
  std::string name;
  std::string object;  // OBJ, as written: an hwloc type name
  std::string source;  // PERF_LIB
  std::vector<std::string> events;
  Reduction reduction = Reduction::none;
  bool output = true;
  int line = 0;  // where its block starts, for messages
};

// A malformed description: "FILE:LINE: what".
class DescriptionError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// The monitors of a description's text, in order; `name` is what messages call it.
std::vector<MonitorSpec> parse_description(std::string_view text, const std::string& name);
// A description file (a regular file of at most 1 MiB).
std::vector<MonitorSpec> read_description(const std::filesystem::path& file);

}  // namespace larm::monitor
