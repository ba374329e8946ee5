#!/usr/bin/env python3
"""Interval coverage: does a roof's value in one run fall inside another run's interval?

    scripts/interval_coverage.py [--runs 6] [--injected 3] [--larm build/.../larm] [--keep DIR]
                                 [-- characterize options, default --quick]
    scripts/interval_coverage.py --from DIR1 DIR2 ...   (results directories already measured)
    scripts/interval_coverage.py --pool SET1 SET2 ...   (sets kept by --keep, pooled per roof)

Runs `larm characterize` --runs times, the last --injected of them beside
scripts/interference_injector.py busy 50 % of every 100 ms on the last CPU, then for every roof
present in all runs counts the ordered pairs (i, j), i != j, whose value i lies within interval j
(results/roof_interval.h), and prints the coverage per roof, the lowest, and the pairs overall.
A roof whose interval said two modes in some run is marked; it is counted all the same.
A roof that depends on where the host puts the cores (a bandwidth roof of two threads or more,
placement probes) is compared only between runs that measured it in the same placement state (the
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
parser.add_argument("--pool", nargs="+", metavar="SET",
                    help="sets kept by --keep: each set's pairs, summed per roof over the sets")
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
        # The placement state the roof's value was measured in, for the roofs that
        # depend on it: bandwidth roofs of two threads or more (results/run_history.h).
        r["state"] = None
        if r["level"] != "flops" and r["threads"] >= 2:
            r["state"] = roof_state(doc, r) or "unknown"
        found[key(r)] = r
    return found


dirs = args.dirs or []
if not dirs and not args.pool:
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

def bounds(roof, which):
    interval = roof["interval"]
    if which == "next_run":
        interval = interval.get("next_run")
        if interval is None:
            return None
    return interval["low"], interval["high"]


kinds = {"interval": "own interval", "next_run": "next-run interval"}


def coverage(dirs):
    """Per roof present in every run of dirs: the pairs compared, the hits of each interval, and
    what the table shows; and the pairs left out across placement states."""
    runs = [roofs(d) for d in dirs]
    common = sorted(set.intersection(*(set(r) for r in runs)))
    pairs = list(itertools.permutations(range(len(runs)), 2))
    found = {}
    across = 0
    for k in common:
        # The pairs compared for roof k: all of them, or, for a roof that depends on the placement
        # state, those whose two runs measured it in the same state (a value of another state is
        # not the one an interval is for).
        counted = [(a, b) for a, b in pairs if runs[a][k]["state"] == runs[b][k]["state"]]
        across += len(pairs) - len(counted)
        hits = {}
        for which in kinds:
            hits[which] = 0
            for a, b in counted:
                span = bounds(runs[b][k], which)
                hits[which] += span is not None and span[0] <= runs[a][k]["roof"] <= span[1]
        widths = sorted((r[k]["interval"]["high"] - r[k]["interval"]["low"]) / 2 / r[k]["roof"]
                        for r in runs)
        between = sorted(r[k]["interval"].get("next_run", {}).get("between_run", 0) for r in runs)
        found[k] = {"n": len(counted), "hits": hits, "width": widths[len(widths) // 2],
                    "between": between[len(between) // 2],
                    "bimodal": any(len(r[k]["interval"]["modes"]) == 2 for r in runs),
                    "values": [r[k]["roof"] for r in runs]}
    return found, across, len(runs)


def summary(found, runs_text):
    for which, label in kinds.items():
        inside = sum(f["hits"][which] for f in found.values())
        total = sum(f["n"] for f in found.values())
        rate, name = min(((f["hits"][which] / f["n"], k) for k, f in found.items() if f["n"]),
                         default=(0.0, "none"))
        print(f"{label}: pairs inside {inside} of {total} ({100 * inside / max(total, 1):.1f} %); "
              f"lowest roof {100 * rate:.1f} % ({name}); {runs_text}, {len(found)} roofs")


if args.pool:
    # Several sets, each a directory of runs (run0, run1, ...) as --keep leaves them: each set's
    # pairs as above, summed per roof over the sets (pairs never span two sets).
    pooled = {}
    across = runs = 0
    for directory in args.pool:
        found, left_out, n = coverage(sorted(
            os.path.join(directory, d) for d in os.listdir(directory) if d.startswith("run")))
        across += left_out
        runs += n
        for k, f in found.items():
            into = pooled.setdefault(k, {"n": 0, "hits": dict.fromkeys(kinds, 0)})
            into["n"] += f["n"]
            for which in kinds:
                into["hits"][which] += f["hits"][which]
    print(f"{'roof':52s} {'own':>9s} {'next run':>9s}")
    for k, f in sorted(pooled.items()):
        print(f"{k:52s} {f['hits']['interval']:4d}/{f['n']:<4d} {f['hits']['next_run']:4d}/{f['n']:<4d}")
    print(f"pairs of runs that measured a roof in two placement states, not compared: {across}")
    summary(pooled, f"{len(args.pool)} sets, {runs} runs")
    sys.exit(0)

found, across, runs = coverage(dirs)
print(f"{'roof':52s} {'own':>7s} {'next run':>8s} {'± %':>5s} {'next ±':>6s}  values")
for k, f in found.items():
    values = " ".join(f"{v:.4g}" for v in f["values"])
    print(f"{k:52s} {f['hits']['interval']:3d}/{f['n']:<3d} {f['hits']['next_run']:3d}/{f['n']:<3d}"
          f" {100 * f['width']:5.1f} {100 * f['between']:6.1f}  {values}"
          f"{'  (two modes in a run)' if f['bimodal'] else ''}")
if across:
    print(f"pairs of runs that measured a roof in two placement states, not compared: {across}")
summary(found, f"{runs} runs")
