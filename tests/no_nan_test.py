"""No NaN or inf reaches any output: regions that are valid but hostile to arithmetic
(no FLOPs, a single call), placed, advised, plotted and reported on the
reference results and on the thesis' four-domain fixture; every line printed and every file
written (text, JSON, CSV, gnuplot scripts, SVG, HTML, Markdown) is scanned; gnuplot's data files
are not, where NaN is gnuplot's mark of a matrix cell not measured.

    no_nan_test.py LARM REPO_ROOT"""
import copy
import json
import os
import re
import subprocess
import sys
import tempfile

from cli_helpers import Checker

larm, repo = sys.argv[1], sys.argv[2]
reference = os.path.join(repo, "results", "reference", "dev-zen5-2vcpu")
fixture = os.path.join(repo, "tests", "fixtures", "broadwell-table42")
# nan, -nan, inf, -inf, Infinity, NaN as words (not "info", "infinite", "interleave").
BAD = re.compile(r"(?<![A-Za-z])(-?nan|-?inf(inity)?)(?![A-Za-z])", re.IGNORECASE)
c = Checker()


def hostile(source, label, changes=(("zero_flops", "flops"), ("one_call", "calls"))):
    """The source's first region once per change: no FLOPs, one call (valid); no bytes, no time
    (refused: FLOPs without bytes or calls without time cannot be placed)."""
    with open(source) as f:
        doc = json.load(f)
    base = doc["regions"][0]
    doc["label"] = label
    doc["regions"] = []

    def entries(region):
        return region["threads"] + region["domains"] + [region["machine"]]

    for name, change in changes:
        region = copy.deepcopy(base)
        region["name"] = name
        for e in entries(region):
            if change == "flops":
                e["flops"], e["ai"], e["gflops"] = 0.0, 0.0, 0.0
                e["flops_source"] = "declared"
            elif change == "bytes":
                e["bytes"], e["gbps"], e["ai"] = 0.0, 0.0, None
                for key in ("bytes_read", "bytes_written"):
                    if key in e:
                        e[key] = 0.0
            elif change == "time":
                e["seconds"], e["gflops"], e["gbps"] = 0.0, None, None
            else:
                e["calls"] = 1
            if "ai_unavailable" in e and e["ai"] is not None:
                del e["ai_unavailable"]
            if e["ai"] is None and "threads_without_flops" in e:
                e["ai_unavailable"] = "zero bytes"
        doc["regions"].append(region)
    return doc


def scan(what, text):
    found = BAD.search(text)
    c.check(found is None, f"{what}: no NaN or inf" +
            ("" if found is None else f" (found {found.group(0)!r} in ...{text[max(0, found.start() - 80):found.end() + 40]!r})"))


def run(*args):
    r = subprocess.run([larm, *args], capture_output=True, text=True, timeout=300)
    scan(" ".join(os.path.basename(a) for a in args[:2]) + " stdout/stderr", r.stdout + r.stderr)
    return r


with tempfile.TemporaryDirectory(prefix="larm-nonan-") as tmp:
    cases = [(reference, hostile(os.path.join(reference, "regions-triad-firsttouch", "regions.json"), "hostile")),
             (fixture, hostile(os.path.join(fixture, "regions-bind0.json"), "hostile4"))]
    for results, doc in cases:
        name = os.path.basename(results)
        regions = os.path.join(tmp, name + "-regions.json")
        with open(regions, "w") as f:
            json.dump(doc, f)
        r = run("place", results, regions, "--verbose", "--out", os.path.join(tmp, name + "-place.json"))
        c.check(r.returncode == 0, f"place on {name}: exit {r.returncode} {r.stderr[-200:]}")
        c.check("no FLOPs: placed by its bandwidth" in r.stdout, f"{name}: zero_flops placed by bandwidth")
        # FLOPs without bytes, calls without time: the file's problem, one line naming the region,
        # exit 2, nothing written; every command that reads regions says the same.
        for change, words in (("bytes", "FLOPs (declared) but no bytes"), ("time", "calls and no time")):
            bad = os.path.join(tmp, f"{name}-zero-{change}-regions.json")
            with open(bad, "w") as f:
                json.dump(hostile(os.path.join(results, "regions-bind0.json") if results == fixture else
                                  os.path.join(reference, "regions-triad-firsttouch", "regions.json"),
                                  "bad", ((f"zero_{change}", change),)), f)
            out = os.path.join(tmp, f"{name}-zero-{change}-place.json")
            for command in (["place", results, bad, "--out", out], ["advise", results, bad, "--out", out],
                            ["plot", results, "--regions", bad, "--out", out + ".plots"]):
                r = run(*command)
                lines = r.stderr.strip().splitlines()
                c.check(r.returncode == 2 and len(lines) == 1 and f"region zero_{change}" in lines[0]
                        and words in lines[0], f"{command[0]} of zero_{change}: exit {r.returncode}, "
                        f"one line naming it: {r.stderr.strip()[:200]}")
            c.check(not os.path.exists(out) and not os.path.exists(out + ".plots"),
                    f"zero_{change}: nothing written")
        r = run("advise", results, regions, "--out", os.path.join(tmp, name + "-advice.json"))
        c.check(r.returncode == 0, f"advise on {name}: exit {r.returncode} {r.stderr[-200:]}")
        plots = os.path.join(tmp, name + "-plots")
        r = run("plot", results, "--regions", regions, "--out", plots)
        c.check(r.returncode == 0, f"plot on {name}: exit {r.returncode} {r.stderr[-200:]}")
        report = os.path.join(tmp, name + "-report")
        r = run("report", results, "--regions", regions, "--out", report)
        c.check(r.returncode == 0, f"report on {name}: exit {r.returncode} {r.stderr[-200:]}")
    scanned = 0
    for directory, _, files in os.walk(tmp):
        for file in files:
            # Figures as images; gnuplot's data files, where NaN is gnuplot's own mark of a cell not
            # measured (never drawn nor shown); gnuplot's logs.
            if file.endswith((".png", ".pdf", ".dat", ".log")):
                continue
            path = os.path.join(directory, file)
            with open(path, errors="replace") as f:
                text = f.read()
            if file.endswith("-regions.json"):
                continue  # the input
            scan(os.path.relpath(path, tmp), text)
            scanned += 1
    c.check(scanned >= 8, f"{scanned} output files scanned")
sys.exit(c.finish())
