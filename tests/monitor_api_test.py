"""The monitor API of liblarm (larm/monitor.h) from inside programs: its rules on misuse
(tests/monitor_api_misuse.c), and the thesis' two groups of threads (examples/thread_groups.c),
balanced then packed, whose region bytes the trace must give back exactly, per PU and for the
machine, against the bytes each thread counted itself and the CPU it was bound to.

Then what larm draws of such a trace: larm monitor --from (topology, time series) and larm plot
--monitor (each region's samples on the LARM, one per sample with FLOPs and bytes).

    monitor_api_test.py THREAD_GROUPS MISUSE LARM WORK_DIR
"""
import collections
import json
import os
import re
import shutil
import sys
import tempfile

from cli_helpers import Checker, run

groups_program, misuse_program, larm = sys.argv[1], sys.argv[2], sys.argv[3]
work = tempfile.mkdtemp(prefix="larm-monitor-api-", dir=sys.argv[4] if len(sys.argv) > 4 else None)
repo = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
schema = json.load(open(os.path.join(repo, "results", "schema", "monitor-trace-v1.schema.json")))
monitors = os.path.join(repo, "examples", "monitors", "thread_groups.monitors")
c = Checker()
env = dict(os.environ, LARM_COUNTERS="off")


def valid_trace(out, what):
    doc = json.load(open(os.path.join(out, "trace.json")))
    c.check_schema(doc, schema, f"{what}: trace.json against its schema")
    return doc


# Misuse: each call -1 with a message, nothing aborts; the trace written at finalize.
bad = os.path.join(work, "bad.monitors")
with open(bad, "w") as f:
    f.write("cpu{ OBJ:=PU; PERF_LIB:=linux; EVSET:=cpu_wat; }\n")
out = os.path.join(work, "misuse")
r = run(misuse_program, out, bad, timeout=120, env=env)
for line in r.stdout.splitlines():
    c.check(line.startswith("ok ") or line.startswith("skipped "), f"misuse: {line}")
c.check_equal(r.returncode, 0, f"misuse: exit status ({r.stderr.strip()})")
c.check("bad.monitors:1" in r.stderr and "cpu_wat" in r.stderr,
        f"misuse: the bad description's line said ({r.stderr.strip()})")
c.check(all(line.startswith("larm: ") for line in r.stderr.strip().splitlines()
            if not line.startswith("==")),  # a sanitizer's own lines
        "misuse: every message one 'larm: ' line")
doc = valid_trace(out, "misuse")
c.check_equal(doc["period_seconds"], 0.01, "misuse: the sampling period recorded")
c.check(len({row[0] for row in doc["rows"]}) >= 3, "misuse: the update, the sampling's first and last")

# The two groups, balanced then packed.
for placement in ("balanced", "packed"):
    out = os.path.join(work, placement)
    r = run(groups_program, placement, "1.0", "2", out, monitors, timeout=120, env=env)
    c.check_equal(r.returncode, 0, f"{placement}: exit status ({r.stderr.strip()})")
    threads = [(m.group(1), int(m.group(2)), float(m.group(3))) for m in
               re.finditer(r"thread \d+: (\w+) on CPU (\d+), (\d+) bytes", r.stdout)]
    c.check_equal(len(threads), 4, f"{placement}: four threads reported")
    declared = {m.group(1): float(m.group(2)) for m in
                re.finditer(r"(\w+_walk) bytes: (\d+)", r.stdout)}
    doc = valid_trace(out, placement)
    traced = collections.defaultdict(float)
    for t, monitor, level, obj, value_name, value in doc["rows"]:
        if monitor in ("walk_pu", "walk_machine") and value_name.startswith("bytes:"):
            traced[(monitor, obj, value_name[len("bytes:"):])] += value
    expected = collections.defaultdict(float)
    for region, cpu, count in threads:
        expected[("walk_pu", f"PU P#{cpu}", region)] += count
    for (monitor, obj, region), count in expected.items():
        c.check_equal(traced[(monitor, obj, region)], count,
                      f"{placement}: {region} bytes on {obj}, summed over the samples")
    pus_used = {obj for (monitor, obj, region) in traced if monitor == "walk_pu"}
    for (monitor, obj, region), count in traced.items():
        if monitor == "walk_pu" and (monitor, obj, region) not in expected:
            c.check_equal(count, 0.0, f"{placement}: no {region} bytes on {obj}, where none ran")
    for region in ("cache_walk", "memory_walk"):
        c.check_equal(traced[("walk_machine", "Machine L#0", region)], declared.get(region),
                      f"{placement}: the machine's {region} bytes against the program's total")
    cpus = collections.defaultdict(set)
    for region, cpu, count in threads:
        cpus[region].add(cpu)
    if len(os.sched_getaffinity(0)) >= 2:
        if placement == "packed":
            c.check(not (cpus["cache_walk"] & cpus["memory_walk"]),
                    f"packed: the groups on different CPUs ({dict(cpus)})")
        else:
            c.check(cpus["cache_walk"] == cpus["memory_walk"],
                    f"balanced: each CPU runs both groups ({dict(cpus)})")
    rates = [row for row in doc["rows"] if row[1] == "walk_rate_pu"]
    c.check(any(row[5] > 0 for row in rates), f"{placement}: the rates per PU traced")

# The packed run's trace drawn: the topology and the time series from the trace alone.
packed = os.path.join(work, "packed")
r = run(larm, "monitor", "--from", packed, "--picture", "walk_pu.bytes:memory_walk", timeout=120)
c.check_equal(r.returncode, 0, f"--from: exit status ({r.stderr.strip()})")
xml = open(os.path.join(packed, "topology.xml")).read()
c.check("walk_pu" in xml, "--from: the pictured monitor's values on the topology")
c.check(os.path.isfile(os.path.join(packed, "figures", "monitor_walk_pu.gp")),
        "--from: the time series of walk_pu")
r = run(larm, "monitor", "--from", os.path.join(work, "nowhere"), timeout=60)
c.check_equal(r.returncode, 2, "--from a directory without a trace: exit 2")

# Each region's samples on the LARM of a results directory whose domain 0 holds PUs 0-3.
fixture = os.path.join(repo, "tests", "fixtures", "broadwell-table42")
doc = json.load(open(os.path.join(packed, "trace.json")))
sums = collections.defaultdict(lambda: [0.0, 0.0])
for t, monitor, level, obj, value_name, value in doc["rows"]:
    if monitor != "walk_pu" or int(obj.split("#")[1]) > 3 or t <= 0:
        continue
    kind, region = value_name.split(":")
    if kind in ("flops", "bytes"):
        sums[(region, t)][0 if kind == "flops" else 1] += value
expected = collections.Counter(region for (region, t), (f, b) in sums.items() if f > 0 and b > 0)
plots = os.path.join(work, "plots")
r = run(larm, "plot", fixture, "--monitor", packed, "--out", plots, "--check", timeout=300)
c.check_equal(r.returncode, 0, f"plot --monitor: exit status ({r.stderr.strip()})")
blocks, region = collections.Counter(), None
with open(os.path.join(plots, "larm-domain0-trajectory.dat")) as f:
    for line in f:
        if line.startswith("# region "):
            region = line.split()[2]
        elif line.strip() and not line.startswith("#"):
            blocks[region] += 1
# Samples too slow for the figure's range are left out, and its caption counts them.
caption = next((line for line in r.stdout.splitlines() if line.startswith("larm-domain0:")), "")
below = re.search(r"(\d+) samples of a monitored run below the axis", caption)
below = int(below.group(1)) if below else 0
c.check(set(blocks) <= set(expected), f"plot --monitor: only the traced regions ({dict(blocks)})")
for region in blocks:
    c.check(blocks[region] <= expected[region], f"plot --monitor: at most a point per {region} sample")
c.check_equal(sum(blocks.values()) + below, sum(expected.values()),
              f"plot --monitor: a LARM point per sample and region, drawn or counted below "
              f"({dict(blocks)}, {below} below)")
c.check(os.path.isfile(os.path.join(plots, "monitor_walk_rate_pu.gp")),
        "plot --monitor: the time series beside the LARM")
r = run(larm, "plot", fixture, "--monitor", os.path.join(work, "nowhere"), "--out", plots,
        timeout=60)
c.check_equal(r.returncode, 2, "plot --monitor without a trace: exit 2")

# A description the program's monitors refuse: the program's own failure, said in one line.
r = run(groups_program, "packed", "0.1", "1", os.path.join(work, "refused"), bad, timeout=60,
        env=env)
c.check_equal(r.returncode, 1, "a refused description: the program fails")
c.check("cpu_wat" in r.stderr, f"a refused description: said ({r.stderr.strip()})")

shutil.rmtree(work, ignore_errors=True)
c.finish()
