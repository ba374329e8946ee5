#include "instrument/monitor/default_monitors.h"

#include <algorithm>

namespace larm::monitor {

std::string default_description(hwloc_topology_t topology) {
  std::string text =
      "# larm monitor's default monitors (larm monitor --print-monitors)\n"
      "cpu{ OBJ:=PU; PERF_LIB:=linux; "
      "EVSET:=cpu_busy,cpu_steal,task_cpu_seconds,task_threads,task_migrations; }\n";
  const int cores = hwloc_get_nbobjs_by_type(topology, HWLOC_OBJ_CORE);
  if (cores > 0) text += "cpu_core{ OBJ:=Core; PERF_LIB:=accumulate; EVSET:=cpu; }\n";
  // The cache levels that PUs share (L2 on some machines, L3 on most), outermost first.
  for (hwloc_obj_type_t cache : {HWLOC_OBJ_L3CACHE, HWLOC_OBJ_L2CACHE}) {
    const int count = hwloc_get_nbobjs_by_type(topology, cache);
    const int pus = hwloc_get_nbobjs_by_type(topology, HWLOC_OBJ_PU);
    if (count > 0 && count < std::max(cores, 1) && count < pus &&
        hwloc_get_type_depth(topology, cache) != HWLOC_TYPE_DEPTH_MULTIPLE) {
      const std::string level = cache == HWLOC_OBJ_L3CACHE ? "L3" : "L2";
      text += "cpu_" + level + "{ OBJ:=" + level + "; PERF_LIB:=accumulate; EVSET:=cpu; }\n";
    }
  }
  text +=
      "cpu_node{ OBJ:=NUMANode; PERF_LIB:=accumulate; EVSET:=cpu; }\n"
      "cpu_machine{ OBJ:=Machine; PERF_LIB:=accumulate; EVSET:=cpu; }\n"
      "cpu_balance{ OBJ:=Machine; PERF_LIB:=hierarchical; EVSET:=cpu_node; "
      "REDUCTION:=balance; }\n"
      "memory{ OBJ:=NUMANode; PERF_LIB:=linux; "
      "EVSET:=process_bytes,numa_hit,numa_miss,local_node,other_node,mem_used_bytes; }\n";
  return text;
}

}  // namespace larm::monitor
