#!/usr/bin/env python3
"""How trustworthy larm's numbers are on this machine (the targets in docs/trust.md), measured:

1. the reported core clock against an independent register-register add chain (probes/);
2. the model's roofs (L1, L2, L3, memory load; DP and SP FMA at the widest ISA) over --runs quick
   `characterize --only bandwidth,flops` runs: their spread (max - min) / median;
3. the same with scripts/interference_injector.py stealing --duty of the last CPU, and the
   shift of each roof's median against the clean runs;
4. the DP FMA ceiling against an independent all-core AVX-512 FMA probe run after each clean run;
5. the L3 latency at larm's working set against the memory latency (or L3 marked indistinct);
6. the wall time of a default `characterize` (unless --skip-default), against --baseline-seconds.

    scripts/trust_benchmark.py --larm build/release/tools/larm

Each check prints its figures and PASS or MISS against its target.
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

here = os.path.dirname(os.path.abspath(__file__))
parser = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
parser.add_argument("--larm", required=True)
parser.add_argument("--runs", type=int, default=5)
parser.add_argument("--duty", type=float, default=0.5, help="injector's busy share of one CPU")
parser.add_argument("--skip-default", action="store_true", help="no default characterize run")
parser.add_argument("--baseline-seconds", type=float, default=63.0,
                    help="a default characterize of an earlier larm on this machine, for comparison (63 s)")
args = parser.parse_args()
work = tempfile.mkdtemp(prefix="larm-trust-")
cpus = sorted(os.sched_getaffinity(0))


def compile_probe(source, flags):
    binary = os.path.join(work, os.path.splitext(source)[0])
    subprocess.run(["cc", "-O3", "-funroll-loops", *flags, "-o", binary,
                    os.path.join(here, "probes", source)], check=True)
    return binary


def spread(values):
    middle = statistics.median(values)
    return (max(values) - min(values)) / middle if middle else 0.0


def verdict(ok):
    return "PASS" if ok else "MISS"


clock_probe = compile_probe("clock_chain.c", [])
try:
    fma_probe = compile_probe("fma_probe.c", ["-mavx512f", "-mfma", "-fopenmp"])
except subprocess.CalledProcessError:
    fma_probe = None


def probe_clock():
    """The add chain on every CPU at once (all cores busy, as larm's clock), mean of the CPUs."""
    runs = [subprocess.Popen([clock_probe, str(cpu)], stdout=subprocess.PIPE, text=True)
            for cpu in cpus]
    return statistics.mean(float(r.communicate()[0]) for r in runs)


def probe_fma():
    env = dict(os.environ, OMP_PROC_BIND="true", OMP_NUM_THREADS=str(len(cpus)))
    return float(subprocess.run([fma_probe], stdout=subprocess.PIPE, text=True, env=env,
                                check=True).stdout) if fma_probe else None


def characterize(name, extra):
    out = os.path.join(work, name)
    start = time.monotonic()
    subprocess.run([args.larm, "characterize", "--quiet", "--out", out, *extra], check=True,
                   stdout=subprocess.DEVNULL)
    wall = time.monotonic() - start
    return json.load(open(os.path.join(out, "results.json"))), wall


def key_roofs(doc):
    """The roofs of the targets, by name: domain 0, load roofs of each level, FMA ceilings."""
    isa = doc["provenance"]["isa"]
    roofs = {}
    for r in doc["roofs"]:
        if r["domain"] != 0 or r.get("roof") is None:
            continue
        if r["level"] in ("L1", "L2", "L3") and r["access"] == "load":
            roofs[r["level"] + " load"] = r["roof"]
        elif r["level"] == "memory" and r["access"] == "load" and r["placement"] == "local":
            roofs["memory load"] = r["roof"]
        elif r["level"] == "flops" and r["access"] == "fma" and r["isa"] == isa:
            roofs[r["precision"].upper() + " FMA"] = r["roof"]
    return roofs


def plain_clock(doc):
    return next(f["stats"]["median"] for f in doc["frequency"] if f["domain"] == 0
                and "under" not in f)


print(f"machine: {len(cpus)} CPUs; larm {args.larm}; {args.runs} runs per condition")
clean, clocks, fma_ratios = [], [], []
for run in range(args.runs):
    doc, _ = characterize(f"clean{run}", ["--quick", "--only", "bandwidth,flops"])
    clean.append(key_roofs(doc))
    clocks.append(plain_clock(doc) / probe_clock())
    fma = probe_fma()
    if fma:
        fma_ratios.append(clean[-1]["DP FMA"] / fma)

injected = []
injector = subprocess.Popen([sys.executable, os.path.join(here, "interference_injector.py"),
                             "--cpu", str(cpus[-1]), "--duty", str(args.duty)])
try:
    for run in range(args.runs):
        doc, _ = characterize(f"injected{run}", ["--quick", "--only", "bandwidth,flops"])
        injected.append(key_roofs(doc))
finally:
    injector.terminate()
    injector.wait()

print("\n1. core clock: larm (all cores, add chain) / independent add chain, per run:")
print("   " + " ".join(f"{c:.3f}" for c in clocks) +
      f"  median {statistics.median(clocks):.3f}  target within 3 %: "
      f"{verdict(abs(statistics.median(clocks) - 1) <= 0.03)}")

print(f"\n2./3. roofs over {args.runs} quick runs (value: `roof`, the estimator's):")
print(f"   {'roof':<12} {'clean median':>13} {'clean spread':>13} {'injected spread':>16} "
      f"{'shift':>8}  target 5 %")
for name in ["L1 load", "L2 load", "L3 load", "memory load", "DP FMA", "SP FMA"]:
    a = [r[name] for r in clean if name in r]
    b = [r[name] for r in injected if name in r]
    if not a or not b:
        print(f"   {name:<12} absent")
        continue
    shift = abs(statistics.median(b) - statistics.median(a)) / statistics.median(a)
    ok = spread(a) <= 0.05 and spread(b) <= 0.05 and shift <= 0.05
    print(f"   {name:<12} {statistics.median(a):13.1f} {100 * spread(a):12.1f}% "
          f"{100 * spread(b):15.1f}% {100 * shift:7.1f}%  {verdict(ok)}")

print("\n4. DP FMA ceiling / independent all-core FMA probe, per run:")
if fma_ratios:
    print("   " + " ".join(f"{r:.3f}" for r in fma_ratios) +
          f"  median {statistics.median(fma_ratios):.3f}  target >= 0.97: "
          f"{verdict(statistics.median(fma_ratios) >= 0.97)}")
else:
    print("   not measured: the probe needs AVX-512 (it did not compile or run here)")

doc, _ = characterize("latency", ["--quick", "--only", "latency"])
lat = {p["level"]: p for p in doc["latency"] if p["domain"] == 0 and p["stats"]["count"]}
print("\n5. L3 latency against memory latency:")
if "L3" in lat and "memory" in lat:
    l3, mem = lat["L3"], lat["memory"]
    ratio = l3["stats"]["median"] / mem["stats"]["median"]
    marked = "indistinct" in l3["status"]
    print(f"   L3 {l3['stats']['median']:.1f} ns at {l3['working_set_bytes'] / 2**20:.1f} MiB, "
          f"memory {mem['stats']['median']:.1f} ns: ratio {ratio:.2f}"
          f"{' (L3 marked indistinct)' if marked else ''}  target <= 0.6 or indistinct: "
          f"{verdict(ratio <= 0.6 or marked)}")
else:
    print("   no L3 or memory latency measured")

if not args.skip_default:
    _, wall = characterize("default", [])
    print(f"\n6. default characterize: {wall:.0f} s = {wall / args.baseline_seconds:.2f} x "
          f"{args.baseline_seconds:.0f} s  target <= 1.5 x: "
          f"{verdict(wall <= 1.5 * args.baseline_seconds)}")
print(f"\nresults kept in {work}")
