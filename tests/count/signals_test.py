"""SIGINT and SIGTERM while larm runs a program: the program and larm's children end, every run
that finished is kept as a complete, readable output, one line says so, and larm exits 128 + the
signal. The signal is sent to larm alone (as `kill PID` or a batch system does), not to its
process group: larm passes it on.
    signals_test.py LARM HOSTILE_PROGRAM PROFILE_PROGRAM
HOSTILE_PROGRAM nap S sleeps S seconds once its regions are written; PROFILE_PROGRAM is an
unmodified OpenMP program."""
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from cli_helpers import Checker  # noqa: E402

larm, hostile, profiled = sys.argv[1], sys.argv[2], sys.argv[3]
c = Checker()
work = tempfile.mkdtemp(prefix="larm-signals-")


def start(*args):
    return subprocess.Popen([larm, *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, start_new_session=True)


def wait_for(condition, seconds):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.05)
    return False


def finish(process, what, within=60):
    """The process's exit, output and errors; killed (and a failure) past `within` seconds."""
    try:
        out, err = process.communicate(timeout=within)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        out, err = process.communicate()
        c.check(False, f"{what}: larm did not end within {within} s of the signal")
    return process.returncode, out, err


def alive(pid):
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    # A zombie is ended.
    with open(f"/proc/{pid}/stat") as f:
        return f.read().rsplit(")", 1)[1].split()[0] != "Z"


def interrupted_line(err, name, what):
    lines = [line for line in err.splitlines() if "interrupted" in line]
    c.check(len(lines) == 1 and f"({name})" in lines[0],
            f"{what}: one line saying larm was interrupted by {name}: {err!r}")
    return lines[0] if lines else ""


# larm count --repeat 4: SIGTERM during the second native run keeps the first, merged.
out = os.path.join(work, "count")
p = start("count", "--repeat", "4", "--no-cache-model", "--out", out, "--", hostile, "nap", "3")
c.check(wait_for(lambda: os.path.isdir(os.path.join(out, "timed", "run-2")), 60),
        "count: native run 2 began")
time.sleep(0.5)
sent = time.monotonic()
p.send_signal(signal.SIGTERM)
code, stdout, err = finish(p, "count")
c.check_equal(code, 143, f"count: exit on SIGTERM ({err!r})")
c.check(time.monotonic() - sent < 15, "count: ended soon after the signal, not after its runs")
line = interrupted_line(err, "SIGTERM", "count")
c.check("native run 2" in line and "1 completed run(s) kept" in line, f"count: {line!r}")
c.check(not os.path.isdir(os.path.join(out, "timed", "run-3")), "count: run 3 was not started")
try:
    runs = json.load(open(os.path.join(out, "runs.json")))
    c.check_equal(len(runs["native_runs"]), 1, "count: runs.json holds the finished run")
    merged = json.load(open(os.path.join(out, "timed", "regions.json")))
    c.check(any(r["name"] == "work" for r in merged["regions"]),
            "count: timed/regions.json holds the finished run's region")
except (OSError, ValueError, KeyError) as e:
    c.check(False, f"count: the finished run's files: {e}")

# larm monitor: a program that ignores SIGTERM is killed after the grace, its children too.
out = os.path.join(work, "monitor")
pids = os.path.join(work, "monitor-pids")
p = start("monitor", "--out", out, "--period", "50", "--", "sh", "-c",
          f"trap '' TERM; sleep 120 & echo $! > {pids}; wait")
c.check(wait_for(lambda: os.path.exists(pids) and os.path.getsize(pids) > 0, 60),
        "monitor: the program started")
time.sleep(0.3)
p.send_signal(signal.SIGTERM)
code, stdout, err = finish(p, "monitor", within=90)
c.check_equal(code, 143, f"monitor: exit on SIGTERM ({stdout!r} {err!r})")
c.check("interrupted: SIGTERM" in stdout, f"monitor: says it was interrupted: {stdout!r}")
try:
    child = int(open(pids).read())
    c.check(not alive(child), "monitor: the program's child ended with it")
    trace = json.load(open(os.path.join(out, "trace.json")))
    c.check("monitors" in trace, "monitor: trace.json is complete")
except (OSError, ValueError) as e:
    c.check(False, f"monitor: {e}")

# larm monitor --pid: SIGTERM stops the watch, the trace is kept, the process keeps running.
watched = subprocess.Popen(["sleep", "120"])
out = os.path.join(work, "monitor-pid")
p = start("monitor", "--out", out, "--period", "50", "--pid", str(watched.pid))
c.check(wait_for(lambda: os.path.exists(os.path.join(out, "trace.csv")), 60),
        "monitor --pid: the trace began")
time.sleep(0.5)
p.send_signal(signal.SIGTERM)
code, stdout, err = finish(p, "monitor --pid")
c.check_equal(code, 143, f"monitor --pid: exit on SIGTERM ({err!r})")
c.check(os.path.exists(os.path.join(out, "trace.json")), "monitor --pid: trace.json kept")
c.check(watched.poll() is None, "monitor --pid: the watched process was left running")
watched.kill()
watched.wait()

# larm loaded-latency: Ctrl-C (SIGINT) keeps the points finished.
out = os.path.join(work, "loaded")
p = start("loaded-latency", "--mix", "1", "--samples", "3", "--delays",
          ",".join(["4096"] * 3000), "--out", out)
time.sleep(4)
p.send_signal(signal.SIGINT)
code, stdout, err = finish(p, "loaded-latency")
c.check_equal(code, 130, f"loaded-latency: exit on SIGINT ({err!r})")
line = interrupted_line(err, "SIGINT", "loaded-latency")
curves_file = os.path.join(out, "loaded-latency.json")
finished = re.search(r"; (\d+) point\(s\) finished", line)
if finished and finished.group(1) == "0":  # the signal came before the first point
    c.check("nothing kept" in line and not os.path.exists(curves_file),
            f"loaded-latency: nothing finished, nothing written: {line!r}")
else:
    try:
        curves = json.load(open(curves_file))
        points = sum(len(curve["points"]) for curve in curves)
        c.check(0 < points < 3001, f"loaded-latency: {points} finished points kept")
        c.check(f"{points} point(s) finished" in line, f"loaded-latency: {line!r}")
    except (OSError, ValueError, KeyError) as e:
        c.check(False, f"loaded-latency: the finished points: {e} ({err!r})")

# larm profile --repeat 3: SIGTERM after the first sampled run keeps its perf.data.
if shutil.which("perf") is None:
    print("perf is not installed: larm profile's interruption is not checked")
else:
    out = os.path.join(work, "profile")
    p = start("profile", "--repeat", "3", "--no-cache-model", "--out", out, "--", profiled)
    c.check(wait_for(lambda: os.path.isdir(os.path.join(out, "sampled", "run-2")), 120),
            "profile: sampled run 2 began")
    p.send_signal(signal.SIGTERM)
    code, stdout, err = finish(p, "profile", within=120)
    c.check_equal(code, 143, f"profile: exit on SIGTERM ({err!r})")
    line = interrupted_line(err, "SIGTERM", "profile")
    c.check("error" not in err.lower(), f"profile: an interruption is not an error: {err!r}")
    c.check(os.path.getsize(os.path.join(out, "sampled", "run-1", "perf.data")) > 0,
            "profile: the first sampled run's perf.data is kept")

shutil.rmtree(work, ignore_errors=True)
c.finish()
