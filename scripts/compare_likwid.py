#!/usr/bin/env python3
"""larm against likwid-bench: every level x access likwid-bench has an equivalent for,
at larm's own working sets and threads, runs alternated.

One `larm characterize` run (default `--quick --only bandwidth,sweep`: the roofs sized from the
load sweep, as a full run sizes them) says each local roof of domain 0's working set per thread
and threads. Then, paired (the default), --pairs rounds over those roofs, each roof's pair run
back to back: `larm bench` (the roof's kernel alone, its level's form, the same threads, working
set, memory, samples and estimator) and likwid-bench's equivalent kernel at the roof's working set
(-w N:<per-thread bytes x threads>B:<threads>, likwid counting the size over every stream as larm
does), larm first in even rounds and likwid-bench first in odd ones. On a host whose shared L3
and memory give 70-120 GB/s over seconds (docs/performance.md), only a pair measured within
seconds compares the tools rather than two moments of the host.
likwid-bench calibrates its iterations to a run of about a second in a roof's first pair; the
later pairs reuse them (-i), as larm reuses its repetitions. --unpaired compares instead each
characterize run's roof values (--rounds runs) with likwid-bench runs minutes later, best of
--likwid-runs runs (default 1).
Equivalents: load -> load_<isa>, store -> store_<isa>, store-nt -> store_mem_<isa> (non-temporal
stores), copy -> copy_<isa>, 2ld1st -> stream_<isa> (a = b + s*c: two loads and a store over
three arrays; its FMA is free at these rates). Both count 1 GB = 1e9 bytes and no write-allocate
traffic. larm's value is the roof's (the run's estimator, p90 by default). Prints per level and
access the medians over rounds of each tool and of the per-round ratio larm / likwid, and the
lowest ratio; the target is >= 1.00 everywhere. Where both tools reach the same
hardware bound a pair's ratio is 1.00 give or take the host's noise, and a median of a few pairs
falls under 1.00 about half the time: the last column is the one-sided sign test of the pairs
(k of n under 1.00, p = P(at least k of n | each pair under 1.00 with probability 1/2)): a row is
`below` likwid-bench only at p < 0.05 (5 pairs of 5 under 1.00, 8 of 9...), and a row of 4 pairs
or fewer can never say so.

The L3 and memory rows depend on where the host puts the two vCPUs (the memory
bandwidth here doubles when they share no L3): a ratio means something only between runs made in
one placement state. For those rows each likwid-bench run is bracketed by the independent
ping-pong of scripts/probes/ping_pong.c --sharing (far: over 100 ns one way; one core: the two
threads together get under 0.75 of a multiplier-bound loop's throughput alone, one host core's
two hardware threads; near otherwise; moved: the probes before and after disagree), larm's roof takes the state its run measured it in (its by_state model entry, or the
run's one state), and a round's ratio counts only where both are the same state; the table gives
those rows per state, and how many pairs were left out across states.
"""
import argparse
import json
import math
import os
import re
import statistics
import subprocess
import sys
import tempfile

from placement_state import ping_pong, roof_state, state_word

def widest_isa():
    """The widest x86 ISA this CPU has, as larm picks it (a Zen 3 guest has no AVX-512)."""
    try:
        with open("/proc/cpuinfo") as f:
            flags = next((l.split(":", 1)[1].split() for l in f if l.startswith("flags")), [])
    except OSError:
        flags = []
    for isa, flag in (("avx512", "avx512f"), ("avx2", "avx2"), ("avx", "avx")):
        if flag in flags:
            return isa
    return "sse2"


parser = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
parser.add_argument("--larm", required=True)
parser.add_argument("--rounds", type=int, default=None,
                    help="characterize runs (default: 1 paired, 3 unpaired)")
parser.add_argument("--pairs", type=int, default=3,
                    help="paired: the alternated rounds of larm bench / likwid-bench pairs over "
                         "the roofs (default 3)")
parser.add_argument("--unpaired", action="store_true",
                    help="compare the characterize runs' roof values with likwid-bench runs "
                         "minutes later (the script before larm bench)")
parser.add_argument("--isa", default=widest_isa(),
                    help="ISA of both tools' kernels (default: this CPU's widest)")
parser.add_argument("--likwid-runs", type=int, default=1,
                    help="likwid-bench runs per kernel and round, the best kept (each ~5 s: it "
                         "calibrates its iterations to a 1 s run)")
parser.add_argument("--accesses", default="load,store,store-nt,copy,2ld1st",
                    help="the accesses compared (comma list)")
parser.add_argument("--larm-options", default="--quick --only bandwidth,sweep",
                    help="the characterize options of larm's runs")
parser.add_argument("--no-states", action="store_true",
                    help="do not split the L3 and memory rows by placement state")
args = parser.parse_args()
if args.rounds is None:
    args.rounds = 3 if args.unpaired else 1
STATE_LEVELS = ("L3", "memory")  # the rows whose bandwidth moves with the host's placement

likwid_suffix = {"sse2": "sse", "avx": "avx", "avx2": "avx", "avx512": "avx512"}[args.isa]
kernels = {"load": "load", "store": "store", "store-nt": "store_mem", "copy": "copy",
           "2ld1st": "stream"}
levels = ["L1", "L2", "L3", "memory"]
wanted = set(args.accesses.split(","))
work = tempfile.mkdtemp(prefix="larm-vs-likwid-")
larm_values, likwid_values, ratios, sizes = {}, {}, {}, {}
across = {}  # (level, access) -> rounds whose two tools ran in different placement states
refused = {}  # (kernel, total bytes, threads) -> what likwid-bench said when it measured nothing
ping = None if args.no_states else ping_pong(work, sharing=True)[1]


def larm_state(doc, roof):
    """The placement state larm measured this roof in: near, far, one core or unknown."""
    state = roof_state(doc, roof)
    return state_word(state) if state else "unknown"


iterations = {}  # (kernel, total bytes, threads) -> likwid-bench's own calibration, reused


def likwid(access, total_bytes, threads, runs=None):
    kernel = f"{kernels[access]}_{likwid_suffix}"
    best = 0.0
    for _ in range(runs or args.likwid_runs):
        known = iterations.get((kernel, total_bytes, threads))
        run = subprocess.run(["likwid-bench", "-t", kernel, "-w", f"N:{total_bytes}B:{threads}",
                              *(["-i", str(known)] if known else [])],
                             capture_output=True, text=True)
        found = re.search(r"MByte/s:\s+([0-9.]+)", run.stdout)
        per_thread = re.search(r"Iterations per thread:\s+([0-9]+)", run.stdout)
        if found and per_thread and not args.unpaired:
            iterations[(kernel, total_bytes, threads)] = int(per_thread.group(1))
        if run.returncode != 0 or not found:
            # likwid-bench refuses some sizes (a stream under its unrolled loop's length per
            # thread): the row is left out and says why.
            said = (run.stderr.strip() or run.stdout.strip()).splitlines()
            refused[(kernel, total_bytes, threads)] = said[-1] if said else f"exit {run.returncode}"
            return None
        best = max(best, float(found.group(1)) / 1000.0)
    return best


def sign_test(under, n):
    """P(at least `under` of n pairs under 1.00) when each is under with probability 1/2."""
    return sum(math.comb(n, k) for k in range(under, n + 1)) / 2 ** n


def compared_roofs(doc):
    """The local roofs of domain 0 that likwid-bench has a kernel for, with samples."""
    for roof in doc["roofs"]:
        if roof["domain"] != 0 or not roof["samples"] or roof["level"] not in levels or \
                roof["access"] not in kernels or roof["access"] not in wanted or \
                roof["placement"] not in ("", "local"):
            continue
        yield roof


def larm_bench(roof, estimator):
    """The roof's kernel alone, now: larm bench at the roof's level, access, working set and
    threads, with a characterization's samples and estimator."""
    run = subprocess.run([args.larm, "bench", "--json", "--isa", args.isa, "--level", roof["level"],
                          "--access", roof["access"], "--threads", str(roof["threads"]),
                          "--working-set", str(roof["working_set_bytes"]),
                          "--estimator", estimator], capture_output=True, text=True, check=True)
    return json.loads(run.stdout.splitlines()[-1])["gbps"]


def record(key, ours, theirs, roof, state_key):
    if state_key:
        key = key + (state_key,)
    # Each pair as it comes (stderr): what a run cut short still shows.
    print(f"  {' '.join(key)} {roof['working_set_bytes']} B/thread: larm {ours:.1f} likwid "
          f"{theirs:.1f} GB/s ({ours / theirs:.3f})", file=sys.stderr, flush=True)
    larm_values.setdefault(key, []).append(ours)
    likwid_values.setdefault(key, []).append(theirs)
    ratios.setdefault(key, []).append(ours / theirs)
    sizes[key] = roof["working_set_bytes"]


def in_state(roof, key, measure, doc=None):
    """Runs measure() (-> (larm, likwid) or None) bracketed by the ping-pong where the row
    depends on the placement state; records the pair in its state, or counts it left out."""
    split = ping is not None and roof["threads"] >= 2 and roof["level"] in STATE_LEVELS
    before = ping() if split else None
    values = measure()
    if values is None:
        return
    state_key = None
    if split:
        after = ping()
        theirs = before if before == after else "moved"
        # Unpaired, larm's value is the run's: its state is the one the run measured it in.
        ours = larm_state(doc, roof) if doc is not None else theirs
        if theirs != ours or ours in ("unknown", "moved"):
            across.setdefault(key, []).append(f"{ours}/{theirs}")
            return
        state_key = ours
    record(key, *values, roof, state_key)


docs = []
for round_ in range(args.rounds):
    out = os.path.join(work, f"round{round_}")
    subprocess.run([args.larm, "characterize", "--quiet", "--isa", args.isa,
                    *args.larm_options.split(), "--out", out], check=True,
                   stdout=subprocess.DEVNULL)
    with open(os.path.join(out, "results.json")) as f:
        doc = json.load(f)
    docs.append(doc)
    if not args.unpaired:
        continue
    for roof in compared_roofs(doc):
        def unpaired(roof=roof):
            ref = likwid(roof["access"], roof["working_set_bytes"] * roof["threads"],
                         roof["threads"])
            return None if ref is None else (roof["roof"], ref)
        in_state(roof, (roof["level"], roof["access"]), unpaired, doc)
    print(f"round {round_ + 1}/{args.rounds} done", file=sys.stderr, flush=True)

if not args.unpaired:
    estimator = docs[-1]["provenance"].get("roof_estimator", "median")
    roofs = [roof for doc in docs for roof in compared_roofs(doc)]
    for pair in range(args.pairs):
        for roof in roofs:
            # The order alternates from one round of pairs to the next: a host that drifts
            # within a pair (a neighbour starting, the clock settling) then favours neither.
            def paired(roof=roof, larm_first=pair % 2 == 0):
                def ref():
                    return likwid(roof["access"], roof["working_set_bytes"] * roof["threads"],
                                  roof["threads"], runs=1)
                if larm_first:
                    ours = larm_bench(roof, estimator)
                    theirs = ref()
                else:
                    theirs = ref()
                    ours = larm_bench(roof, estimator) if theirs is not None else None
                return None if theirs is None else (ours, theirs)
            in_state(roof, (roof["level"], roof["access"]), paired)
        print(f"pair round {pair + 1}/{args.pairs} done", file=sys.stderr, flush=True)

how = (f"{args.rounds} alternated rounds of larm characterize {args.larm_options} and "
       f"likwid-bench" if args.unpaired else
       f"{args.pairs} alternated rounds of larm bench / likwid-bench pairs over the roofs of "
       f"{args.rounds} larm characterize {args.larm_options}")
print(f"larm vs likwid-bench, {args.isa}, {how}; medians (GB/s)")
print(f"| {'roof':16} | {'ws/thread':>11} | {'larm':>7} | {'likwid':>7} | {'larm/likwid':>11} "
      f"| {'under 1 (sign test)':>22} |")
print(f"|{'-' * 18}|{'-' * 13}|{'-' * 9}|{'-' * 9}|{'-' * 13}|{'-' * 24}|")
below_rows = []
worst = None
for level in levels:
    for access in kernels:
        for key in [(level, access), (level, access, "near"), (level, access, "far")]:
            if key not in ratios:
                continue
            r = statistics.median(ratios[key])
            worst = r if worst is None else min(worst, r)
            ws = sizes[key]
            ws_text = f"{ws / 2**20:.1f} MiB" if ws >= 2**20 else f"{ws / 1024:.1f} KiB"
            name = " ".join(key) + (f" ({len(ratios[key])})" if len(key) > 2 else "")
            under, n = sum(1 for x in ratios[key] if x < 1), len(ratios[key])
            p = sign_test(under, n)
            below = p < 0.05
            if below:
                below_rows.append(name)
            verdict = f"{under}/{n}, p {p:.2f}, {'below' if below else 'not below'}"
            print(f"| {name:16} | {ws_text:>11} | {statistics.median(larm_values[key]):7.1f}"
                  f" | {statistics.median(likwid_values[key]):7.1f} | {r:11.3f} "
                  f"| {verdict:>22} |")
if worst is not None:
    print(f"lowest ratio: {worst:.3f}")
    print("rows below likwid-bench by the sign test (p < 0.05): " +
          (", ".join(below_rows) if below_rows else "none"))
if across:
    print("left out, the two tools in different placement states (larm/likwid-bench): " +
          "; ".join(f"{' '.join(k)} {', '.join(v)}" for k, v in sorted(across.items())))
for (kernel, total, threads), said in sorted(refused.items()):
    print(f"left out, likwid-bench -t {kernel} -w N:{total}B:{threads} measured nothing: {said}")
