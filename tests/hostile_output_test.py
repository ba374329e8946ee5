"""Hostile input, round 2: outputs that cannot be redirected or cut short, a terminal
and a report that show text as text, options and numbers at their limits, one owner per output.
Each numbered case is one class of the issue, and failed on the binary before the fix.
    hostile_output_test.py LARM REFERENCE_RESULTS REPO_ROOT
Run under ASan+UBSan by scripts/test.sh."""
import fcntl
import json
import os
import shutil
import socket
import stat
import subprocess
import sys
import tempfile
import time

import cli_helpers
from cli_helpers import Checker

larm, reference, repo = sys.argv[1], sys.argv[2], sys.argv[3]
c = Checker()


def run(*args, timeout=600, **kwargs):
    """cli_helpers.run, a hang being one more failure (a FIFO that blocks) rather than the end."""
    try:
        return cli_helpers.run(*args, timeout=timeout, **kwargs)
    except subprocess.TimeoutExpired as e:
        c.check(False, f"larm {' '.join(map(str, args[1:3]))}: no answer after {timeout} s")
        return subprocess.CompletedProcess(e.cmd, -9, stdout="", stderr="")
work = tempfile.mkdtemp(prefix="larm-hostile2-")
ESC = "\x1b"
gnuplot = shutil.which("gnuplot")


def copy_results(name):
    path = os.path.join(work, name)
    shutil.copytree(reference, path, ignore=shutil.ignore_patterns("plots", "report*", ".larm-lock"))
    return path


def edit_results(path, change):
    doc = json.load(open(os.path.join(path, "results.json")))
    change(doc)
    with open(os.path.join(path, "results.json"), "w") as f:
        json.dump(doc, f)


def one_error_line(r, what, needle, status=2):
    lines = [l for l in r.stderr.splitlines() if l.strip()]
    c.check(r.returncode == status, f"{what}: exit {r.returncode}, expected {status} "
            f"({r.stderr.strip()[:300]})")
    c.check(len(lines) == 1 and lines[0].startswith("larm: error:"),
            f"{what}: not one 'larm: error:' line: {r.stderr[:400]!r}")
    c.check(needle in r.stderr, f"{what}: {needle!r} not in {r.stderr[:400]!r}")


def fake_gnuplot(name, body):
    """A directory holding a `gnuplot` that runs body (sh) after computing where larm asked it to
    draw: $out_svg, $out_png (FIGURE.EXT + larm's partial suffix)."""
    directory = os.path.join(work, name)
    os.makedirs(directory)
    with open(os.path.join(directory, "gnuplot"), "w") as f:
        f.write("#!/bin/sh\nsuffix=$(echo \"$2\" | sed \"s/.*'\\(.*\\)'.*/\\1/\")\n"
                "script=\"$3\"\nout_svg=\"${script%.gp}.svg$suffix\"\n"
                "out_png=\"${script%.gp}.png$suffix\"\n" + body)
    os.chmod(os.path.join(directory, "gnuplot"), 0o755)
    return {"PATH": directory + os.pathsep + os.environ["PATH"]}


# 1. report inlines only the SVG files this run drew: never one planted in DIR/plots (script in
# it, a FIFO that would block, a link to another file), with gnuplot missing or failing.
for how, env in (("gnuplot missing", {"PATH": os.path.join(work, "empty-bin")}),
                 ("gnuplot failing", fake_gnuplot("failing-bin", "echo 'line 1: no' >&2\nexit 1\n"))):
    os.makedirs(os.path.join(work, "empty-bin"), exist_ok=True)
    for planted in ("script", "fifo", "link"):
        results = copy_results(f"planted-{planted}-{how.split()[1]}")
        plots = os.path.join(results, "plots")
        os.makedirs(plots)
        svg = os.path.join(plots, "larm-domain0.svg")
        if planted == "script":
            open(svg, "w").write('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script>'
                                 '</svg>\n')
        elif planted == "fifo":
            os.mkfifo(svg)
        else:
            secret = os.path.join(work, "secret.txt")
            open(secret, "w").write("<svg>SECRET-CONTENT</svg>\n")
            os.symlink(secret, svg)
        start = time.monotonic()
        r = run(larm, "report", results, env=env, timeout=60)
        c.check(time.monotonic() - start < 60, f"report with a planted {planted}: took too long")
        c.check(r.returncode in (0, 1), f"report ({how}, planted {planted}): exit {r.returncode}: "
                f"{r.stderr[-300:]}")
        page = os.path.join(results, "report.html")
        html = open(page).read() if os.path.exists(page) else ""
        # The page's own scripts (the interactive roofline) are larm's; a planted one says alert.
        c.check("<script>alert" not in html and "<svg" not in html and "SECRET-CONTENT" not in html,
                f"report ({how}) inlined a planted {planted} SVG")
        c.check("Not drawn" in html, f"report ({how}): the figure not said to be undrawn")

# 2. Files of fixed names in an output are never opened through a link or a FIFO planted there:
# gnuplot's partial files and log, kernels --dump's .bin and .asm, and directories inside an
# output (DIR/plots).
victim = os.path.join(work, "victim.txt")
open(victim, "w").write("precious\n")
if gnuplot:
    results = copy_results("planted-outputs")
    plots = os.path.join(results, "plots")
    os.makedirs(plots)
    os.symlink(victim, os.path.join(plots, "larm-domain0.svg.partial"))
    os.symlink(victim, os.path.join(plots, "larm-domain0.log"))
    os.mkfifo(os.path.join(plots, "sweep-domain0.log"))
    r = run(larm, "plot", results, "--format", "svg", timeout=120)
    c.check(r.returncode == 0, f"plot with planted links and FIFOs: exit {r.returncode}: "
            f"{r.stderr[-300:]}")
    c.check(open(victim).read() == "precious\n", "a planted link's target was written")
    for log in ("larm-domain0.log", "sweep-domain0.log"):
        mode = os.lstat(os.path.join(plots, log)).st_mode
        c.check(stat.S_ISREG(mode), f"{log} replaced by a regular file")
    c.check(not [f for f in os.listdir(plots) if ".partial-" in f], "partial files left")
else:
    print("gnuplot absent: planted partial and log checks skipped")
dump = os.path.join(work, "dump")
os.makedirs(dump)
kernel = run(larm, "kernels", "--all").stdout.splitlines()[1].split()[0]
for ext in ("bin", "asm"):
    os.symlink(victim, os.path.join(dump, f"{kernel}.{ext}"))
r = run(larm, "kernels", "--dump", kernel, dump)
c.check(r.returncode == 0, f"kernels --dump: exit {r.returncode}: {r.stderr[-300:]}")
c.check(open(victim).read() == "precious\n", "kernels --dump wrote through a planted link")
c.check(stat.S_ISREG(os.lstat(os.path.join(dump, f"{kernel}.bin")).st_mode),
        "the dump replaced the link with its own file")
results = copy_results("planted-plots-dir")
elsewhere = os.path.join(work, "elsewhere")
os.makedirs(elsewhere)
os.symlink(elsewhere, os.path.join(results, "plots"))
one_error_line(run(larm, "report", results, timeout=120), "report with DIR/plots a link",
               "symbolic link")
one_error_line(run(larm, "plot", results, timeout=120), "plot with DIR/plots a link",
               "symbolic link")
c.check(os.listdir(elsewhere) == [], "report or plot wrote through a planted directory link")

# 4. Control characters from files never reach the terminal raw: show, place, compare-fleet,
# error lines quoting a file.
evil = "host" + ESC + "[2J" + ESC + "]0;owned\x07\nforged line\r\u202eevil"
results = copy_results("control-chars")


def poison(doc):
    doc["provenance"]["host"] = evil
    doc["warnings"].append("warning" + evil)
    doc["topology"]["memories"][0]["kind"] = "DRAM" + evil


edit_results(results, poison)
regions = json.load(open(os.path.join(reference, "regions-triad-firsttouch", "regions.json")))
regions["label"] = "label" + evil
for region in regions["regions"]:
    region["name"] = region["name"] + evil
regions_file = os.path.join(work, "evil-regions.json")
json.dump(regions, open(regions_file, "w"))
fleet = os.path.join(work, "evil-fleet")
for name in ("n0", "n1", "node" + ESC + "[31m"):
    shutil.copytree(results, os.path.join(fleet, name), ignore=shutil.ignore_patterns(".larm-lock"))
bad_json = os.path.join(work, "bad.json")
open(bad_json, "w").write('{"x": "' + ESC + '[2J' + '\n')
for args in (["show", results], ["place", results, regions_file], ["compare-fleet", fleet],
             ["show", fleet], ["show", bad_json], ["report", results]):
    r = run(larm, *args, timeout=120)
    out = r.stdout + r.stderr
    c.check(ESC not in out and "\x07" not in out and "\r" not in out and "\u202e" not in out,
            f"larm {args[0]}: a control character reached the terminal: "
            f"{[l for l in out.splitlines() if ESC in l][:1]!r}")
    c.check("forged line" not in out.replace("\\nforged line", ""),
            f"larm {args[0]}: a line break from a file started a line")
    if args[0] in ("place",) or args == ["show", results]:
        c.check("\\x1b" in out, f"larm {args[0]}: the escaped text is nowhere (the check saw nothing)")

# 5. report.md is Markdown-escaped: a host name is text, not markup (the page already was).
results = copy_results("markdown")
edit_results(results, lambda d: d["provenance"].update(host="<img src=x onerror=alert(1)>*[x](y)|"))
r = run(larm, "report", results, timeout=120)
md = open(os.path.join(results, "report.md")).read()
c.check("<img" not in md and "&lt;img" in md, f"report.md: a host name as markup: {md[:200]!r}")
c.check("\\*\\[x\\](y)\\|" in md, f"report.md: emphasis, link and cell marks escaped: {md[:200]!r}")

# 6. One owner per output: a run that finds its output held by another is refused at once (exit 2,
# naming the holder); liblarm beside another recorder writes its own file and says so.
held = os.path.join(work, "held")
os.makedirs(held)
lock = open(os.path.join(held, ".larm-lock"), "w")
fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
lock.write("process 1, the test\n")
lock.flush()
held_results = copy_results("held-results")
edit_results(held_results, lambda d: d["provenance"].update(host=socket.gethostname()))
lock_results = open(os.path.join(held_results, ".larm-lock"), "w")
fcntl.flock(lock_results, fcntl.LOCK_EX | fcntl.LOCK_NB)
held_plots = os.path.join(held_results, "plots")
os.makedirs(held_plots)
lock_plots = open(os.path.join(held_plots, ".larm-lock"), "w")
fcntl.flock(lock_plots, fcntl.LOCK_EX | fcntl.LOCK_NB)
for args in (["characterize", "--quick", "--only", "flops", "--out", held],
             ["plot", held_results], ["report", held_results],
             ["validate", held_results, "--quick"],
             ["hybrid", "sweep", "--quick", "--out", held]):
    start = time.monotonic()
    r = run(larm, *args, timeout=300)
    one_error_line(r, f"larm {' '.join(args[:2])} into a held directory", "in use by another larm run")
    c.check(time.monotonic() - start < 30, f"larm {args[0]}: refused only after "
            f"{time.monotonic() - start:.0f} s")
c.check("process 1, the test" in run(larm, "characterize", "--quick", "--out", held).stderr,
        "the message names the holder")
triad = os.path.join(os.path.dirname(larm), "..", "examples", "triad")
if os.path.exists(triad):
    r = subprocess.run([triad], capture_output=True, text=True, timeout=300,
                       env={**os.environ, "LARM_OUT": held})
    c.check(r.returncode == 0, f"triad beside a held LARM_OUT: exit {r.returncode}: {r.stderr[-300:]}")
    own = [f for f in os.listdir(held) if f.startswith("regions-pid") and f.endswith(".json")]
    c.check(len(own) == 1 and not os.path.exists(os.path.join(held, "regions.json")),
            f"its own regions-pid<N>.json, the held regions.json untouched: {os.listdir(held)}")
    c.check("in use by" in r.stderr and "regions-pid" in r.stderr, f"said so: {r.stderr[-300:]}")
else:
    print(f"{triad} not built: the liblarm claim check skipped")
lock.close()
lock_results.close()
lock_plots.close()

# 7. A figure gnuplot cut short (disk full: it exits 0 with a truncated file) never replaces a good
# one, and the run says so.
if gnuplot:
    results = copy_results("truncated")
    r = run(larm, "plot", results, "--format", "svg,png", timeout=120)
    c.check(r.returncode == 0, f"plot: {r.stderr[-300:]}")
    plots = os.path.join(results, "plots")
    before = {f: open(os.path.join(plots, f), "rb").read() for f in os.listdir(plots)
              if f.endswith((".svg", ".png"))}
    env = fake_gnuplot("truncating-bin",
                       "head -c 300 /usr/share/doc/gnuplot-data/README 2>/dev/null > \"$out_svg\" "
                       "|| printf '<svg><g>' > \"$out_svg\"\nprintf '\\211PNG' > \"$out_png\"\nexit 0\n")
    r = run(larm, "plot", results, "--format", "svg,png", env=env, timeout=120)
    c.check(r.returncode == 1 and "incomplete" in r.stderr,
            f"a truncated figure: exit {r.returncode}, {r.stderr[-300:]!r}")
    after = {f: open(os.path.join(plots, f), "rb").read() for f in before}
    c.check(after == before, "a truncated figure replaced a good one")
    r = run(larm, "report", results, env=env, timeout=120)
    html = open(os.path.join(results, "report.html")).read()
    c.check("<svg><g>" not in html, "report inlined a truncated SVG")
    c.check(all(os.path.getsize(os.path.join(plots, f)) > 0 for f in os.listdir(plots)
                if f.endswith(".png")), "an empty PNG left")

# 8. advise with an affinity matrix larger than the node's cores (18, 40 and 30 threads on the
# Table 4.2 node's 2 x 8 cores) answers within a bound (TreeMatch on prime arities such as 2 x 17
# is a unit test: TreeMatch.PrimeAritiesMapEveryThread).
fixture = os.path.join(repo, "tests", "fixtures", "broadwell-table42")
for threads in (18, 40, 30):
    csv = os.path.join(work, f"affinity{threads}.csv")
    with open(csv, "w") as f:
        for i in range(threads):
            f.write(",".join("0" if i == j else str((i * 7 + j * 13) % 97 + 1)
                             for j in range(threads)) + "\n")
    start = time.monotonic()
    r = run(larm, "advise", fixture, os.path.join(fixture, "regions-bind0.json"), "--affinity",
            csv, "--out", os.path.join(work, "advice.json"), timeout=120)
    c.check(r.returncode == 0, f"{threads} threads: {r.stderr[-300:]}")
    c.check(time.monotonic() - start < 60, f"{threads} threads: {time.monotonic() - start:.1f} s")

# 11. NaN, infinities and values beyond range in every number option: one short line, exit 2.
fixture = os.path.join(repo, "tests", "fixtures", "broadwell-table42")
hybrid = os.path.join(repo, "tests", "fixtures", "four-domain-hbm", "hybrid.json")
for args in (["doctor", "--seconds", "nan"], ["compare-fleet", fleet, "--outlier-mads", "nan"],
             ["compare-fleet", fleet, "--outlier-drop", "nan"],
             ["compare-fleet", fleet, "--outlier-mads", "-1"],
             ["fleet", "--out", os.path.join(work, "f"), "--gather-timeout", "nan"],
             ["validate", copy_results("nan-validate"), "--fail-above", "nan"],
             ["characterize", "--out", os.path.join(work, "c1"), "--max-time", "nan"],
             ["characterize", "--out", os.path.join(work, "c2"), "--max-time", "inf"],
             ["hybrid", "predict", hybrid, "--q", "1e308,1,1,1"],
             ["hybrid", "predict", hybrid, "--ratio-fast", "nan", "--ratio-read", "1"]):
    r = run(larm, *args, timeout=60)
    one_error_line(r, f"larm {' '.join(args)}", args[-1].split(",")[0])
    c.check(len(r.stderr) < 200, f"larm {' '.join(args)}: a {len(r.stderr)}-byte message")

# 12-14. Numbers near DBL_MAX in files are refused by name; large accepted ones are shown whole
# and drawn.
huge = os.path.join(work, "huge.csv")
open(huge, "w").write("0,1.7e308\n1.7e308,0\n")
one_error_line(run(larm, "advise", fixture, os.path.join(fixture, "regions-bind0.json"),
                   "--affinity", huge, "--out", os.path.join(work, "a.json")),
               "an affinity of 1.7e308", "row 1, column 2")
results = copy_results("huge-ceiling")
edit_results(results, lambda d: d["roofs"][0].update(roof=1e308))
one_error_line(run(larm, "show", results), "a roof of 1e308", "/roofs/0/roof: 1e+308")
results = copy_results("big-ceiling")


def big_ceiling(doc):
    for roof in doc["roofs"]:
        if roof["level"] == "flops" and roof.get("roof"):
            factor = 1e17 / roof["roof"]
            roof["roof"] = 1e17
            roof["samples"] = [s * factor for s in roof["samples"]]
            for key in ("median", "min", "max", "mean"):
                if roof["stats"].get(key) is not None:
                    roof["stats"][key] *= factor
            return


edit_results(results, big_ceiling)
r = run(larm, "show", results)
c.check(r.returncode == 0, f"show with a 1e18 ceiling: {r.stderr[-300:]}")
# Scientific from 1e15 on: a fixed-point 1e308 was 309 digits, cut to 31 by a 32-byte buffer.
c.check(not any(len(word) >= 16 and word.replace(".", "").rstrip("*").isdigit()
                for word in r.stdout.split()), "a number printed as a run of digits")
c.check("1.000e+17" in r.stdout or "1.0000e+17" in r.stdout, "the 1e17 ceiling shown as such")
if gnuplot:
    r = run(larm, "plot", results, "--format", "svg", timeout=120)
    c.check(r.returncode == 0, f"plot with a 1e18 ceiling: {r.stderr[-300:]}")
# A key roof of 0 on every node (fleet.json allows it): the fleet figures are still drawn (gnuplot
# refused the empty y range [0:0]).
zero_fleet = os.path.join(work, "zero-fleet")
for name in ("n0", "n1", "n2"):
    shutil.copytree(reference, os.path.join(zero_fleet, name),
                    ignore=shutil.ignore_patterns("plots", "report*", ".larm-lock"))
r = run(larm, "compare-fleet", zero_fleet)
c.check(r.returncode == 0, f"compare-fleet: {r.stderr[-300:]}")
fleet_doc = json.load(open(os.path.join(zero_fleet, "fleet.json")))
fleet_doc["roofs"][0]["median"] = 0.0
fleet_doc["roofs"][0]["values"] = [0.0 for _ in fleet_doc["roofs"][0]["values"]]
json.dump(fleet_doc, open(os.path.join(zero_fleet, "fleet.json"), "w"))
if gnuplot:
    r = run(larm, "plot", zero_fleet, "--format", "svg", timeout=120)
    c.check(r.returncode == 0 and "empty" not in r.stderr,
            f"fleet figures with a key roof of 0 on every node: {r.stderr[-300:]}")

# 15. advise checks --affinity before printing anything.
bad = os.path.join(work, "bad-affinity.csv")
open(bad, "w").write("0,1\n1,zero\n")
r = run(larm, "advise", fixture, os.path.join(fixture, "regions-bind0.json"), "--affinity", bad,
        "--out", os.path.join(work, "b.json"))
c.check(r.returncode == 2 and r.stdout == "", f"advise --affinity checked late: stdout "
        f"{len(r.stdout)} bytes, exit {r.returncode}")

# 16. validate into a directory it cannot write is refused before it measures (as root, run as
# nobody: root writes everywhere).
unwritable = copy_results("unwritable")
edit_results(unwritable, lambda d: d["provenance"].update(host=socket.gethostname()))
os.chmod(unwritable, 0o555)
as_user = [] if os.geteuid() != 0 else (
    ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"] if shutil.which("setpriv")
    else None)
if as_user is not None:
    os.chmod(work, 0o755)
    start = time.monotonic()
    r = subprocess.run(as_user + [larm, "validate", unwritable, "--quick"], capture_output=True,
                       text=True, timeout=300)
    one_error_line(r, "validate into an unwritable directory", "output directory")
    # Refused before measuring: a margin for a loaded machine under ASan (a --quick validate
    # measures for 4-10 s before it writes).
    c.check(time.monotonic() - start < 10, f"refused after {time.monotonic() - start:.1f} s")
else:
    print("root without setpriv: the unwritable validate check skipped")

# 17. The documentation of the commands states the topology size limit the code applies.
readme = open(os.path.join(repo, "docs", "commands.md")).read()
big_xml = os.path.join(work, "big.xml")
with open(big_xml, "wb") as f:
    f.truncate((512 << 20) + 1)
r = run(larm, "plan", "--topology", big_xml, timeout=60)
one_error_line(r, "a topology of 512 MiB + 1 byte", "larger than 512 MiB")
c.check("512 MiB for a topology" in readme, "docs/commands.md: the topology limit it states")

# 18. Figures of input larm accepts draw: 1,100 regions (a key that would pass Cairo's canvas) and
# a loaded-latency curve whose points have no samples (an empty plot command).
fixture = os.path.join(repo, "tests", "fixtures", "broadwell-table42")
many = json.load(open(os.path.join(fixture, "regions-firsttouch.json")))
first = many["regions"][0]
many["regions"] = [dict(first, name=f"r{k}") for k in range(1100)]
many_file = os.path.join(work, "regions-1100.json")
json.dump(many, open(many_file, "w"))
plots = os.path.join(work, "plots-1100")
r = run(larm, "plot", fixture, "--regions", many_file, "--format", "svg,png", "--out", plots,
        timeout=600)
c.check(r.returncode == 0, f"1,100 regions: larm plot exit {r.returncode}: {r.stderr[-300:]}")
if gnuplot and r.returncode == 0:
    pngs = [f for f in os.listdir(plots) if f.startswith("larm-domain") and f.endswith(".png")]
    c.check(len(pngs) > 0, f"1,100 regions: the rooflines drawn as PNG ({sorted(os.listdir(plots))[:8]})")
empty = copy_results("empty-loaded")
doc = json.load(open(os.path.join(empty, "results.json")))
curves = doc.get("loaded_latency") or []
if curves:
    for curve in curves:
        for point in curve.get("points", []):
            point["samples_ns"] = []
    json.dump(doc, open(os.path.join(empty, "results.json"), "w"))
    r = run(larm, "plot", empty, "--format", "svg", timeout=300)
    c.check(r.returncode == 0 and "function to plot expected" not in r.stdout + r.stderr,
            f"loaded-latency points without samples: plot exit {r.returncode}: {r.stderr[-300:]}")
    c.check(not any(f.startswith("loaded_latency_memory") and f.endswith(".svg")
                    for f in os.listdir(os.path.join(empty, "plots"))),
            "loaded-latency points without samples: no empty figure")
else:
    print("the reference results have no loaded-latency curve: the empty curve is not checked")

os.chmod(unwritable, 0o755)
shutil.rmtree(work, ignore_errors=True)
c.finish()
