"""larm monitor end to end: bad descriptions, events, levels and programs refused before any work
(exit 2, one line, nothing written), a program that exits at once or fails (trace kept, exit 0 or
1), the program's threads followed on the PU they are bound to, its pages on its node against its
own count, a running process by --pid, and a link planted at trace.csv replaced, never followed.

    monitor_cli_test.py LARM WORK_DIR
"""
import csv
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

from cli_helpers import Checker, run

larm = sys.argv[1]
work = tempfile.mkdtemp(prefix="larm-monitor-", dir=sys.argv[2] if len(sys.argv) > 2 else None)
c = Checker()


def trace_rows(out):
    with open(os.path.join(out, "trace.csv"), newline="") as f:
        return list(csv.DictReader(f))


def refused(args, why, *needles):
    out = os.path.join(work, "refused")
    r = run(larm, "monitor", "--out", out, *args, timeout=60)
    lines = r.stderr.strip().splitlines()
    c.check_equal(r.returncode, 2, f"{why}: exit status ({r.stderr.strip()})")
    c.check(len(lines) == 1, f"{why}: one line ({r.stderr!r})")
    for needle in needles:
        c.check(needle in r.stderr, f"{why}: says {needle!r} ({r.stderr.strip()})")
    c.check(not os.path.exists(out), f"{why}: nothing written before the refusal")


def monitor_python(name, code, period):
    """larm monitor --period PERIOD over python -c CODE into WORK/NAME: (run, output directory)."""
    out = os.path.join(work, name)
    r = run(larm, "monitor", "--out", out, "--period", period, "--", sys.executable, "-c", code,
            timeout=120)
    c.check_equal(r.returncode, 0, f"{name}: exit status ({r.stderr})")
    return r, out


def description(name, text):
    path = os.path.join(work, name)
    with open(path, "w") as f:
        f.write(text)
    return path


refused(["--monitors", description("malformed", "cpu{ OBJ:=PU; PERF_LIB:=linux;\n")],
        "a block not closed", "malformed:1", "not closed")
refused(["--monitors", description("event", "cpu{ OBJ:=PU; PERF_LIB:=linux; EVSET:=cpu_wat; }\n"),
         "--", "true"], "an event no source has", "linux has no event cpu_wat")
refused(["--monitors", description("level", "c{ OBJ:=L4; PERF_LIB:=linux; EVSET:=cpu_busy; }\n"),
         "--", "true"], "a level the topology lacks", "this topology has no L4")
refused(["--monitors", description("papi", "c{ OBJ:=PU; PERF_LIB:=papi; EVSET:=PAPI_L3_TCA; }\n"),
         "--", "true"], "PAPI's events", "papi has no event PAPI_L3_TCA")
refused(["--monitors", description("region", "r{ OBJ:=PU; PERF_LIB:=region; EVSET:=seconds:solve; }\n"),
         "--", "true"], "region events from outside", "read inside the program", "larm_monitor_init")
refused(["--monitors", description("rate", "c{ OBJ:=PU; PERF_LIB:=linux; EVSET:=cpu_busy; }\n"
                                   "r{ OBJ:=Machine; PERF_LIB:=rate; EVSET:=c; }\n"), "--", "true"],
        "a rate of another level", "the level of the monitor it reads")
refused(["--monitors", os.path.join(work, "missing.mon"), "--", "true"], "a missing file",
        "missing.mon")
refused([], "no program", "give a program")
refused(["--pid", "4194303"], "a process that does not exist", "no such process")
refused(["--", "/no/such/program"], "a program that does not exist", "/no/such/program")
refused(["--period", "0", "--", "true"], "a period of 0 ms", "--period")
refused(["--picture", "nosuch", "--", "true"], "a picture of no monitor", "--picture nosuch")
refused(["--picture", "cpu.wat", "--", "true"], "a picture of no value", "has no value wat")

# A program that exits at once: the first and the last sample, exit 0.
out = os.path.join(work, "at-once")
r = run(larm, "monitor", "--out", out, "--", "true", timeout=60)
c.check_equal(r.returncode, 0, f"a program that exits at once: exit status ({r.stderr})")
rows = trace_rows(out)
times = sorted({float(row["time_s"]) for row in rows})
c.check(len(times) >= 2, f"a program that exits at once: two samples at least ({len(times)})")
# trace.json: the same rows, with the monitors, as its schema says.
schema = json.load(open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "results",
                                     "schema", "monitor-trace-v1.schema.json")))
doc = json.load(open(os.path.join(out, "trace.json")))
c.check_schema(doc, schema, "trace.json against its schema")
c.check_equal(len(doc["rows"]), len(rows), "trace.json: the rows of trace.csv")
c.check_equal([r[1] for r in doc["rows"]], [row["monitor"] for row in rows],
              "trace.json: in trace.csv's order")
c.check("cpu" in [m["name"] for m in doc["monitors"]], "trace.json: the monitors described")
# The time series: a script and data per traced monitor, images where gnuplot is installed.
figures = os.path.join(out, "figures")
traced = {row["monitor"] for row in rows}
for name in traced:
    c.check(os.path.isfile(os.path.join(figures, f"monitor_{name}.gp")), f"figure script of {name}")
if shutil.which("gnuplot"):
    svg = os.path.join(figures, "monitor_cpu.svg")
    c.check(os.path.isfile(svg) and open(svg).read().rstrip().endswith("</svg>"),
            "the cpu time series drawn")

# A program that fails: exit 1, its trace kept.
out = os.path.join(work, "fails")
r = run(larm, "monitor", "--out", out, "--", "sh", "-c", "sleep 0.2; exit 3", timeout=60)
c.check_equal(r.returncode, 1, f"a program that fails: exit status ({r.stderr})")
c.check("exited with status 3" in r.stdout, f"a program that fails: says how ({r.stdout})")
c.check(len(trace_rows(out)) > 0, "a program that fails: its trace kept")

# Threads bound to the last CPU this process may use: followed there, on no other PU.
cpus = sorted(os.sched_getaffinity(0))
last = cpus[-1]
spinner = ("import os, threading, time\n"
           f"os.sched_setaffinity(0, {{{last}}})\n"
           "def spin():\n"
           "    end = time.time() + 1.0\n"
           "    while time.time() < end: pass\n"
           "threads = [threading.Thread(target=spin) for _ in range(2)]\n"
           "[t.start() for t in threads]; [t.join() for t in threads]\n")
r, out = monitor_python("bound", spinner, "50")
rows = trace_rows(out)
busy_pus = {}
for row in rows:
    if row["monitor"] == "cpu" and row["value_name"] == "task_threads" and float(row["value"]) > 0:
        busy_pus.setdefault(row["object"], 0)
        busy_pus[row["object"]] += 1
later = [t for t in busy_pus if t != f"PU P#{last}"]
c.check(f"PU P#{last}" in busy_pus, f"bound threads: seen on PU P#{last} ({busy_pus})")
# The interpreter's threads start on the parent's CPUs before the binding: a sample or two there.
c.check(all(busy_pus[t] <= 2 for t in later),
        f"bound threads: on no other PU after the binding ({busy_pus})")
cpu_seconds = sum(float(row["value"]) for row in rows
                  if row["monitor"] == "cpu" and row["value_name"] == "task_cpu_seconds")
xml = open(os.path.join(out, "topology.xml")).read()
pictured = re.findall(r'name="larm cpu cpu_busy" value="([^"]*)"', xml)
c.check(len(pictured) == len(os.sched_getaffinity(0)) or len(pictured) >= 1,
        f"bound threads: topology.xml carries each PU's peak busy share ({len(pictured)})")
c.check(xml.count('name="lstopoStyle"') >= len(pictured), "bound threads: each pictured PU coloured")
if shutil.which("lstopo-no-graphics") or shutil.which("lstopo"):
    svg = open(os.path.join(out, "topology.svg")).read()
    c.check(svg.rstrip().endswith("</svg>"), "bound threads: lstopo drew topology.svg")
c.check(0.2 <= cpu_seconds <= 3.0,
        f"bound threads: the program's CPU seconds summed over the samples ({cpu_seconds:.2f}; two "
        "threads sharing one CPU for 1 s)")

# Pages: a program touching 96 MiB, then sleeping; its pages on its nodes against its own RSS.
toucher = ("import mmap, time\n"
           "m = mmap.mmap(-1, 96 << 20)\n"
           "for i in range(0, 96 << 20, 4096): m[i] = 1\n"
           "rss = [l for l in open('/proc/self/status') if l.startswith('VmRSS')][0]\n"
           "print(int(rss.split()[1]) * 1024, flush=True)\n"
           "time.sleep(0.6)\n")
r, out = monitor_python("pages", toucher, "100")
rss = int(r.stdout.splitlines()[0]) if r.stdout.strip() and r.stdout.split()[0].isdigit() else 0
by_time = {}
for row in trace_rows(out):
    if row["monitor"] == "memory" and row["value_name"] == "process_bytes":
        by_time[float(row["time_s"])] = by_time.get(float(row["time_s"]), 0) + float(row["value"])
peak = max(by_time.values()) if by_time else 0
c.check(rss > 96 << 20 and 0.9 * rss <= peak <= 1.1 * rss,
        f"pages: the peak of its pages over its nodes ({peak / 2**20:.1f} MiB) within 10 % of "
        f"the RSS it counted itself ({rss / 2**20:.1f} MiB)")

# A running process by --pid, for a bounded time.
sleeper = subprocess.Popen(["sleep", "30"])
try:
    out = os.path.join(work, "pid")
    r = run(larm, "monitor", "--out", out, "--pid", str(sleeper.pid), "--seconds", "0.3",
            "--period", "50", timeout=60)
    c.check_equal(r.returncode, 0, f"--pid: exit status ({r.stderr})")
    c.check("still running (--seconds)" in r.stdout, f"--pid: says it stopped on time ({r.stdout})")
    c.check(len({row["time_s"] for row in trace_rows(out)}) >= 3, "--pid: samples taken")
finally:
    sleeper.kill()
    sleeper.wait()

# A link planted at trace.csv: replaced, its target untouched.
out = os.path.join(work, "planted")
os.makedirs(out)
target = os.path.join(work, "target")
with open(target, "w") as f:
    f.write("keep")
os.symlink(target, os.path.join(out, "trace.csv"))
r = run(larm, "monitor", "--out", out, "--", "true", timeout=60)
c.check_equal(r.returncode, 0, f"planted link: exit status ({r.stderr})")
c.check(not os.path.islink(os.path.join(out, "trace.csv")), "planted link: replaced")
c.check(open(target).read() == "keep", "planted link: its target untouched")

# Monitors whose names differ only where a file name cannot hold them, and one past NAME_MAX:
# a figure each, none sharing a file, every file name within NAME_MAX.
long_name = "m" * 300
names = ["x.y", "x_y", "x:y", long_name]
text = "".join(f"{n}{{ OBJ:=PU; PERF_LIB:=linux; EVSET:=cpu_busy; }}\n" for n in names)
out = os.path.join(work, "names")
r = run(larm, "monitor", "--out", out, "--monitors", description("names.mon", text),
        "--picture", "x_y", "--", "true", timeout=120)
c.check_equal(r.returncode, 0, f"figure names: exit status ({r.stderr})")
scripts = sorted(f for f in os.listdir(os.path.join(out, "figures")) if f.endswith(".gp")) \
    if os.path.isdir(os.path.join(out, "figures")) else []
c.check_equal(len(scripts), 4, f"figure names: a script per monitor ({scripts})")
c.check(all(len(f.encode()) <= 255 for f in scripts), f"figure names: within NAME_MAX ({scripts})")
for n in names:
    c.check(any(n in open(os.path.join(out, "figures", f)).read() for f in scripts),
            f"figure names: {n[:20]}'s figure titled after it")

# Many monitors: a bounded number of figures (gnuplot runs), the others said to be in trace.csv.
text = "".join(f"m{i}{{ OBJ:=PU; PERF_LIB:=linux; EVSET:=cpu_busy; }}\n" for i in range(40))
out = os.path.join(work, "many")
r = run(larm, "monitor", "--out", out, "--monitors", description("many.mon", text),
        "--picture", "m0", "--", "true", timeout=300)
c.check_equal(r.returncode, 0, f"40 monitors: exit status ({r.stderr})")
drawn = [f for f in os.listdir(os.path.join(out, "figures")) if f.endswith(".gp")] \
    if os.path.isdir(os.path.join(out, "figures")) else []
c.check(0 < len(drawn) <= 32 and f"the first {len(drawn)} of the 40 traced monitors" in r.stdout,
        f"40 monitors: {len(drawn)} figures, said: {r.stdout[-400:]!r}")

# --from a trace whose trace.json and trace.csv disagree, or whose monitor has no values: one
# line and exit 2, nothing drawn (no crash).
source = os.path.join(work, "at-once")


def without_values(doc):
    """The first monitor with no values, and its rows gone (as its trace.csv's below)."""
    doc["monitors"][0]["values"] = []
    doc["rows"] = [row for row in doc["rows"] if row[1] != doc["monitors"][0]["name"]]


for what, edit_json, extra_csv, needle in (
        ("a monitor without values (nor rows)", without_values, "drop", "has no values"),
        ("a trace.csv row of no described monitor", None,
         "0.5,ghost,Machine,Machine L#0,v,1\n", "ghost is not described"),
        ("a trace.csv with fewer rows", None, "", "fewer rows")):
    out = os.path.join(work, "from-" + what.replace(" ", "-"))
    shutil.copytree(source, out)
    shutil.rmtree(os.path.join(out, "figures"), ignore_errors=True)
    if edit_json:
        doc = json.load(open(os.path.join(out, "trace.json")))
        edit_json(doc)
        json.dump(doc, open(os.path.join(out, "trace.json"), "w"))
    name = json.load(open(os.path.join(out, "trace.json")))["monitors"][0]["name"]
    if extra_csv is not None:
        lines = open(os.path.join(out, "trace.csv")).read().splitlines(keepends=True)
        if extra_csv == "drop":
            body = [lines[0]] + [line for line in lines[1:] if line.split(",")[1] != name]
        else:
            body = lines + [extra_csv] if extra_csv else lines[:-1]
        open(os.path.join(out, "trace.csv"), "w").write("".join(body))
    r = run(larm, "monitor", "--from", out, "--picture", name, timeout=120)
    lines = r.stderr.strip().splitlines()
    c.check(r.returncode == 2 and len(lines) == 1 and needle in lines[0],
            f"--from, {what}: exit {r.returncode}, {r.stderr.strip()!r}")
    c.check(not os.path.exists(os.path.join(out, "figures")), f"--from, {what}: nothing drawn")

shutil.rmtree(work, ignore_errors=True)
c.finish()
