"""End-to-end test of `larm hybrid weights` and `larm run --weighted-interleave`.

hybrid weights: on the HBM and Optane fixtures, its best share against an exhaustive sweep of
the fitted model computed here (the piecewise equations from hybrid.json's θ, a separate
implementation), its weights' share and bandwidth against the same model, a region's read share,
and bad questions refused with one line and exit 2.
run: the policy reaches the program (its /proc/self/numa_maps names it), the pages of
page_census land where weighted interleave over this machine's nodes puts them, the program's
exit status is larm's, and bad weights, unknown nodes, weights that differ from the kernel's, a
kernel without the policy refused with one line and exit 2 before the program runs.
    weights_run_test.py LARM PAGE_CENSUS REPO"""
import glob
import json
import os
import sys

from cli_helpers import Checker, run

larm, census, repo = sys.argv[1], sys.argv[2], sys.argv[3]
c = Checker()
fixtures = os.path.join(repo, "tests", "fixtures")
WEIGHTS_DIR = "/sys/kernel/mm/mempolicy/weighted_interleave"


def one_line_error(result, expected, what):
    lines = result.stderr.strip().splitlines()
    c.check(result.returncode == 2, f"{what}: exit {result.returncode}, expected 2")
    c.check(len(lines) == 1 and lines[0].startswith("larm: error:") and expected in lines[0],
            f"{what}: stderr {result.stderr!r}, expected one line with {expected!r}")


def model(fit):
    """The piecewise model of a hybrid.json fit: GB/s at (ratio_fast, ratio_read)."""
    b = fit["bandwidths_gbps"]
    theta = fit["piecewise"]["theta"]

    def gbps(f, r):
        q = {"ll": r * (1 - f), "lr": r * f, "el": (1 - r) * (1 - f), "er": (1 - r) * f}
        t = {k: q[k] / b[k] if q[k] > 0 else 0.0 for k in q}
        top = max(t.values())
        k = next(k for k in ("ll", "lr", "el", "er") if t[k] >= top * (1 - 1e-12))
        return 1 / (t[k] + sum(theta[k][j] * t[j] for j in t if j != k))
    return gbps


for name in ("four-domain-hbm", "optane-hybrid"):
    doc = json.load(open(os.path.join(fixtures, name, "hybrid.json")))
    gbps = model(doc["fit"])
    for read in (0, 0.25, 0.5, 2 / 3, 0.75, 1):
        r = run(larm, "hybrid", "weights", os.path.join(fixtures, name), "--ratio-read", str(read),
                "--json")
        c.check(r.returncode == 0, f"{name} {read}: exit {r.returncode}: {r.stderr}")
        if r.returncode != 0:
            continue
        advice = json.loads(r.stdout)
        sweep = max((gbps(i / 20000, read), i / 20000) for i in range(20001))
        best = advice["best"]
        c.check(abs(best["ratio_fast"] - sweep[1]) <= 0.02,
                f"{name} {read}: best share {best['ratio_fast']:.4f}, sweep {sweep[1]:.4f}")
        c.check(sweep[0] * (1 - 1e-6) <= best["gbps"] <= sweep[0] * 1.02,
                f"{name} {read}: best {best['gbps']:.3f} GB/s, sweep {sweep[0]:.3f}")
        w = advice["weights"]
        share = w["fast"] / (w["fast"] + w["slow"])
        c.check(abs(w["ratio_fast"] - share) < 1e-12 and 1 <= w["fast"] <= 16 and
                1 <= w["slow"] <= 16, f"{name} {read}: weights {w}")
        c.check(abs(w["gbps"] - gbps(share, read)) <= 1e-6 * w["gbps"],
                f"{name} {read}: weights' {w['gbps']} GB/s, model {gbps(share, read)}")
        for key, f in (("all_fast", 1), ("interleave", 0.5), ("all_slow", 0)):
            c.check(abs(advice[key]["gbps"] - gbps(f, read)) <= 1e-6 * gbps(f, read),
                    f"{name} {read}: {key} {advice[key]['gbps']}, model {gbps(f, read)}")
        fast, slow = doc["fast"]["memory"], doc["slow"]["memory"]
        c.check_equal(w.get("run"), f"larm run --weighted-interleave {fast}:{w['fast']},{slow}:"
                      f"{w['slow']} -- PROGRAM ARGS...", f"{name} {read}: run line")
        c.check_equal(w.get("sysfs"), [f"echo {w['fast']} > {WEIGHTS_DIR}/node{fast}",
                                       f"echo {w['slow']} > {WEIGHTS_DIR}/node{slow}"],
                      f"{name} {read}: sysfs lines")

# Optane at the STREAM kernels' read share: inside (0, 1), above all-fast and plain interleave.
r = run(larm, "hybrid", "weights", os.path.join(fixtures, "optane-hybrid"), "--ratio-read",
        "0.6667")
c.check(r.returncode == 0 and "Weights " in r.stdout and "over plain interleave" in r.stdout and
        "echo " in r.stdout and "larm run --weighted-interleave 0:" in r.stdout,
        f"optane text: {r.stdout!r} {r.stderr!r}")
# A region's read share (ddot: reads only) is the read share 1's answer.
regions = os.path.join(fixtures, "broadwell-table42", "regions-firsttouch.json")
by_region = run(larm, "hybrid", "weights", os.path.join(fixtures, "optane-hybrid"), "--regions",
                regions, "--region", "ddot", "--json")
by_share = run(larm, "hybrid", "weights", os.path.join(fixtures, "optane-hybrid"), "--ratio-read",
               "1", "--json")
if by_region.returncode == 0 and by_share.returncode == 0:
    a, b = json.loads(by_region.stdout), json.loads(by_share.stdout)
    c.check_equal(a["ratio_read_from"], "region ddot", "region's read share named")
    c.check_equal(a["weights"], b["weights"], "region ddot = read share 1")
else:
    c.check(False, f"region weights: {by_region.stderr} {by_share.stderr}")
# A samples file names no memories: no lines without --nodes, the lines with them.
samples = os.path.join(fixtures, "hybrid-samples-skylake-theta.csv")
r = run(larm, "hybrid", "weights", samples, "--ratio-read", "0.5")
c.check(r.returncode == 0 and "--nodes FAST,SLOW" in r.stdout and "echo" not in r.stdout,
        f"samples without nodes: {r.stdout!r}")
# --nodes are this machine's memories: the lines printed are ones larm run takes.
nodes = sorted(int(p.rsplit("node", 1)[1]) for p in glob.glob("/sys/devices/system/node/node*")
               if open(os.path.join(p, "meminfo")).read().split("MemTotal:")[1].split()[0] != "0")
if len(nodes) >= 2:
    fast, slow = nodes[0], nodes[1]
    r = run(larm, "hybrid", "weights", samples, "--ratio-read", "0.5", "--nodes", f"{fast},{slow}")
    c.check(r.returncode == 0 and f"{WEIGHTS_DIR}/node{fast}" in r.stdout and
            f"weighted-interleave {fast}:" in r.stdout, f"samples with nodes: {r.stdout!r}")
for bad in (f"{nodes[0]},4093", "4093,4094", f"{nodes[0]},4294967295"):
    one_line_error(run(larm, "hybrid", "weights", samples, "--ratio-read", "0.5", "--nodes", bad),
                   "is not a memory of this machine", f"hybrid weights --nodes {bad}")

hbm = os.path.join(fixtures, "four-domain-hbm")
for args, expected, what in (
        ((hbm,), "--ratio-read R, or --regions FILE --region NAME", "no read share"),
        ((hbm, "--ratio-read", "1.5"), "[0, 1]", "read share 1.5"),
        ((hbm, "--ratio-read", "0.5", "--regions", regions, "--region", "ddot"), "--ratio-read R",
         "two read shares"),
        ((hbm, "--regions", regions, "--region", "nosuch"), "no region 'nosuch'", "unknown region"),
        ((hbm, "--region", "ddot"), "go together", "region without file"),
        ((hbm, "--ratio-read", "0.5", "--max-weight", "0"), "--max-weight", "max weight 0"),
        ((hbm, "--ratio-read", "0.5", "--max-weight", "256"), "--max-weight", "max weight 256"),
        ((hbm, "--ratio-read", "0.5", "--nodes", "0,1"), "--nodes is for a samples file",
         "nodes on hybrid.json"),
        ((samples, "--ratio-read", "0.5", "--nodes", "1,1"), "same node twice", "nodes twice"),
        ((samples, "--ratio-read", "0.5", "--nodes", "1"), "two OS indices", "one node"),
        ((os.path.join(repo, "nosuch"), "--ratio-read", "0.5"), "nosuch", "missing source")):
    one_line_error(run(larm, "hybrid", "weights", *args), expected, f"hybrid weights: {what}")

# larm run: refusals before the program runs (a marker file it would create stays absent).
marker = os.path.join(os.environ.get("TMPDIR", "/tmp"), f"larm-run-marker-{os.getpid()}")
touch = ("--", "sh", "-c", f"echo > {marker}")
for args, expected, what in (
        (touch, "give the policy", "no policy"),
        (("--weighted-interleave", "0:1"), "give a program", "no program"),
        (("--weighted-interleave", "0") + touch, "is not NODE:WEIGHT", "no weight"),
        (("--weighted-interleave", "x:1") + touch, "not a node number", "node not a number"),
        (("--weighted-interleave", "0:0") + touch, "[1, 255]", "weight 0"),
        (("--weighted-interleave", "0:256") + touch, "[1, 255]", "weight 256"),
        (("--weighted-interleave", "0:-1") + touch, "[1, 255]", "weight -1"),
        (("--weighted-interleave", "0:1.5") + touch, "[1, 255]", "weight 1.5"),
        (("--weighted-interleave", "0:1,0:2") + touch, "given twice", "node twice"),
        (("--weighted-interleave", "4093:1") + touch, "not a memory of this machine",
         "unknown node"),
        (("--weighted-interleave", "0:1", "--", "/nonexistent/program"), "/nonexistent/program",
         "missing program")):
    one_line_error(run(larm, "run", *args), expected, f"run: {what}")
    c.check(not os.path.exists(marker), f"run: {what}: the program ran")

if not os.path.isdir(WEIGHTS_DIR):
    one_line_error(run(larm, "run", "--weighted-interleave", "0:1", *touch),
                   "no weighted interleave", "run: kernel without the policy")
    c.check(not os.path.exists(marker), "run without the policy: the program ran")
    print(f"this kernel has no {WEIGHTS_DIR}: only the refusal is checked")
else:
    current = {n: int(open(f"{WEIGHTS_DIR}/node{n}").read()) for n in nodes}
    spec = ",".join(f"{n}:{w}" for n, w in current.items())
    # Weights that differ from the kernel's: refused, with the line that would set them, and
    # the kernel's left as they were.
    other = current[nodes[0]] % 255 + 1
    r = run(larm, "run", "--weighted-interleave", f"{nodes[0]}:{other}", *touch)
    one_line_error(r, f"echo {other} > {WEIGHTS_DIR}/node{nodes[0]}", "run: weights differ")
    c.check(not os.path.exists(marker), "run with other weights: the program ran")
    c.check_equal(int(open(f"{WEIGHTS_DIR}/node{nodes[0]}").read()), current[nodes[0]],
                  "the kernel's weight after a refusal")
    # The policy reaches the program.
    r = run(larm, "run", "--weighted-interleave", spec, "--", "cat", "/proc/self/numa_maps")
    c.check(r.returncode == 0 and "weighted interleave:" in r.stdout,
            f"run: numa_maps under the policy: {r.returncode} {r.stdout[:300]!r} {r.stderr!r}")
    # The pages where the weights put them: 4096 pages in rounds of sum(weights).
    r = run(larm, "run", "--weighted-interleave", spec, "--", census, "4096")
    counts = {int(line.split()[1].rstrip(":")): int(line.split()[2])
              for line in r.stdout.splitlines() if line.startswith("node ")}
    total = sum(current.values())
    for n in nodes:
        share = counts.get(n, 0) / 4096
        c.check(abs(share - current[n] / total) <= 0.02,
                f"run: node {n} holds {share:.4f} of the pages, weights ask {current[n] / total:.4f}")
    print(f"page census under weights {spec}: {counts}")
    # The program's exit status is larm's.
    r = run(larm, "run", "--weighted-interleave", spec, "--", "sh", "-c", "exit 3")
    c.check_equal(r.returncode, 3, "run: the program's exit status")
c.finish()
