"""Regions of liblarm in NPB MG (the C + OpenMP port, mg.c): each `#pragma omp parallel for` of
resid, psinv, interp and rprj3 becomes `omp parallel` + larm_region_begin + `omp for` + end, so
that every thread records its own share (a begin/end around the `parallel for` on the calling
thread would count that thread alone).

With --data, the three arrays u, v and r are tagged as data handles (larm_data_tag, one per
array, row by row as MG allocates them) and every region uses them; compiled with -DMG_CONTIGUOUS,
each level of an array is one block instead (its rows point into it), tagged once before anything
touches it, so that its pages are first-touched by the parallel loops: the sequential-
initialization note of `larm place` must show for MG as shipped and not for this variant.

With --master-only, the regions are instead begun and ended on the calling thread around each
`#pragma omp parallel for` (the pattern that records one thread's share): larm must warn.

  python3 patch_mg.py MG/mg.c [--data] [--master-only]"""
import re
import sys

KERNELS = {"psinv", "resid", "rprj3", "interp"}
path = sys.argv[1]
with_data = "--data" in sys.argv[2:]
master_only = "--master-only" in sys.argv[2:]
lines = open(path).read().split("\n")
out, done, current, i = [], set(), None, 0
while i < len(lines):
    line = lines[i]
    m = re.match(r"static void (\w+)\(", line)
    if m and not line.rstrip().endswith(";"):
        current = m.group(1)
    if current in KERNELS and current not in done and line.startswith("#pragma omp parallel for"):
        if master_only:
            out += ['larm_region_begin("%s");' % current, line]
        else:
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
        out += ['larm_region_end("%s");' % current] + ([] if master_only else ["}"])
        done.add(current)
        continue
    out.append(line)
    i += 1
if done != KERNELS:
    sys.exit("patch_mg.py: kernels not found: %s" % sorted(KERNELS - done))
text = "\n".join(out).replace('#include "npb-C.h"', '#include "npb-C.h"\n#include <larm/region.h>', 1)
if with_data:
    # u[l][k][j] = (double *)malloc(m1[l]*sizeof(double));  (v[k][j] with m1[lt])
    row = re.compile(r"^(\s*)(u\[l\]\[k\]\[j\]|v\[k\]\[j\]|r\[l\]\[k\]\[j\]) = "
                     r"\(double \*\)malloc\((m1\[(l|lt)\])\*sizeof\(double\)\);$", re.M)
    count = [0]

    def tagged(m):
        count[0] += 1
        indent, target, m1, level = m.group(1), m.group(2), m.group(3), m.group(4)
        name = target[0]
        if name == "v":
            block, first = "mg_block_v", "(((size_t)k * m2[lt] + j) * m1[lt])"
            size = "(size_t)m3[lt] * m2[lt] * m1[lt]"
        else:
            block, first = "mg_block_%s[l]" % name, "(((size_t)k * m2[l] + j) * m1[l])"
            size = "(size_t)m3[l] * m2[l] * m1[l]"
        return ("#ifdef MG_CONTIGUOUS\n"
                f"{indent}if (k == 0 && j == 0) {{\n"
                f"{indent}    {block} = (double *)malloc({size} * sizeof(double));\n"
                f'{indent}    larm_data_tag("{name}", {block}, {size} * sizeof(double));\n'
                f"{indent}}}\n"
                f"{indent}{target} = {block} + {first};\n"
                "#else\n"
                f"{indent}{target} = (double *)malloc({m1}*sizeof(double));\n"
                f'{indent}larm_data_tag("{name}", {target}, {m1}*sizeof(double));\n'
                "#endif")
    text = row.sub(tagged, text)
    if count[0] != 3:
        sys.exit("patch_mg.py: %d of the 3 row allocations found" % count[0])
    uses = "".join('    larm_region_uses("%s", "%s");\n' % (k, a)
                   for k in sorted(KERNELS) for a in "uvr")
    text = text.replace("    zero3(u[lt],n1,n2,n3);\n    zran3(v,n1,n2,n3,nx[lt],ny[lt],lt);",
                        uses + "    zero3(u[lt],n1,n2,n3);\n    zran3(v,n1,n2,n3,nx[lt],ny[lt],lt);", 1)
    if "larm_region_uses" not in text:
        sys.exit("patch_mg.py: the initialization after the allocations not found")
    text = text.replace("static void setup(int *n1, int *n2, int *n3, int lt);",
                        "static void setup(int *n1, int *n2, int *n3, int lt);\n"
                        "#ifdef MG_CONTIGUOUS\n"
                        "static double *mg_block_u[MAXLEVEL + 1], *mg_block_r[MAXLEVEL + 1], "
                        "*mg_block_v;\n#endif", 1)
open(path, "w").write(text)
