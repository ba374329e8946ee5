#!/usr/bin/env python3
"""larm against likwid-bench, same threads and working-set sizes, runs alternated.

For each round: one `larm characterize --only bandwidth` run (every level, every access), then
likwid-bench `load_<isa>` and `copy_<isa>` at each level's per-thread working set (total size =
per-thread size x threads, as likwid counts it). Reports the median over rounds of each tool and
the median of the per-round ratios larm / likwid (1 GB = 1e9 bytes for both). Also prints the
FMA ceiling against the documented peak, from the same larm runs.
"""
import argparse
import csv
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile

parser = argparse.ArgumentParser(description=__doc__)
parser.add_argument("--larm", required=True)
parser.add_argument("--rounds", type=int, default=5)
parser.add_argument("--isa", default="avx512")
parser.add_argument("--samples", type=int, default=11)
args = parser.parse_args()

work = tempfile.mkdtemp(prefix="larm-vs-likwid-")
levels = ["L1", "L2", "L3", "memory"]
accesses = ["load", "copy"]
larm_values = {(l, a): [] for l in levels for a in accesses}
sizes = {}
likwid_values = {(l, a): [] for l in levels for a in accesses}
ratios = {(l, a): [] for l in levels for a in accesses}
fma = []

def likwid(kernel, total_bytes, threads):
    out = subprocess.run(["likwid-bench", "-t", kernel, "-w", f"S0:{total_bytes}B:{threads}"],
                         capture_output=True, text=True, check=True).stdout
    return float(re.search(r"MByte/s:\s+([0-9.]+)", out).group(1)) / 1000.0

for round_ in range(args.rounds):
    out = os.path.join(work, f"round{round_}")
    subprocess.run([args.larm, "characterize", "--quiet", "--only", "bandwidth,flops", "--isa",
                    args.isa, "--samples", str(args.samples), "--out", out],
                   check=True, stdout=subprocess.DEVNULL)
    doc = json.load(open(os.path.join(out, "results.json")))
    for roof in doc["roofs"]:
        key = (roof["level"], roof["access"])
        if roof["domain"] != 0 or not roof["samples"]:
            continue
        if key in larm_values and roof["placement"] in ("", "local"):
            larm = roof["stats"]["median"]
            threads = roof["threads"]
            ref = likwid(f"{roof['access']}_{args.isa}", roof["working_set_bytes"] * threads, threads)
            larm_values[key].append(larm)
            sizes[key] = roof["working_set_bytes"]
            likwid_values[key].append(ref)
            ratios[key].append(larm / ref)
        if roof["level"] == "flops" and roof["access"] == "fma" and roof["precision"] == "dp" \
                and roof["isa"] == args.isa and roof["documented_ipc"]:
            hz = doc["provenance"]["core_frequency_hz"]
            lanes = {"sse2": 2, "avx": 4, "avx2": 4, "avx512": 8}[args.isa]
            peak = roof["threads"] * hz * roof["documented_ipc"] * lanes * 2 / 1e9
            fma.append((roof["stats"]["median"], peak, hz, roof["documented_ipc"], roof["threads"]))
    print(f"round {round_ + 1}/{args.rounds} done", file=sys.stderr)

print(f"larm vs likwid-bench, {args.isa}, {args.rounds} alternated rounds, medians (GB/s)")
print(f"{'level':8} {'access':6} {'ws/thread':>13} {'larm':>9} {'likwid':>9} {'ratio':>7}")
worst = None
for key in larm_values:
    if not ratios[key]:
        continue
    r = statistics.median(ratios[key])
    worst = r if worst is None else min(worst, r)
    print(f"{key[0]:8} {key[1]:6} {sizes[key] / 1024:9.0f} KiB {statistics.median(larm_values[key]):9.1f} "
          f"{statistics.median(likwid_values[key]):9.1f} {r:7.3f}")
if fma:
    got = statistics.median(f[0] for f in fma)
    peak = statistics.median(f[1] for f in fma)
    print(f"DP FMA {args.isa}: {got:.1f} GFLOP/s = {100 * got / peak:.1f} % of the documented peak "
          f"{peak:.1f} (threads {fma[0][4]} x measured {statistics.median(f[2] for f in fma) / 1e9:.2f} GHz"
          f" x {fma[0][3]:g} FMA/cycle x {8 if args.isa == 'avx512' else 4} lanes x 2)")
print(f"lowest ratio: {worst:.3f}")
