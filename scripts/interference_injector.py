#!/usr/bin/env python3
"""Interference injector for tests and benchmarks: a process pinned to one CPU that is busy for
a share of every period (default 50 % of 100 ms), the way a neighbour on a shared node or a
noisy co-tenant of a VM steals part of one core.

    scripts/interference_injector.py --cpu 1 --duty 0.5 --period-ms 100 --seconds 60

Runs until --seconds have passed (0: until killed, SIGTERM or Ctrl-C end it cleanly).
"""
import argparse
import os
import signal
import sys
import time

parser = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
parser.add_argument("--cpu", type=int, required=True, help="the CPU (OS index) to load")
parser.add_argument("--duty", type=float, default=0.5, help="busy share of each period, 0-1")
parser.add_argument("--period-ms", type=float, default=100.0)
parser.add_argument("--seconds", type=float, default=0.0, help="0: until killed")
args = parser.parse_args()
if not 0 <= args.duty <= 1:
    sys.exit(f"interference_injector: --duty must be within 0-1, got {args.duty}")
if args.period_ms <= 0:
    sys.exit(f"interference_injector: --period-ms must be positive, got {args.period_ms}")
try:
    os.sched_setaffinity(0, {args.cpu})
except OSError as error:
    sys.exit(f"interference_injector: cannot pin to CPU {args.cpu}: {error}")

signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
period = args.period_ms / 1000
busy = period * args.duty
end = time.monotonic() + args.seconds if args.seconds > 0 else float("inf")
try:
    while time.monotonic() < end:
        start = time.monotonic()
        while time.monotonic() - start < busy:
            pass
        rest = period - (time.monotonic() - start)
        if rest > 0:
            time.sleep(rest)
except KeyboardInterrupt:
    pass
