"""End-to-end test of `larm report`: from the reference results of this machine with its regions,
report.html (self-contained: every figure inline as SVG, no network reference) and report.md are
written; the page is loaded in headless Chromium, whose DOM must hold the provenance and roofs
tables and one SVG per figure of figures.json; a screenshot is saved beside the test's output.
Then the interactive roofline is driven through the DevTools protocol (report_browser.cjs, with
puppeteer-core from scripts/install-web.sh): hover, toggle, zoom.
    report_test.py LARM REFERENCE_DIR SCREENSHOT_PNG NODE_MODULES"""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

from cli_helpers import Checker, run

larm, reference, screenshot, node_modules = sys.argv[1:5]
c = Checker()
work = tempfile.mkdtemp(prefix="larm-report-")
results = os.path.join(work, "results")
shutil.copytree(reference, results)
regions = ",".join(os.path.join(results, d) for d in sorted(os.listdir(results))
                   if d.startswith("regions-"))
r = run(larm, "report", results, "--regions", regions)
c.check(r.returncode == 0, f"report exit {r.returncode}: {r.stderr}")
html_file, md_file = os.path.join(results, "report.html"), os.path.join(results, "report.md")
html = open(html_file).read()
md = open(md_file).read()
figures = json.load(open(os.path.join(results, "plots", "figures.json")))["figures"]
c.check(len(figures) >= 1, "no figure")
c.check(not re.search(r"""(src|href)=["']?(https?:)?//""", html), "the page references the network")
c.check(html.count("<svg") == len(figures), f"{html.count('<svg')} inline SVGs for {len(figures)} figures")
c.check("<table id=\"roofs-table\">" in html and "<table id=\"provenance-table\">" in html,
        "tables missing")
# A report a colleague reads: the summary first, then the contents, figures before the long
# tables, the provenance last.
order = [html.find(s) for s in ('id="summary"', 'id="contents"', 'id="figures"', 'id="regions"',
                                'id="roofs"', 'id="tables"', 'id="provenance"')]
c.check(all(o >= 0 for o in order) and order == sorted(order), f"sections out of order: {order}")
for label in ("peak dp", "memory bandwidth", "memory latency", "ridge points", "quality"):
    c.check(f"<th>{label}" in html, f"the summary lacks {label}")
c.check("<table id=\"regions-table\">" in html and "triad" in html, "the regions' verdicts are missing")
# Each region's headline, its evidence in a <details> element, as larm place words them.
c.check(re.search(r"<div class=\"verdict\"><p><b>triad</b> \(firsttouch, domain 0\): memory-bound: \d+ %",
                  html) is not None and "<details><summary>evidence</summary>" in html,
        "the regions' headlines and evidence are missing")
c.check("core_frequency_hz" in html and not re.search(r"<td>\d+\.\d{8,}</td>", html),
        "the provenance shows numbers with all their digits")
c.check("single NUMA node" in html, "the one-node warning is missing")
c.check("## Roofs" in md and all(f"plots/{f['name']}.png" in md for f in figures),
        "report.md lacks its roofs table or figures")
c.check("Omitted: hybrid model figures" in md, "report.md does not say the hybrid figures are omitted")

chromium = shutil.which("chromium") or shutil.which("chromium-browser")
c.check(chromium is not None, "chromium is not installed (scripts/install-deps.sh installs it)")
if chromium:
    flags = ["--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars"]
    url = "file://" + os.path.abspath(html_file)
    dom = subprocess.run([chromium, *flags, "--dump-dom", url], capture_output=True, text=True,
                         timeout=120).stdout
    c.check(dom.count("<svg") == len(figures), f"rendered DOM has {dom.count('<svg')} SVGs")
    c.check(dom.count("<table") >= 2 and "L1" in dom, "rendered DOM lacks the tables")
    for f in figures:
        c.check(f'id="{f["name"]}"' in dom, f"figure {f['name']} not in the rendered page")
    if os.path.exists(screenshot):
        os.remove(screenshot)
    subprocess.run([chromium, *flags, "--window-size=1200,2400", f"--screenshot={screenshot}", url],
                   capture_output=True, timeout=120)
    c.check(os.path.exists(screenshot) and os.path.getsize(screenshot) > 20000,
            f"no screenshot at {screenshot}")
    print(f"screenshot: {screenshot}")
    node = shutil.which("node")
    c.check(node is not None and os.path.isdir(os.path.join(node_modules, "puppeteer-core")),
            f"node or puppeteer-core missing ({node_modules}): scripts/install-web.sh installs them")
    c.check('id="larm-roofline-data"' in html, "the report has no interactive roofline (built without uPlot?)")
    if node and os.path.isdir(os.path.join(node_modules, "puppeteer-core")):
        here = os.path.dirname(os.path.abspath(__file__))
        r = subprocess.run([node, os.path.join(here, "report_browser.cjs"), os.path.abspath(html_file),
                            chromium, screenshot.replace(".png", "-interactive.png")],
                           capture_output=True, text=True, timeout=180,
                           env={**os.environ, "NODE_PATH": node_modules})
        print(r.stdout + r.stderr)
        c.check(r.returncode == 0 and "FAILED" not in r.stdout, "the interactive roofline failed in Chromium")
# The hybrid model's θ in report.md too (docs/validation-and-figures.md promises them there), on the four-domain
# fixture that has a fit.
repo = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
hbm = os.path.join(tempfile.mkdtemp(prefix="larm-report-hbm-"), "hbm")
shutil.copytree(os.path.join(repo, "tests", "fixtures", "four-domain-hbm"), hbm)
r = run(larm, "report", hbm, "--quiet")
c.check_equal(r.returncode, 0, "report on the four-domain fixture: " + r.stderr)
hbm_md = open(os.path.join(hbm, "report.md")).read() if r.returncode == 0 else ""
c.check("## Hybrid bandwidth model" in hbm_md and "| θ ll | θ lr | θ el | θ er |" in hbm_md,
        "report.md lacks the hybrid model's θ table")
c.finish()
