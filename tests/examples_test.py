"""The instrumented examples end to end: every example with every placement
(examples/run_examples.sh --small), and `larm place` on the roofs of a quick characterization,
plus its errors.
    examples_test.py LARM RUN_EXAMPLES BUILD_DIR SCHEMA RESULTS_DIR
RESULTS_DIR: the measured results characterize_test.py keeps (a CTest fixture), read only."""
import json
import os
import subprocess
import sys
import tempfile

from cli_helpers import Checker, run

import jsonschema

larm, script, build, schema_file, results = sys.argv[1:6]
schema = json.load(open(schema_file))
c = Checker()
tmp = tempfile.mkdtemp(prefix="larm-examples-")

out = os.path.join(tmp, "examples")
r = subprocess.run(["bash", script, results, "--out", out, "--build", build, "--small"],
                   capture_output=True, text=True, timeout=600)
c.check(r.returncode == 0, f"run_examples.sh exits 0: {r.stderr}")
c.check("% of it" in r.stdout, "the placement table is printed")
print(r.stdout)

labels = {"firsttouch", "interleave", "single0"}
placements = json.load(open(os.path.join(out, "placements.json")))["regions"]
seen = {(p["region"], p["label"]) for p in placements}
for region in ("ddot", "dgemm", "triad", "stencil"):
    for label in labels:
        c.check((region, label) in seen, f"{region} placed for {label}")
        regions = json.load(open(os.path.join(out, f"{region}-{label}", "regions.json")))
        c.check(regions["label"] == label, f"{region}-{label}: label {regions['label']}")
        try:
            jsonschema.validate(regions, schema)
        except jsonschema.ValidationError as error:
            c.check(False, f"{region}-{label}: regions.json against the schema: {error.message}")
        names = [x["name"] for x in regions["regions"]]
        c.check(names == [region], f"{region}-{label}: regions {names}")
        data = regions["regions"][0]["data"]
        c.check(data is not None and sum(data["memory_fractions"].values()) > 0.99,
                f"{region}-{label}: tagged data placed on memories")
kinds = {"cache", "memory", "compute", "latency", "unexplained", "above_roofs", "hybrid"}
for p in placements:
    what = f"{p['region']} {p['label']}"
    c.check(p["ai"] is not None and p["ai"] > 0, f"{what}: AI from the declared counts")
    c.check(p["flops_source"] == "declared", f"{what}: FLOPs declared (no counters here)")
    c.check(p["kind"] in kinds, f"{what}: bound kind {p['kind']}")
    if p["bound"] is not None:
        # A point may sit above its bound by no more than the roof's own noise, unless the record
        # says how far beyond it (above_by).
        noise = p["bound"]["tolerance"]
        c.check(0 <= p["share"] <= 1 + noise or p["above_by"] is not None,
                f"{what}: its share of the bound {p['share']}")
        c.check(p["roof_at_point"] * (1 + noise) >= p["gflops"] or p["above_by"] is not None,
                f"{what}: the bounding roof is above the point, or within its noise")
expected_ai = {"ddot": 2 / 16, "triad": 2 / 24, "dgemm": 2 / 24, "stencil": 8 / 64}
for p in placements:
    c.check(abs(p["ai"] - expected_ai[p["region"]]) < 1e-12,
            f"{p['region']}: AI {p['ai']} is the declared {expected_ai[p['region']]}")


# `larm place` errors: one line, exit 2.
not_regions = os.path.join(tmp, "not-regions.json")
with open(not_regions, "w") as f:
    f.write('{"format": "something-else"}')
broken = os.path.join(tmp, "broken.json")
with open(broken, "w") as f:
    f.write("{")
for args, expected in [([results, os.path.join(tmp, "missing.json")], "not found"),
                       ([results, not_regions], "not a larm regions file"),
                       ([results, broken], "not valid json"),
                       ([results, out, "--access", "sideways"], "access")]:
    r = run(larm, "place", *args)
    lines = r.stderr.strip().splitlines()
    c.check(r.returncode == 2, f"place {args[-1]}: exit {r.returncode}")
    c.check(len(lines) == 1 and expected in r.stderr.lower(), f"place {args[-1]}: {r.stderr!r}")
c.finish()
