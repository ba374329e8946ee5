#!/usr/bin/env python3
"""Interval coverage (issue 29): does a roof's value in one run fall inside another run's interval?

    scripts/interval_coverage.py [--runs 6] [--injected 3] [--larm build/.../larm] [--keep DIR]
                                 [-- characterize options, default --quick]
    scripts/interval_coverage.py --from DIR1 DIR2 ...   (results directories already measured)

Runs `larm characterize` --runs times, the last --injected of them beside
scripts/interference_injector.py busy 50 % of every 100 ms on the last CPU, then for every roof
present in all runs counts the ordered pairs (i, j), i != j, whose value i lies within interval j
(results/roof_interval.h), and prints the coverage per roof, the lowest, and the pairs overall.
A roof whose interval said two modes in some run is marked; it is counted all the same.
A roof that depends on where the host puts the cores (a bandwidth roof of two threads or more,
issue 34) is compared only between runs that measured it in the same placement state (the
state of its by_state model entry, or of the run's one state); pairs across states are counted
apart (scripts/placement_states.py measures what the intervals do across states).
Two intervals are counted: the run's own (`interval`: its samples and passes), and the one for
another run (`interval.next_run`, schema 1.7: widened by larm doctor's run-to-run error measured
before and after the run); the second is the one that claims to cover another run's value.
"""
import argparse
import itertools
import json
import os
import subprocess
import sys
import tempfile

from placement_state import roof_state

here = os.path.dirname(os.path.abspath(__file__))
parser = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
parser.add_argument("--runs", type=int, default=6)
parser.add_argument("--injected", type=int, default=3)
parser.add_argument("--larm", default=os.path.join(here, "..", "build", "release", "tools", "larm"))
parser.add_argument("--keep", help="directory to keep the runs in (default: a temporary one)")
parser.add_argument("--from", dest="dirs", nargs="+", help="measured results directories")
parser.add_argument("options", nargs="*", default=["--quick"])
args = parser.parse_args()


def key(roof):
    what = roof["access"] + (" " + roof["precision"] if roof["precision"] else "")
    where = roof["level"] + (" " + roof["memory"] + " " + roof["placement"]
                             if roof["level"] == "memory" else "")
    return f"domain {roof['domain']} {where} {what} {roof['isa']}"


def roofs(directory):
    with open(os.path.join(directory, "results.json")) as f:
        doc = json.load(f)
    found = {}
    for r in doc["roofs"]:
        if not r["samples"] or not r.get("interval"):
            continue
        # The placement state the roof's value was measured in (issue 34), for the roofs that
        # depend on it: bandwidth roofs of two threads or more (results/run_history.h).
        r["state"] = None
        if r["level"] != "flops" and r["threads"] >= 2:
            r["state"] = roof_state(doc, r) or "unknown"
        found[key(r)] = r
    return found


dirs = args.dirs or []
if not dirs:
    work = args.keep or tempfile.mkdtemp(prefix="larm-coverage-")
    os.makedirs(work, exist_ok=True)
    cpu = max(os.sched_getaffinity(0))
    for n in range(args.runs):
        out = os.path.join(work, f"run{n}")
        injected = n >= args.runs - args.injected
        injector = subprocess.Popen([sys.executable, os.path.join(here, "interference_injector.py"),
                                     "--cpu", str(cpu), "--duty", "0.5"]) if injected else None
        try:
            subprocess.run([args.larm, "characterize", "-q", *args.options, "--out", out],
                           check=True)
        finally:
            if injector:
                injector.terminate()
                injector.wait()
        print(f"run {n}: {out}{' (injector on CPU %d)' % cpu if injected else ''}", flush=True)
        dirs.append(out)

runs = [roofs(d) for d in dirs]
common = sorted(set.intersection(*(set(r) for r in runs)))
pairs = list(itertools.permutations(range(len(runs)), 2))


def bounds(roof, which):
    interval = roof["interval"]
    if which == "next_run":
        interval = interval.get("next_run")
        if interval is None:
            return None
    return interval["low"], interval["high"]


def counted(k):
    """The pairs compared for roof k: all of them, or, for a roof that depends on the placement
    state, those whose two runs measured it in the same state (a value of another state is not
    the one an interval is for: issue 34)."""
    return [(a, b) for a, b in pairs if runs[a][k]["state"] == runs[b][k]["state"]]


def covered(k, which):
    hits = 0
    for a, b in counted(k):
        span = bounds(runs[b][k], which)
        hits += span is not None and span[0] <= runs[a][k]["roof"] <= span[1]
    return hits


kinds = {"interval": "own interval", "next_run": "next-run interval"}
inside = dict.fromkeys(kinds, 0)
lowest = dict.fromkeys(kinds, (2.0, ""))
print(f"{'roof':52s} {'own':>7s} {'next run':>8s} {'± %':>5s} {'next ±':>6s}  values")
total = across = 0
for k in common:
    hits = {which: covered(k, which) for which in kinds}
    n = len(counted(k))
    total += n
    across += len(pairs) - n
    for which in kinds:
        inside[which] += hits[which]
        if n:
            lowest[which] = min(lowest[which], (hits[which] / n, k))
    widths = sorted((r[k]["interval"]["high"] - r[k]["interval"]["low"]) / 2 / r[k]["roof"]
                    for r in runs)
    between = sorted(r[k]["interval"].get("next_run", {}).get("between_run", 0) for r in runs)
    bimodal = any(len(r[k]["interval"]["modes"]) == 2 for r in runs)
    values = " ".join(f"{r[k]['roof']:.4g}" for r in runs)
    print(f"{k:52s} {hits['interval']:3d}/{n:<3d} {hits['next_run']:3d}/{n:<3d}"
          f" {100 * widths[len(widths) // 2]:5.1f} {100 * between[len(between) // 2]:6.1f}  {values}"
          f"{'  (two modes in a run)' if bimodal else ''}")
if across:
    print(f"pairs of runs that measured a roof in two placement states, not compared: {across}")
for which, label in kinds.items():
    rate, name = lowest[which]
    print(f"{label}: pairs inside {inside[which]} of {total} "
          f"({100 * inside[which] / max(total, 1):.1f} %); lowest roof {100 * rate:.1f} % ({name}); "
          f"{len(runs)} runs, {len(common)} roofs")
