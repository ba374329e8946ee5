#!/usr/bin/env python3
"""Placement states against an independent probe: does each run name the state the host
put its cores in, and do its memory roofs fall in the interval of their own state's?

    scripts/placement_states.py [--runs 8] [--larm build/.../larm] [--keep DIR]
                                [-- characterize options, default --quick]
    scripts/placement_states.py --from DIR1 DIR2 ...   (runs already made by this script)

Each run is `larm characterize` between two runs of scripts/probes/ping_pong.c (C11 atomics, no
larm code) on the first two CPUs this process may use: the independent one-way latency just before
and just after it (the same 100 ns bound as larm: over it, the two share no cache). Printed:
- naming: larm's first probe (the doctor's, before the run) against the ping-pong before it, and
  its last (after the passes) against the ping-pong after it;
- per memory roof, over ordered pairs of runs (i, j), i != j, and each placement state s both
  measured it in (a run that saw one state: its roof; one that saw several: the roof's by_state):
  how often run i's value in s lies in run j's interval in s (same state), and in run j's interval
  of another state (across states, which the split is for: it should be low where the states'
  bandwidths differ). Intervals: the run's own; for the roof's model state also interval.next_run.
"""
import argparse
import itertools
import json
import os
import subprocess
import sys
import tempfile

from placement_state import FAR_NS, far, ping_pong

here = os.path.dirname(os.path.abspath(__file__))
parser = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
parser.add_argument("--runs", type=int, default=8)
parser.add_argument("--larm", default=os.path.join(here, "..", "build", "release", "tools", "larm"))
parser.add_argument("--keep", help="directory to keep the runs in (default: a temporary one)")
parser.add_argument("--from", dest="dirs", nargs="+", help="directories this script measured")
parser.add_argument("options", nargs="*", default=["--quick"])
args = parser.parse_args()


def measure(work):
    cpus, ping = ping_pong(work)
    dirs = []
    for n in range(args.runs):
        out = os.path.join(work, f"run{n}")
        before = ping()
        done = subprocess.run([args.larm, "characterize", *args.options, "-q", "--out", out])
        after = ping()
        if done.returncode != 0:
            sys.exit(f"placement_states.py: run {n} failed ({done.returncode})")
        with open(os.path.join(out, "ping_pong.json"), "w") as f:
            json.dump({"cpus": cpus, "before_ns": before, "after_ns": after}, f)
        print(f"run {n}: ping-pong {before:.0f} ns before, {after:.0f} ns after", flush=True)
        dirs.append(out)
    return dirs


def key(roof):
    return f"domain {roof['domain']} memory {roof['memory']} {roof['placement']} {roof['access']}"


def load(directory):
    with open(os.path.join(directory, "results.json")) as f:
        doc = json.load(f)
    with open(os.path.join(directory, "ping_pong.json")) as f:
        ping = json.load(f)
    probes = doc["provenance"].get("placement_probes", [])
    states = [s["state"] for s in doc["provenance"].get("placement_states", [])]
    roofs = {}
    for r in doc["roofs"]:
        if r["level"] != "memory" or not r["samples"] or not r.get("interval"):
            continue
        if r.get("by_state"):
            per = {s["state"]: (s["value"], s["interval"], None) for s in r["by_state"]}
            model = next(s["state"] for s in r["by_state"] if s["model"])
            per[model] = (r["roof"], r["interval"], r["interval"].get("next_run"))
        elif len(states) == 1:
            per = {states[0]: (r["roof"], r["interval"], r["interval"].get("next_run"))}
        else:
            continue  # several states, this roof not split (its passes not placed): no state
        roofs[key(r)] = per
    return {"dir": directory, "probes": probes, "states": states, "ping": ping, "roofs": roofs}


def inside(value, interval):
    return interval is not None and interval["low"] <= value <= interval["high"]


def main():
    dirs = args.dirs or measure(args.keep or tempfile.mkdtemp(prefix="larm-placement-"))
    runs = [load(d) for d in dirs]
    named = total = 0
    print("\nrun  ping-pong before / after   larm first / last probe          states seen")
    for n, run in enumerate(runs):
        ping = run["ping"]
        first = run["probes"][0]["state"] if run["probes"] else "-"
        last = run["probes"][-1]["state"] if run["probes"] else "-"
        ok_first = far(first) == (ping["before_ns"] > FAR_NS)
        ok_last = far(last) == (ping["after_ns"] > FAR_NS)
        named += ok_first + ok_last
        total += 2
        print(f"{n:3d}  {ping['before_ns']:6.0f} / {ping['after_ns']:6.0f} ns    "
              f"{first:>14s}{'' if ok_first else ' (!)'} / {last:<14s}{'' if ok_last else ' (!)'}"
              f"  {' | '.join(run['states'])}")
    print(f"states named as the independent probe: {named} of {total}")

    keys = sorted(set().union(*(r["roofs"].keys() for r in runs)))
    print("\nroof                                  same state: own  next run   across states: own")
    lowest = None
    for k in keys:
        same = same_next = across = 0
        n_same = n_next = n_across = 0
        for a, b in itertools.permutations(runs, 2):
            if k not in a["roofs"] or k not in b["roofs"]:
                continue
            for state, (value, _, _) in a["roofs"][k].items():
                for other, (_, interval, next_run) in b["roofs"][k].items():
                    if other == state:
                        n_same += 1
                        same += inside(value, interval)
                        if next_run is not None:
                            n_next += 1
                            same_next += inside(value, next_run)
                    else:
                        n_across += 1
                        across += inside(value, interval)

        def rate(hit, n):
            return f"{100 * hit / n:5.1f} % ({hit}/{n})" if n else "   -          "
        print(f"{k:36s}  {rate(same, n_same)}  {rate(same_next, n_next)}  {rate(across, n_across)}")
        if n_next:
            lowest = min(lowest, same_next / n_next) if lowest is not None else same_next / n_next
    if lowest is not None:
        print(f"lowest same-state coverage by the next-run interval: {100 * lowest:.1f} %")


main()
