"""larm advise end to end: the thesis' four-domain node (fixture broadwell-table42), the one-node
reference run, TreeMatch from a CSV, and bad input.
    advise_cli_test.py LARM REPO_ROOT"""
import json
import os
import shutil
import sys
import tempfile

import jsonschema

from cli_helpers import Checker, run

larm, repo = sys.argv[1], sys.argv[2]
fixture = os.path.join(repo, "tests", "fixtures", "broadwell-table42")
reference = os.path.join(repo, "results", "reference", "dev-zen5-2vcpu")
schema = json.load(open(os.path.join(repo, "results", "schema", "advice-v1.schema.json")))
c = Checker()

with tempfile.TemporaryDirectory() as tmp:
    # Neighbours exchange most: TreeMatch must keep them together, round robin does too here, so
    # TreeMatch can be no worse; scatter splits every pair.
    affinity = os.path.join(tmp, "affinity.csv")
    n = 8
    with open(affinity, "w") as f:
        for i in range(n):
            f.write(",".join("1000" if abs(i - j) == 1 else "0" for j in range(n)) + "\n")
    out = os.path.join(tmp, "advice.json")
    r = run(larm, "advise", fixture, os.path.join(fixture, "regions-bind0.json"), "--out", out,
            "--cross-validate", "--affinity", affinity,
            "--command", "./ddot")
    c.check_equal(r.returncode, 0, "advise on the four-domain fixture: " + r.stderr)
    doc = json.load(open(out))
    try:
        jsonschema.validate(doc, schema)
        c.check(True, "")
    except jsonschema.ValidationError as e:
        c.check(False, f"advice.json against its schema: {e.message} at {list(e.path)}")
    ddot = next(x for x in doc["regions"] if x["region"] == "ddot")
    order = [p["placement"] for p in ddot["ranking"]]
    c.check(order.index("compact + first touch") < order.index("compact + interleave")
            < order.index("compact + bind 0"), f"ddot ranking {order}")
    c.check(ddot["sensitive"], "ddot is placement-sensitive")
    c.check(ddot["thesis_sensitive"] is True, "ddot is sensitive by thesis Def. 6.1")
    c.check(abs(ddot["thesis_time_ratios"]["compact + interleave"] - 2.0) < 0.05,
            f"interleave doubles ddot's time: {ddot['thesis_time_ratios']}")
    model = doc["bandwidth_model"]
    c.check_equal([m["model"] for m in model["checks"]], ["capacity", "martinasso"],
                  "both bandwidth models checked")
    better = min(model["checks"], key=lambda m: m["median_abs_error"])
    c.check_equal(model["chosen"], better["model"], "the better model used: " + model["why"])
    c.check("bandwidth model: " + model["chosen"] in r.stdout, "the choice is printed")
    best = ddot["ranking"][0]
    c.check("numactl --localalloc ./ddot" in best["commands"]["shell"], best["commands"]["shell"])
    c.check_equal(best["commands"]["environment"]["OMP_PROC_BIND"], "close", "compact binds close")
    c.check_equal(best["expected_pages"], {"0": 0.25, "1": 0.25, "2": 0.25, "3": 0.25},
                  "first touch spreads pages")
    c.check_equal(best["threads_per_domain"], {"0": 7, "1": 7, "2": 7, "3": 7}, "threads")
    dgemm = next(x for x in doc["regions"] if x["region"] == "dgemm")
    c.check(not dgemm["sensitive"], "dgemm is not placement-sensitive")
    errors = [abs(v["error"]) for v in doc["model_check"]]
    c.check_equal(len(errors), 36, "every memory roof held out once")
    c.check(max(errors) < 0.10, f"held-out roofs within 10 % (worst {max(errors):.3f})")
    tm = doc["thread_mapping"]
    c.check(tm["hop_bytes"]["treematch"] <= tm["hop_bytes"]["round_robin"],
            f"TreeMatch no worse than round robin: {tm['hop_bytes']}")
    c.check(tm["hop_bytes"]["treematch"] < tm["hop_bytes"]["scatter"],
            f"TreeMatch better than scatter: {tm['hop_bytes']}")
    c.check_equal(len(set(tm["pus"])), n, "one PU per thread")
    c.check_equal(tm["tree_arity"], [2, 2, 7], "the characterized node's tree, not this machine's")
    best = min(x["hop_bytes"] for x in tm["candidates"])
    recommended = next(x for x in tm["candidates"] if x["name"] == tm["recommended"])
    c.check_equal(recommended["hop_bytes"], best, "the recommended mapping has the fewest hop-bytes")
    c.check("OMP_PLACES=" in r.stdout and "hop-bytes" in r.stdout, "mapping printed")

    # larm plot --advice: each domain's LARM gets the predicted placements (its share).
    plots = os.path.join(tmp, "plotted")
    os.makedirs(plots)
    shutil.copy(os.path.join(fixture, "results.json"), plots)
    r = run(larm, "plot", plots, "--advice", out, "--format", "svg")
    c.check_equal(r.returncode, 0, "plot --advice: " + r.stderr)
    data = os.path.join(plots, "plots", "larm-domain0-advice.dat")
    c.check(os.path.exists(data), "advice points written for domain 0")
    if os.path.exists(data):
        rows = [l for l in open(data) if not l.startswith("#") and l.strip()]
        first_touch = [l for l in rows if "ddot: compact + first touch" in l]
        c.check(len(first_touch) == 1 and abs(float(first_touch[0].split()[1]) - 4 * 36.1 * 0.125 / 4) < 0.05,
                f"ddot first touch at this domain's share: {first_touch}")
        script = open(os.path.join(plots, "plots", "larm-domain0.gp")).read()
        c.check("larm-domain0-advice.dat" in script, "the script draws them")
    r = run(larm, "plot", plots, "--advice", os.path.join(fixture, "results.json"))
    c.check(r.returncode == 2 and "not an advice file" in r.stderr, f"plot --advice of a results file: {r.stderr!r}")

    # hybrid.json beside the results: a region of its domain gets its own roof in place and plot
    # (thesis fig. 4.9); the four-domain HBM fixture's fit, naming its memories 1 (HBM, fast) and
    # 0 (DRAM, slow) of domain 0.
    hbm = os.path.join(repo, "tests", "fixtures", "four-domain-hbm")
    hyb = os.path.join(tmp, "hybrid-node")
    os.makedirs(hyb)
    shutil.copy(os.path.join(hbm, "results.json"), hyb)
    h = json.load(open(os.path.join(hbm, "hybrid.json")))
    h["fast"] = {"memory": "1", "kind": "HBM", "why": "test"}
    h["slow"] = {"memory": "0", "kind": "DRAM", "why": "test"}
    json.dump(h, open(os.path.join(hyb, "hybrid.json"), "w"))
    triad = os.path.join(reference, "regions-triad-firsttouch")
    r = run(larm, "place", hyb, triad, "--out", os.path.join(tmp, "place.json"))
    c.check_equal(r.returncode, 0, "place with hybrid.json: " + r.stderr)
    placed = json.load(open(os.path.join(tmp, "place.json")))["regions"]
    roof = placed[0]["hybrid_roof"] if placed else None
    c.check(roof is not None and roof["value"] > 0, f"place gives the region its hybrid roof: {roof}")
    c.check("hybrid roof of this region" in r.stdout, "place prints it")
    r = run(larm, "plot", hyb, "--regions", triad, "--format", "svg")
    c.check_equal(r.returncode, 0, "plot with hybrid.json: " + r.stderr)
    script = open(os.path.join(hyb, "plots", "larm-domain0.gp")).read()
    c.check("hybrid roof of triad" in script, "the LARM of domain 0 draws the region's hybrid roof")

    # One NUMA node: the advice says no memory choice matters, and why.
    out1 = os.path.join(tmp, "advice1.json")
    r = run(larm, "advise", reference, os.path.join(reference, "regions-triad-firsttouch"),
            "--out", out1)
    c.check_equal(r.returncode, 0, "advise on one node: " + r.stderr)
    doc1 = json.load(open(out1))
    jsonschema.validate(doc1, schema)
    c.check(any("no memory choice matters here" in note for note in doc1["notes"]),
            f"one-node note: {doc1['notes']}")
    c.check(all(not x["sensitive"] for x in doc1["regions"]), "nothing sensitive on one node")
    c.check("no memory choice matters here" in r.stdout, "note printed")

    # Bad input: one line, status 2, no advice file.
    bad_csv = os.path.join(tmp, "bad.csv")
    with open(bad_csv, "w") as f:
        f.write("0,1\n1,zero\n")
    for args, words in (
            ([fixture, os.path.join(tmp, "missing.json")], "missing.json"),
            ([os.path.join(tmp, "nothing"), os.path.join(fixture, "regions-bind0.json")], "nothing"),
            ([fixture, os.path.join(fixture, "regions-bind0.json"), "--affinity", bad_csv,
              ], "row 2, column 2"),
            ([fixture, os.path.join(fixture, "regions-bind0.json"), "--precision", "qp"], "qp")):
        out2 = os.path.join(tmp, "refused.json")
        r = run(larm, "advise", *args, "--out", out2)
        c.check_equal(r.returncode, 2, f"advise {args[-1]} refused")
        lines = r.stderr.strip().splitlines()
        c.check(len(lines) == 1 and words in r.stderr, f"one line naming {words}: {r.stderr!r}")
        c.check(not os.path.exists(out2), "no advice written on bad input")
    big = os.path.join(tmp, "big.csv")
    with open(big, "w") as f:
        for i in range(40):
            f.write(",".join("1" for _ in range(40)) + "\n")
    x = os.path.join(tmp, "x.json")
    r = run(larm, "advise", fixture, os.path.join(fixture, "regions-bind0.json"), "--affinity", big,
            "--out", x)
    c.check_equal(r.returncode, 0, "40 threads on the fixture's 28 cores: " + r.stderr)
    if r.returncode == 0:
        c.check_equal(json.load(open(x))["thread_mapping"]["threads_per_core"], 2,
                      "more threads than cores: two per core")
    # Constraints: only the first package's cores (PUs 0-13).
    r = run(larm, "advise", fixture, os.path.join(fixture, "regions-bind0.json"), "--affinity",
            affinity, "--cores", "0-13", "--out", x)
    c.check_equal(r.returncode, 0, "--cores 0-13: " + r.stderr)
    if r.returncode == 0:
        tm = json.load(open(x))["thread_mapping"]
        c.check(all(pu <= 13 for pu in tm["pus"]), f"mapped on the allowed cores only: {tm['pus']}")
        c.check_equal(tm["usable_cores"], 14, "14 usable cores")
    # A bad core list or matrix fails alone: one line, no advice printed before it.
    for extra in (["--cores", "99"], ["--cores", "3-x"]):
        r = run(larm, "advise", fixture, os.path.join(fixture, "regions-bind0.json"), "--affinity",
                affinity, *extra, "--out", os.path.join(tmp, "y.json"))
        c.check(r.returncode == 2 and r.stdout == "" and len(r.stderr.strip().splitlines()) == 1,
                f"{extra}: exit {r.returncode}, stdout {r.stdout[:80]!r}, stderr {r.stderr!r}")
c.finish()
