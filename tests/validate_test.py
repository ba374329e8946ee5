"""`larm characterize --quick --validate` and `larm validate --quick` end to end: the error table
parsed back, validation.csv and results.json (against the schema), --fail-above, bad input.
    validate_test.py LARM SCHEMA RESULTS_DIR
RESULTS_DIR: what `larm characterize --quick --validate` wrote, its summary in
characterize-stdout.txt (characterize_test.py makes it: a CTest fixture); used on a copy."""
import csv
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading

import jsonschema

from cli_helpers import Checker, run

larm, schema_file, measured = sys.argv[1], sys.argv[2], sys.argv[3]
c = Checker()
tmp = tempfile.mkdtemp(prefix="larm-validate-")
out = os.path.join(tmp, "results")
shutil.copytree(measured, out)


def table_rows(stdout):
    rows = {}
    for line in stdout.splitlines():
        # domain, roof, ridge | all: n E MARE | near: n E MARE | away: n E MARE
        m = re.match(r"^(\d+)\s+(.+?)\s+([\d.]+) \|\s+(\d+)\s+([\d.]+)%\s+([\d.]+)%\s*\|"
                     r"\s*(.+?)\s*\|\s*(.+?)\s*$", line)
        if m:
            rows[(int(m.group(1)), m.group(2))] = (float(m.group(3)), int(m.group(4)), m.group(7),
                                                   m.group(8))
    return rows


# The summary `characterize --validate` printed: its error table.
with open(os.path.join(out, "characterize-stdout.txt")) as f:
    characterized = f.read()
rows = table_rows(characterized)
doc = json.load(open(os.path.join(out, "results.json")))
# A cache level whose latency is within 15 % of the next one's is indistinct (its roofs measure
# the next level): it has no roof of its own to validate. It happens when the cache usable here
# is smaller than hwloc declares, and on a busy machine (L2 in 1 of 3 runs beside a
# characterization loop); L1 and memory are always distinct.
indistinct = {r["level"] for r in doc["roofs"] if r["domain"] == 0 and r["access"] == "load"
              and r["status"].startswith("indistinct")}
for level in ("L1", "L2", "L3", "memory 0 local"):
    row = (0, level + " load")
    if level in indistinct:
        c.check(row not in rows, f"indistinct {level} is not validated: {sorted(rows)}")
        print(f"{level} indistinct here, not validated")
    else:
        c.check(row in rows, f"error table has a row for {level} load: {sorted(rows)}")
jsonschema.validate(doc, json.load(open(schema_file)))
points = doc["validation"]
# Five points at least on each roof validated (4 roofs when every level is distinct).
c.check(len(points) >= 5 * len(rows), f"{len(points)} validation points on {len(rows)} roofs")


def roofs_estimate(samples, estimator):
    """results/statistics.cpp's estimate(): the median, or the 0.9 quantile interpolated."""
    s = sorted(samples)
    if estimator == "median":
        n = len(s)
        return s[n // 2] if n % 2 else (s[n // 2 - 1] + s[n // 2]) / 2
    position = 0.9 * (len(s) - 1)
    below = int(position)
    above = min(below + 1, len(s) - 1)
    return s[below] + (position - below) * (s[above] - s[below])


estimator = doc["provenance"].get("roof_estimator", "median")
for p in points:
    c.check(p["samples"] and p["stats"]["median"] > 0, f"{p['roof']} AI {p['ai']}: measured")
    expected = min(p["ai"] * p["roof_gbps"], p["ceiling_gflops"])
    c.check(abs(p["predicted_gflops"] - expected) < 1e-9 * expected, "prediction is min(AI x B, F)")
    # The point's value: every pass's samples under the roofs' own estimator.
    c.check(p["estimator"] == estimator,
            f"{p['roof']} AI {p['ai']}: read with the roofs' estimator ({p['estimator']})")
    c.check(abs(p["gflops"] - roofs_estimate(p["samples"], p["estimator"])) <= 1e-9 * p["gflops"],
            f"{p['roof']} AI {p['ai']}: its value is its samples' {p['estimator']}")
    c.check(len(p["samples"]) >= 4,
            f"{p['roof']} AI {p['ai']}: samples of 2 passes or more ({len(p['samples'])})")
    c.check(abs(p["relative_error"] - (p["gflops"] - expected) / expected) < 1e-9,
            "relative error is (y - prediction) / prediction")
    # The roof's own kernel, measured in the same passes: the error against it too.
    alongside = p.get("roof_gbps_alongside")
    c.check(alongside is not None and alongside > 0,
            f"{p['roof']} AI {p['ai']}: its roof measured alongside ({alongside})")
    if alongside:
        moved = min(p["ai"] * alongside, p["ceiling_gflops"])
        c.check(abs(p["relative_error_alongside"] - (p["gflops"] - moved) / moved) < 1e-9,
                "the error alongside is (y - min(AI x B alongside, F)) / that")
with open(os.path.join(out, "validation.csv")) as f:
    lines = list(csv.DictReader(f))
c.check(len(lines) == len(points), "validation.csv has every point")
c.check({"roof", "ai", "gflops", "roof_gflops", "relative_error"} <= set(lines[0]), "csv columns")
for (domain, roof), (ridge, count, near, away) in rows.items():
    mine = [p for p in points if p["domain"] == domain and p["roof"] == roof]
    c.check(count == len(mine), f"{roof}: {count} points in the table, {len(mine)} stored")
    c.check(abs(ridge - mine[0]["ceiling_gflops"] / mine[0]["roof_gbps"]) < 1e-3, f"{roof}: ridge")

# larm validate on the same directory: replaces the points; --fail-above 0.001 must fail.
r = run(larm, "validate", out, "--quick")
c.check(r.returncode == 0, f"validate --quick exits 0: {r.stderr}")
c.check(len(table_rows(r.stdout)) == len(rows), "validate prints the same roofs")
# The cache roofs only (their points are quick to measure): an error above 0.001 % is certain.
r = run(larm, "validate", out, "--quick", "--placements", "cache", "--fail-above", "0.001")
c.check(r.returncode == 1 and "error away from the ridge" in r.stderr,
        f"--fail-above 0.001 exits 1 naming the roof: {r.returncode} {r.stderr!r}")

# Interrupted (SIGINT) part way: exit 130, and every point kept was measured and judged (its
# value its samples' estimate, its error from it); none that no pass reached.
interrupted = os.path.join(tmp, "interrupted")
shutil.copytree(out, interrupted)
proc = subprocess.Popen([larm, "validate", interrupted], stdout=subprocess.DEVNULL,
                        stderr=subprocess.PIPE, text=True)
# Interrupted once a point has been measured: at its second progress line (lines come at most
# every 10 s, the first before the first point), however long a busy machine takes to get there.
err_lines, measuring = [], threading.Event()


def read_stderr():
    for line in proc.stderr:
        err_lines.append(line)
        if sum("validating" in seen for seen in err_lines) >= 2:
            measuring.set()


reader = threading.Thread(target=read_stderr, daemon=True)
reader.start()
c.check(measuring.wait(timeout=300), "validate began measuring within 300 s")
proc.send_signal(signal.SIGINT)
try:
    proc.wait(timeout=120)
except subprocess.TimeoutExpired:
    proc.kill()
    proc.wait()
reader.join(timeout=10)
err = "".join(err_lines)
c.check(proc.returncode == 130 and "interrupted" in err,
        f"validate interrupted exits 130: {proc.returncode} {err[-200:]!r}")
kept = json.load(open(os.path.join(interrupted, "results.json")))["validation"]
for p in kept:
    if p["status"].startswith("absent"):
        continue
    c.check(p["samples"] and abs(p["gflops"] - roofs_estimate(p["samples"], p["estimator"]))
            <= 1e-9 * p["gflops"], f"interrupted, kept {p['roof']} AI {p['ai']}: measured, judged")
c.check(any(not p["status"].startswith("absent") for p in kept),
        f"interrupted after its first points, validate kept some: {len(kept)}")

# Bad input: one line, exit 2.
other = os.path.join(tmp, "other-host")
shutil.copytree(out, other)
doc["provenance"]["host"] = "some-other-node"
json.dump(doc, open(os.path.join(other, "results.json"), "w"))
for args, expected in [(["validate", os.path.join(tmp, "missing")], "cannot read"),
                       (["validate", out, "--fail-above", "-3"], "fail-above"),
                       (["validate", out, "--op", "div"], "op"),
                       (["validate", out, "--domains", "7"], "does not exist"),
                       (["validate", out, "--placements", "sideways"], "placements"),
                       (["validate", other], "measured on some-other-node")]:
    r = run(larm, *args)
    lines = r.stderr.strip().splitlines()
    c.check(r.returncode == 2 and len(lines) == 1 and expected in r.stderr,
            f"{' '.join(args[1:])}: exit {r.returncode}, {r.stderr!r}")
c.finish()
