"""A liblarm region "lookups" around XSBench's event-based lookup loop (openmp-threading/
Simulation.c), begun and ended by every thread of the parallel region.

  python3 patch_xsbench.py openmp-threading/Simulation.c"""
import sys

path = sys.argv[1]
s = open(path).read()
head = ("\t#pragma omp parallel for schedule(dynamic,100) reduction(+:verification)\n"
        "\tfor( i = 0; i < in.lookups; i++ )\n\t{")
if s.count(head) != 1:
    sys.exit("patch_xsbench.py: the event-based lookup loop was not found once")
start = s.index(head)
k, depth = start + len(head) - 1, 0
while True:  # the loop's body, through its matching brace
    depth += {"{": 1, "}": -1}.get(s[k], 0)
    if depth == 0:
        break
    k += 1
body = s[start + len(head) - 1:k + 1]
s = (s[:start] + "\t#pragma omp parallel reduction(+:verification)\n\t{\n"
     '\tlarm_region_begin("lookups");\n\t#pragma omp for schedule(dynamic,100)\n'
     "\tfor( i = 0; i < in.lookups; i++ )\n\t" + body + '\n\tlarm_region_end("lookups");\n\t}' +
     s[k + 1:])
open(path, "w").write("#include <larm/region.h>\n" + s)
