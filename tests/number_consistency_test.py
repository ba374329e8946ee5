"""Every roof a reader sees reads the same in every output. For the reference results and the two
fixtures (four domains with HBM; the thesis' Table 4.2 node), larm show, larm show --matrix,
report.md, report.html (its roofs table, its summary and its interactive roofline's data), the
LARM figures' keys and the heatmap's cells are read back, and each roof value found is compared
with the roof in results.json written as the tables write it (two decimals under 100, one from
100 on); the estimator is named where the values are.
    number_consistency_test.py LARM REPO_ROOT"""
import html as htmllib
import json
import os
import re
import shutil
import sys
import tempfile

from cli_helpers import Checker, run

larm, repo = sys.argv[1], sys.argv[2]
c = Checker()
work = tempfile.mkdtemp(prefix="larm-numbers-")
ACCESSES = ["load", "store", "store-nt", "copy", "2ld1st"]


def text(value):
    """results::table_value_text."""
    return f"{value:.1f}" if value >= 100 else f"{value:.2f}"


def row_label(r):
    """larm show's row label (report/text/summary_table.cpp)."""
    if r["level"] != "memory":
        return r["level"]
    label = "mem " + (r.get("memory") or "all")
    if r.get("memory_kind"):
        label += " " + r["memory_kind"]
    if r.get("placement") and r["placement"] != "local":
        label += " " + r["placement"]
    return label


def show_cells(out):
    """{(domain, label, access): cell} from larm show's bandwidth tables (fixed-width columns)."""
    cells = {}
    domain = None
    in_table = False
    for line in out.splitlines():
        m = re.match(r"Domain (\d+):", line)
        if m:
            domain, in_table = int(m.group(1)), False
            continue
        if "GB/s (" in line and line.rstrip().endswith("2ld1st"):
            in_table = True
            continue
        if in_table and (not line.startswith("  ") or "interval" in line or "GFLOP/s" in line):
            in_table = False
        if in_table and domain is not None:
            label = line[:28].strip()
            for i, access in enumerate(ACCESSES):
                cells[(domain, label, access)] = line[28 + 10 * i:28 + 10 * (i + 1)].strip().rstrip("*!?")
    return cells


def markdown_roofs(md):
    """The roofs table of report.md: a dict per row."""
    rows = []
    section = md.split("## Roofs", 1)[1]
    for line in section.splitlines():
        if not line.startswith("| ") or line.startswith("| domain") or line.startswith("|---"):
            if rows and not line.startswith("|"):
                break
            continue
        cells = [x.strip().replace("\\", "") for x in line.strip("|").split(" | ")]
        rows.append(cells)
    return rows


def html_roofs(page):
    table = page.split('<table id="roofs-table">', 1)[1].split("</table>", 1)[0]
    rows = []
    for tr in re.findall(r"<tr><td>(.*?)</td></tr>", table):
        rows.append([htmllib.unescape(x) for x in tr.split("</td><td>")])
    return rows


for name, source in (("reference", os.path.join(repo, "results", "reference", "dev-zen5-2vcpu")),
                     ("four-domain-hbm", os.path.join(repo, "tests", "fixtures", "four-domain-hbm")),
                     ("broadwell-table42", os.path.join(repo, "tests", "fixtures", "broadwell-table42"))):
    results = os.path.join(work, name)
    shutil.copytree(source, results)
    doc = json.load(open(os.path.join(results, "results.json")))
    estimator = doc["provenance"].get("roof_estimator", "median")
    present = [r for r in doc["roofs"] if r["samples"]]
    c.check(len(present) > 10, f"{name}: only {len(present)} roofs")

    show = run(larm, "show", results)
    c.check(show.returncode == 0, f"{name}: show: {show.stderr}")
    c.check(f"GB/s ({estimator})" in show.stdout, f"{name}: show does not name the estimator {estimator}")
    cells = show_cells(show.stdout)
    compared = 0
    for r in present:
        if r["level"] == "flops":
            continue
        key = (r["domain"], row_label(r), r["access"])
        if key in cells:
            compared += 1
            c.check(cells[key] == text(r["roof"]), f"{name}: show {key}: {cells[key]!r}, results {text(r['roof'])}")
    c.check(compared >= 10, f"{name}: only {compared} show cells compared")

    r = run(larm, "report", results, "--quiet")
    c.check(r.returncode in (0, 1), f"{name}: report: {r.stderr}")
    md = open(os.path.join(results, "report.md")).read()
    page = open(os.path.join(results, "report.html")).read()
    c.check(f"roof ({estimator})" in md and f"roof ({estimator})" in page,
            f"{name}: the report's roofs table does not name the estimator")
    for rows, where in ((markdown_roofs(md), "report.md"), (html_roofs(page), "report.html")):
        c.check_equal(len(rows), len(doc["roofs"]), f"{name}: {where} roof rows")
        for row, roof in zip(rows, doc["roofs"]):
            want = text(roof["roof"]) if roof["samples"] else "absent"
            c.check(row[6] == want, f"{name}: {where} row {row[:6]}: value {row[6]!r}, results {want}")
            interval = roof.get("interval")
            if roof["samples"] and interval and not interval.get("modes"):
                span = f"{text(interval['low'])} – {text(interval['high'])}"
                c.check(row[8].startswith(span), f"{name}: {where} interval {row[8]!r}, results {span}")
    # The interactive roofline's hover texts (HTML only) and the summary.
    m = re.search(r'<script type="application/json" id="larm-roofline-data">(.*?)</script>', page, re.S)
    c.check(m is not None, f"{name}: no interactive roofline data")
    if m:
        data = json.loads(m.group(1))
        shown = 0
        for domain in data["domains"]:
            for roof in domain["roofs"]:
                value = text(roof["value"])
                c.check(f": {value} {roof['unit']}" in roof["text"], f"{name}: hover text {roof['text']!r}")
                shown += 1
        c.check(shown > 5, f"{name}: {shown} roofs in the interactive roofline")
    peaks = [r for r in present if r["level"] == "flops" and r.get("precision") == "dp" and r["status"] != "indistinct"]
    if peaks:
        top = max(p["roof"] for p in peaks if p["domain"] == 0)
        c.check(f"domain 0: {text(top)} GFLOP/s" in page, f"{name}: the summary's DP peak is not {text(top)}")

    # The LARM figure's key and the heatmap's cells.
    plots = os.path.join(results, "plots")
    gp = open(os.path.join(plots, "larm-domain0.gp")).read()
    for roof in present:
        if roof["domain"] != 0 or roof["level"] == "flops" or roof["access"] != "load" or roof["status"] == "indistinct":
            continue
        c.check(f": {text(roof['roof'])} GB/s" in gp, f"{name}: the LARM key lacks {row_label(roof)} {text(roof['roof'])}")
    matrix = os.path.join(plots, "matrix-bandwidth.dat")
    if os.path.exists(matrix):
        labels = set(re.findall(r'"([^"]+)"', open(matrix).read()))
        for roof in present:
            if roof["level"] == "memory" and roof["access"] == "load" and roof.get("placement") in ("local", "remote"):
                c.check(text(roof["roof"]) in labels, f"{name}: heatmap lacks {text(roof['roof'])}")
        caption = next(f["caption"] for f in json.load(open(os.path.join(plots, "figures.json")))["figures"]
                       if f["name"] == "matrix-bandwidth")
        c.check(f"the {estimator} roof" in caption, f"{name}: heatmap caption: {caption!r}")
c.finish()
