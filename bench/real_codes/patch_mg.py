"""Regions of liblarm in NPB MG (the C + OpenMP port, mg.c): each `#pragma omp parallel for` of
resid, psinv, interp and rprj3 becomes `omp parallel` + larm_region_begin + `omp for` + end, so
that every thread records its own share (a begin/end around the `parallel for` on the calling
thread would count that thread alone).

  python3 patch_mg.py MG/mg.c"""
import re
import sys

KERNELS = {"psinv", "resid", "rprj3", "interp"}
path = sys.argv[1]
lines = open(path).read().split("\n")
out, done, current, i = [], set(), None, 0
while i < len(lines):
    line = lines[i]
    m = re.match(r"static void (\w+)\(", line)
    if m and not line.rstrip().endswith(";"):
        current = m.group(1)
    if current in KERNELS and current not in done and line.startswith("#pragma omp parallel for"):
        out += ["#pragma omp parallel" + line[len("#pragma omp parallel for"):], "{",
                'larm_region_begin("%s");' % current, "#pragma omp for"]
        depth, started = 0, False
        i += 1
        while True:  # the loop, through its matching brace
            out.append(lines[i])
            depth += lines[i].count("{") - lines[i].count("}")
            started = started or "{" in lines[i]
            i += 1
            if started and depth == 0:
                break
        out += ['larm_region_end("%s");' % current, "}"]
        done.add(current)
        continue
    out.append(line)
    i += 1
if done != KERNELS:
    sys.exit("patch_mg.py: kernels not found: %s" % sorted(KERNELS - done))
text = "\n".join(out).replace('#include "npb-C.h"', '#include "npb-C.h"\n#include <larm/region.h>', 1)
open(path, "w").write(text)
