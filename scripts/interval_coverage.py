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
total = inside = 0
lowest = (2.0, "")
print(f"{'roof':52s} {'covered':>9s} {'median ± %':>10s}  values")
for k in common:
    pairs = [(a, b) for a, b in itertools.permutations(range(len(runs)), 2)]
    hits = sum(1 for a, b in pairs
               if runs[b][k]["interval"]["low"] <= runs[a][k]["roof"] <= runs[b][k]["interval"]["high"])
    total += len(pairs)
    inside += hits
    rate = hits / len(pairs)
    lowest = min(lowest, (rate, k))
    widths = sorted((r[k]["interval"]["high"] - r[k]["interval"]["low"]) / 2 / r[k]["roof"]
                    for r in runs)
    bimodal = any(len(r[k]["interval"]["modes"]) == 2 for r in runs)
    values = " ".join(f"{r[k]['roof']:.4g}" for r in runs)
    print(f"{k:52s} {hits:3d}/{len(pairs):<3d}  {100 * widths[len(widths) // 2]:8.1f}  {values}"
          f"{'  (two modes in a run)' if bimodal else ''}")
print(f"pairs inside: {inside} of {total} ({100 * inside / max(total, 1):.1f} %); lowest roof "
      f"{100 * lowest[0]:.1f} % ({lowest[1]}); {len(runs)} runs, {len(common)} roofs")
