"""Checks larm monitor's trace of page_mover in the three-node guest: after each move of its pages
(node 0, then 1, then 2, as move_pages reported them there), the first sample taken after the move
finds at least 90 % of those bytes on the new node, and it comes within one sample period of the
move.

    check_monitor.py WORK_DIR PERIOD_S
"""
import csv
import re
import sys

work, period = sys.argv[1], float(sys.argv[2])
console = open(f"{work}/monitor.txt").read()
failures = 0


def check(ok, message):
    global failures
    print(("ok   " if ok else "FAIL ") + message)
    failures += 0 if ok else 1


base = re.search(r"its time 0 is CLOCK_MONOTONIC ([0-9.]+) s", console)
moves = [(int(n), float(t), int(k), int(p)) for n, t, k, p in
         re.findall(r"moved to node (\d) at ([0-9.]+) s: (\d+) of (\d+) pages there", console)]
check(base is not None, "the trace says its time base")
check(len(moves) == 3, f"page_mover reported three placements ({len(moves)})")
if base is None or len(moves) != 3:
    print(console[-3000:])
    sys.exit(1)
t0 = float(base.group(1))
samples = {}
with open(f"{work}/monitor-trace.csv", newline="") as f:
    for row in csv.DictReader(f):
        if row["monitor"] == "pages" and row["value_name"] == "process_bytes":
            node = int(row["object"].split("#")[1])
            samples.setdefault(float(row["time_s"]), {})[node] = float(row["value"])
times = sorted(samples)
check(len(times) >= 4, f"samples in the trace ({len(times)})")
page_bytes = 4096
for node, at, there, pages in moves:
    check(there == pages, f"ground truth: move_pages finds {there} of {pages} pages on node {node}")
    moved = at - t0
    after = [t for t in times if t >= moved]
    if not after:
        check(False, f"a sample after the move to node {node} at {moved:.3f} s")
        continue
    first = after[0]
    on_node = samples[first].get(node, 0)
    check(first - moved <= period * 1.5 + 0.05,
          f"move to node {node} at {moved:.3f} s: first sample {first - moved:.3f} s later "
          f"(period {period:.3f} s)")
    check(on_node >= 0.9 * pages * page_bytes,
          f"move to node {node}: the sample finds {on_node / 2**20:.1f} MiB there "
          f"({pages * page_bytes / 2**20:.0f} MiB moved)")
    before = [t for t in times if t < moved - period]
    if node > 0 and before:
        previous = samples[before[-1]].get(node, 0)
        check(previous < 0.5 * pages * page_bytes,
              f"move to node {node}: the sample before it ({before[-1]:.3f} s) finds "
              f"{previous / 2**20:.1f} MiB there")
print(f"monitor in the guest: {failures} failures")
sys.exit(1 if failures else 0)
