"""What larm monitor's sampling costs a compute-bound two-thread program: paired runs, the program
alone then under `larm monitor` (its default monitors) at each period, alternated, and the median
over the pairs of (time under larm monitor) / (time alone) - 1. Both runs of a pair start the
program the same way; the wall times are larm monitor's own figure for the monitored run and the
same clock around the plain run.

    monitor_overhead.py LARM MONITOR_OVERHEAD_PROGRAM [--pairs N] [--periods 10,1] [--iterations N]
"""
import argparse
import os
import re
import statistics
import subprocess
import tempfile
import time

parser = argparse.ArgumentParser()
parser.add_argument("larm")
parser.add_argument("program")
parser.add_argument("--pairs", type=int, default=7)
parser.add_argument("--periods", default="10,1")
parser.add_argument("--iterations", default="1500000000")
args = parser.parse_args()

work = tempfile.mkdtemp(prefix="larm-monitor-overhead-")
for period in args.periods.split(","):
    ratios, costs = [], []
    for pair in range(args.pairs):
        start = time.monotonic()
        subprocess.run([args.program, args.iterations], check=True, timeout=600)
        alone = time.monotonic() - start
        r = subprocess.run([args.larm, "monitor", "--period", period, "--out",
                            os.path.join(work, f"p{period}-{pair}"), "--", args.program,
                            args.iterations], capture_output=True, text=True, check=True,
                           timeout=600)
        m = re.search(r"after ([0-9.]+) s; (\d+) samples every [0-9.]+ ms, each costing ([0-9.]+) ms",
                      r.stdout)
        monitored = float(m.group(1))
        ratios.append(monitored / alone - 1)
        costs.append(float(m.group(3)))
        print(f"period {period} ms, pair {pair}: alone {alone:.3f} s, monitored {monitored:.3f} s "
              f"({int(m.group(2))} samples, {float(m.group(3)):.3f} ms each)", flush=True)
    print(f"period {period} ms: median overhead {statistics.median(ratios) * 100:+.1f} % over "
          f"{args.pairs} pairs (min {min(ratios) * 100:+.1f} %, max {max(ratios) * 100:+.1f} %); "
          f"a sample's median cost {statistics.median(costs):.3f} ms", flush=True)
