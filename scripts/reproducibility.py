#!/usr/bin/env python3
"""Reproducibility and run time of larm on this machine.

Runs `larm characterize` N times (default 5; --quick or not) and reports, for every bandwidth
roof and FLOP ceiling, the median of each run and the spread of those medians over the runs,
(max - min) / median, plus each run's wall time.
"""
import argparse
import json
import os
import statistics
import subprocess
import tempfile
import time

parser = argparse.ArgumentParser(description=__doc__)
parser.add_argument("--larm", required=True)
parser.add_argument("--runs", type=int, default=5)
parser.add_argument("--quick", action="store_true")
parser.add_argument("--only", default="", help="passed to larm characterize --only")
args = parser.parse_args()

work = tempfile.mkdtemp(prefix="larm-repro-")
medians, walls = {}, []
for run in range(args.runs):
    out = os.path.join(work, f"run{run}")
    command = [args.larm, "characterize", "--quiet", "--out", out]
    if args.quick:
        command.append("--quick")
    if args.only:
        command += ["--only", args.only]
    start = time.monotonic()
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL)
    walls.append(time.monotonic() - start)
    for roof in json.load(open(os.path.join(out, "results.json")))["roofs"]:
        if roof["samples"]:
            key = (roof["domain"], roof["level"], roof["placement"], roof["access"],
                   roof["precision"], roof["isa"])
            medians.setdefault(key, []).append(roof["stats"]["median"])

print(f"{args.runs} runs of larm characterize{' --quick' if args.quick else ''}"
      f"{' --only ' + args.only if args.only else ''}")
print("wall time per run (s): " + " ".join(f"{w:.1f}" for w in walls) +
      f"  median {statistics.median(walls):.1f}")
print(f"{'roof':40} {'median of medians':>18} {'spread':>8}")
for key, values in sorted(medians.items(), key=lambda kv: (kv[0][1] == "flops", kv[0])):
    m = statistics.median(values)
    spread = (max(values) - min(values)) / m
    name = " ".join(str(k) for k in key if k != "")
    print(f"{name:40} {m:18.2f} {100 * spread:7.1f}%")
