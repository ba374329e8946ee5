"""larm compare-fleet, show, plot and report on a fleet made of copies of the reference run: one
node with its L1 and FLOP roofs halved, one with 8 GiB of memory missing; bad input.
    fleet_cli_test.py LARM REPO_ROOT"""
import copy
import json
import os
import sys
import tempfile


from cli_helpers import Checker, run

larm, repo = sys.argv[1], sys.argv[2]
reference = json.load(open(os.path.join(repo, "results", "reference", "dev-zen5-2vcpu",
                                        "results.json")))
schema = json.load(open(os.path.join(repo, "results", "schema", "fleet-v1.schema.json")))
c = Checker()


def node(fleet, name, scale=lambda roof: 1.0, memory_bytes=None):
    doc = copy.deepcopy(reference)
    for roof in doc["roofs"]:
        factor = scale(roof)
        roof["samples"] = [s * factor for s in roof["samples"]]
        for key in ("median", "min", "max", "mean"):
            if roof.get("stats", {}).get(key) is not None:
                roof["stats"][key] *= factor
        if roof.get("roof") is not None:
            roof["roof"] *= factor
    if memory_bytes is not None:
        doc["topology"]["memories"][0]["bytes"] = memory_bytes
    os.makedirs(os.path.join(fleet, name))
    json.dump(doc, open(os.path.join(fleet, name, "results.json"), "w"))


def slow_core(roof):
    return 0.5 if roof["level"] in ("flops", "L1") else 1.0


with tempfile.TemporaryDirectory() as tmp:
    fleet = os.path.join(tmp, "fleet")
    for i, wobble in enumerate([1.0, 1.01, 0.99, 1.02, 0.98]):
        node(fleet, f"n{i}", lambda roof, w=wobble: w)
    node(fleet, "slow", slow_core)
    memory = reference["topology"]["memories"][0]["bytes"]
    node(fleet, "dimm", memory_bytes=memory - 8 * 2**30)
    os.makedirs(os.path.join(fleet, "broken"))
    open(os.path.join(fleet, "broken", "results.json"), "w").write("{not json")

    r = run(larm, "compare-fleet", fleet)
    c.check_equal(r.returncode, 0, "compare-fleet: " + r.stderr)
    doc = json.load(open(os.path.join(fleet, "fleet.json")))
    c.check_schema(doc, schema, "fleet.json against its schema")
    hosts = [n["host"] for n in doc["nodes"]]
    c.check_equal(len(hosts), 8, "every node directory is a node")
    broken = next(n for n in doc["nodes"] if n["host"] == "broken")
    c.check_equal(broken["outcome"], "failed", "an unreadable results file is a failed node")
    c.check("not valid JSON" in broken["reason"], "its reason: " + broken["reason"])
    outliers = {o["host"]: o for o in doc["outliers"]}
    c.check_equal(sorted(outliers), ["dimm", "slow"], "the two odd nodes and no other")
    slow = outliers["slow"]
    flagged = {d["roof"] for d in slow["roofs"]}
    levels = {k.split()[1] for k in flagged}
    c.check_equal(levels, {"L1", "flops"}, "slow is low on its L1 and FLOP roofs only")
    peak = next(r for r in doc["roofs"] if r["key_roof"] and " flops " in r["key"])
    c.check(peak["key"] in flagged, "the peak DP ceiling is among them")
    c.check(all(abs(d["drop"] - 0.5) < 0.03 for d in slow["roofs"]), "each about 50 % below")
    c.check_equal(outliers["dimm"]["topology"][0]["what"], "memory 0 size",
                  "dimm: its memory size against the majority")
    c.check_equal(doc["outliers"][0]["host"], "dimm", "topology differences come first")
    csv = open(os.path.join(fleet, "fleet.csv")).read().splitlines()
    c.check_equal(csv[0], "host,rank,outcome,roof,unit,value,fleet_median,fleet_mad,"
                          "ratio_to_median,outlier", "fleet.csv header")
    c.check(any(line.startswith("slow,") and line.endswith(",yes") for line in csv),
            "fleet.csv marks the slow node's roofs")

    r = run(larm, "show", fleet)
    c.check_equal(r.returncode, 0, "show fleet: " + r.stderr)
    text = r.stdout
    c.check(text.index("Outliers (2)") < text.index("Key roofs"), "show: outliers first")
    c.check("memory 0 size" in text and "slow:" in text, "show names both and why")
    c.check("broken: failed" in text, "show lists the failed node")

    r = run(larm, "plot", fleet, "--format", "svg")
    c.check_equal(r.returncode, 0, "plot fleet: " + r.stderr)
    plots = os.listdir(os.path.join(fleet, "plots"))
    c.check("fleet-heatmap.gp" in plots, "plot: the heatmap script")
    strips = [p for p in plots if p.startswith("fleet-d0-") and p.endswith(".gp")]
    c.check(len(strips) >= 4, f"plot: one strip plot per key roof ({strips})")
    if json.load(open(os.path.join(fleet, "plots", "figures.json")))["gnuplot"]:
        c.check("fleet-heatmap.svg" in plots, "plot: the heatmap drawn")
        data = open(os.path.join(fleet, "plots", "fleet-d0-L1-load.dat")).read()
        c.check('1 "slow"' in data, "the L1 strip plot marks slow as its outlier")

    r = run(larm, "report", fleet)
    c.check_equal(r.returncode, 0, "report fleet: " + r.stderr)
    html = open(os.path.join(fleet, "report.html")).read()
    c.check('id="outliers"' in html and "slow" in html and "fleet-heatmap" in html,
            "report.html: outliers table and figures")
    md = open(os.path.join(fleet, "report.md")).read()
    c.check(md.index("## Outliers") < md.index("## Key roofs"), "report.md: outliers first")

    # Bad input: one line, non-zero.
    empty = os.path.join(tmp, "empty")
    os.makedirs(empty)
    r = run(larm, "compare-fleet", empty)
    c.check(r.returncode == 2 and len(r.stderr.strip().splitlines()) == 1 and
            "no node results" in r.stderr, "compare-fleet of an empty directory: " + r.stderr)
    open(os.path.join(fleet, "fleet.json"), "w").write('{"schema": "larm-fleet"}')
    r = run(larm, "show", fleet)
    c.check(r.returncode == 2 and len(r.stderr.strip().splitlines()) == 1,
            "show of a malformed fleet.json: " + r.stderr)
c.finish()
