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
    return {key(r): r for r in doc["roofs"] if r["samples"] and r.get("interval")}


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


def covered(k, which):
    hits = 0
    for a, b in pairs:
        span = bounds(runs[b][k], which)
        hits += span is not None and span[0] <= runs[a][k]["roof"] <= span[1]
    return hits


kinds = {"interval": "own interval", "next_run": "next-run interval"}
inside = dict.fromkeys(kinds, 0)
lowest = dict.fromkeys(kinds, (2.0, ""))
print(f"{'roof':52s} {'own':>7s} {'next run':>8s} {'± %':>5s} {'next ±':>6s}  values")
for k in common:
    hits = {which: covered(k, which) for which in kinds}
    for which in kinds:
        inside[which] += hits[which]
        lowest[which] = min(lowest[which], (hits[which] / len(pairs), k))
    widths = sorted((r[k]["interval"]["high"] - r[k]["interval"]["low"]) / 2 / r[k]["roof"]
                    for r in runs)
    between = sorted(r[k]["interval"].get("next_run", {}).get("between_run", 0) for r in runs)
    bimodal = any(len(r[k]["interval"]["modes"]) == 2 for r in runs)
    values = " ".join(f"{r[k]['roof']:.4g}" for r in runs)
    print(f"{k:52s} {hits['interval']:3d}/{len(pairs):<3d} {hits['next_run']:3d}/{len(pairs):<3d}"
          f" {100 * widths[len(widths) // 2]:5.1f} {100 * between[len(between) // 2]:6.1f}  {values}"
          f"{'  (two modes in a run)' if bimodal else ''}")
total = len(pairs) * len(common)
for which, label in kinds.items():
    rate, name = lowest[which]
    print(f"{label}: pairs inside {inside[which]} of {total} "
          f"({100 * inside[which] / max(total, 1):.1f} %); lowest roof {100 * rate:.1f} % ({name}); "
          f"{len(runs)} runs, {len(common)} roofs")
