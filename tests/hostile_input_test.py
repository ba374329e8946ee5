"""Hostile input: text from input files never runs a command in gnuplot; FIFOs,
devices, deep nesting and trailing data are refused with one error line and exit 2; ranges are
checked before they are expanded; a failed or interrupted gnuplot leaves the previous figures whole
and an interrupted larm plot exits 130 with a message. Run under ASan+UBSan by scripts/test.sh."""
import json
import os
import shutil
import signal
import stat
import subprocess
import sys
import tempfile
import time

from cli_helpers import Checker, run

larm, reference = sys.argv[1], sys.argv[2]
c = Checker()
work = tempfile.mkdtemp(prefix="larm-hostile-")


def backquote_outside_single_quotes(line):
    """Whether a script line has a backquote where gnuplot would run it: anywhere but inside a
    single-quoted string ('' is a quote inside one) or a comment."""
    single = double = False
    i = 0
    while i < len(line):
        ch = line[i]
        if single:
            if ch == "'" and line[i + 1:i + 2] == "'":
                i += 1
            elif ch == "'":
                single = False
        elif double:
            if ch == "\\":
                i += 1
            elif ch == '"':
                double = False
            elif ch == "`":
                return True
        elif ch == "#":
            return False
        elif ch in "'\"":
            single, double = ch == "'", ch == '"'
        elif ch == "`":
            return True
        i += 1
    return False


def started_partial(directory):
    """Whether gnuplot has started a figure: a partial file (larm creates them empty) with data."""
    for name in os.listdir(directory):
        try:
            if ".partial" in name and os.path.getsize(os.path.join(directory, name)) > 0:
                return True
        except FileNotFoundError:
            pass
    return False


def one_error_line(r, what, needle):
    lines = [l for l in r.stderr.splitlines() if l.strip()]
    c.check(r.returncode == 2, f"{what}: exit {r.returncode}, expected 2 ({r.stderr.strip()[:200]})")
    c.check(len(lines) == 1 and lines[0].startswith("larm: error:"),
            f"{what}: not one 'larm: error:' line: {r.stderr[:300]!r}")
    c.check(needle in r.stderr, f"{what}: {needle!r} not in {r.stderr[:300]!r}")


# 1. Command execution: backquotes, macros, quotes and line breaks in every string gnuplot sees.
marker = os.path.join(work, "executed")
evil = f"`touch {marker}` @evil ' \" \\ \n set output '/tmp/x' \r\n<script>alert(1)</script>"
results = os.path.join(work, "results")
shutil.copytree(reference, results, ignore=shutil.ignore_patterns("plots", "report*"))
doc = json.load(open(os.path.join(results, "results.json")))
for memory in doc["topology"]["memories"]:
    memory["kind"] = "DRAM" + evil
with open(os.path.join(results, "results.json"), "w") as f:
    json.dump(doc, f)
regions = json.load(open(os.path.join(reference, "regions-triad-firsttouch", "regions.json")))
regions["label"] = "label" + evil
for region in regions["regions"]:
    region["name"] = region["name"] + evil
regions_file = os.path.join(work, "regions.json")
with open(regions_file, "w") as f:
    json.dump(regions, f)
for command in (["plot", results, "--regions", regions_file, "--format", "svg"],
                ["report", results, "--regions", regions_file]):
    r = run(larm, *command, timeout=300)
    c.check(not os.path.exists(marker), f"larm {command[0]}: a backquoted command ran")
    c.check(r.returncode in (0, 1, 2), f"larm {command[0]}: exit {r.returncode}: {r.stderr[-300:]}")
    c.check("Traceback" not in r.stderr and "AddressSanitizer" not in r.stderr,
            f"larm {command[0]}: {r.stderr[-300:]}")
c.check(backquote_outside_single_quotes('set title "`touch x`"') and
        not backquote_outside_single_quotes("set title '`touch x`'"), "the backquote scanner")
scripts = [f for f in os.listdir(os.path.join(results, "plots")) if f.endswith(".gp")]
c.check(scripts, "no gnuplot script written")
for script in scripts:
    text = open(os.path.join(results, "plots", script)).read()
    bad = [line for line in text.splitlines() if backquote_outside_single_quotes(line)]
    c.check(not bad, f"{script}: a backquote outside a single-quoted string: {bad[:1]}")
    c.check("\r" not in text, f"{script}: a carriage return reached the script")
# Data files: a line break in a name or label would start a row of the file's choosing.
for data in [f for f in os.listdir(os.path.join(results, "plots")) if f.endswith(".dat")]:
    rows = [line for line in open(os.path.join(results, "plots", data)).read().split("\n")
            if line.strip() and not line.startswith("#")]
    bad = [row for row in rows if not (row[0].isdigit() or row[0] in "-.")]
    c.check(not bad, f"{data}: a row that is not data: {bad[:1]}")
c.check(any("`touch" in open(os.path.join(results, "plots", f)).read() for f in scripts),
        "the hostile text reached no script (the checks above saw nothing)")
# The HTML report: the same text escaped, never markup.
reports = [os.path.join(dirpath, f) for dirpath, _, files in os.walk(work) for f in files
           if f == "report.html"]
c.check(reports, "no report.html written")
for page in reports:
    html = open(page).read()
    c.check("<script>alert" not in html, f"{page}: a name reached the report as markup")
    c.check("&lt;script" in html and "alert(1)" in html,
            f"{page}: the hostile text reached the report nowhere (the check above saw nothing)")

# 2. Files that are not regular files, or never end.
fifo = os.path.join(work, "fifo.json")
os.mkfifo(fifo)
for path, needle in ((fifo, "not a regular file"), ("/dev/zero", "not a regular file"),
                     (os.path.join(work, "missing.json"), "cannot read")):
    start = time.monotonic()
    r = run(larm, "show", path, timeout=30)
    one_error_line(r, f"larm show {path}", needle)
    c.check(time.monotonic() - start < 10, f"larm show {path} took {time.monotonic() - start:.1f} s")
r = run(larm, "plan", "--topology", fifo, timeout=30)
one_error_line(r, "larm plan --topology FIFO", "not a regular file")
r = run(larm, "hybrid", "fit", "/dev/zero", timeout=30)
c.check(r.returncode == 2 and "not a regular file" in r.stderr, f"hybrid fit /dev/zero: {r.stderr[:200]}")

# 3. JSON nested 150 000 deep, and trailing data after a valid document.
deep = os.path.join(work, "deep.json")
with open(deep, "w") as f:
    f.write("[" * 150000 + "]" * 150000)
one_error_line(run(larm, "show", deep, timeout=60), "deeply nested JSON", "nested deeper")
trailing = os.path.join(work, "trailing.json")
with open(trailing, "w") as f:
    f.write(open(os.path.join(reference, "results.json")).read() + "\n{garbage}")
one_error_line(run(larm, "show", trailing), "trailing data", "not valid JSON")
negative_key = os.path.join(work, "negative-key.json")
regions["regions"] = regions["regions"][:1]
text = json.dumps(regions)
c.check('"0":' in text, "no memory key to make negative")
with open(negative_key, "w") as f:
    f.write(text.replace('"0":', '"-1":'))
one_error_line(run(larm, "place", reference, negative_key), "memory key -1", "bad memory key '-1'")

# 3b. Values the file's own JSON Schema refuses: each mutation of a valid file gives one error
# line naming the member (a JSON Pointer), exit 2, where it used to be shown or used.
def mutated(source, name, change):
    doc = json.load(open(source))
    change(doc)
    path = os.path.join(work, name)
    with open(path, "w") as f:
        json.dump(doc, f)
    return path


def set_at(path_in_doc, value):
    def change(doc):
        node = doc
        for key in path_in_doc[:-1]:
            node = node[key]
        node[path_in_doc[-1]] = value
    return change


reference_results = os.path.join(reference, "results.json")
for members, value, needle in (
        (["roofs", 0, "stats", "median"], -485.0, "/roofs/0/stats/median: -485.0 is below the minimum 0"),
        (["roofs", 0, "roof"], -485.0, "/roofs/0/roof"),
        (["topology", "domains", 0, "index"], -2147483648, "/topology/domains/0/index: -2147483648"),
        (["roofs", 0, "domain"], 1e10, "/roofs/0/domain: 10000000000.0 is not of type"),
        (["roofs", 0, "threads"], 1e30, "/roofs/0/threads"),
        (["sweep", 0, "samples"], [-1.0], "/sweep/0/samples/0"),
        (["provenance", "isa"], "avx1024", "/provenance/isa"),
        (["schema_version"], 1, "no schema_version string"),
        # std::regex recursed per character: a million digits overflowed the stack
        (["schema_version"], "1." + "0" * 1000000, "/schema_version")):
    bad = mutated(reference_results, "bad-results.json", set_at(members, value))
    one_error_line(run(larm, "show", bad), f"results {'/'.join(map(str, members))} = {value}", needle)
    one_error_line(run(larm, "place", bad, os.path.join(reference, "regions-triad-firsttouch",
                                                           "regions.json")),
                   f"place with results {'/'.join(map(str, members))}", needle.split(":")[0])

reference_regions = os.path.join(reference, "regions-triad-firsttouch", "regions.json")
for members, value, needle in (
        (["regions", 0, "data", "memory_fractions"], {"0": 0.75, "1": 0.75},
         "memory_fractions sum to 150"),
        (["regions", 0, "data", "memory_fractions"], {"0": 1.5}, "memory_fractions/0: 1.5 is above"),
        (["regions", 0, "domains", 0, "domain"], -2147483648, "/regions/0/domains/0/domain"),
        (["regions", 0, "machine", "gbps"], -485.0, "/regions/0/machine/gbps: -485.0 is below"),
        (["regions", 0, "threads", 0, "calls"], "many", "/regions/0/threads/0/calls"),
        (["regions", 0, "name"], "", "/regions/0/name")):
    bad = mutated(reference_regions, "bad-regions.json", set_at(members, value))
    one_error_line(run(larm, "place", reference, bad),
                   f"regions {'/'.join(map(str, members))} = {value}", needle)

hybrid_fixture = os.path.join(os.path.dirname(os.path.abspath(__file__)), "fixtures",
                              "four-domain-hbm", "hybrid.json")
for members, value, needle in ((["fit", "bandwidths_gbps", "ll"], -30.0, "/fit/bandwidths_gbps/ll"),
                               (["bandwidths_gbps", "er"], 0.0, "/bandwidths_gbps/er: 0.0 is not above 0"),
                               (["domain"], 4294967295, "/domain: 4294967295 is above the maximum")):
    bad = mutated(hybrid_fixture, "bad-hybrid.json", set_at(members, value))
    one_error_line(run(larm, "hybrid", "predict", bad, "--ratio-fast", "0.5", "--ratio-read", "1"),
                   f"hybrid {'/'.join(map(str, members))} = {value}", needle)

here = os.path.dirname(os.path.abspath(__file__))
golden_advice = os.path.join(here, "golden", "expected", "advise-broadwell--advice.json")
for members, value, needle in (
        (["regions", 0, "ranking", 0, "threads_per_domain", "0"], 1e30,
         "/regions/0/ranking/0/threads_per_domain/0"),
        (["regions", 0, "ranking", 0, "threads_per_domain"], {"-1": 4}, "unknown member \"-1\""),
        (["regions", 0, "ranking", 0, "gflops"], -5.0, "/regions/0/ranking/0/gflops: -5.0 is below")):
    bad = mutated(golden_advice, "bad-advice.json", set_at(members, value))
    one_error_line(run(larm, "plot", os.path.join(here, "fixtures", "broadwell-table42"), "--advice",
                       bad, "--out", os.path.join(work, "advice-plots")),
                   f"advice {'/'.join(map(str, members))} = {value}", needle)

# 3c. A topology XML that crashes hwloc 2.9 itself (found by tests/fuzz/fuzz_topology_xml): an
# error line, not a segmentation fault.
crashing = os.path.join(os.path.dirname(os.path.abspath(__file__)), "fuzz", "corpus", "topology_xml",
                        "hwloc-2.9-segv.xml")
for command in (["topology", "--topology", crashing], ["plan", "--topology", crashing]):
    # "hwloc crashed reading this topology" with Debian 12's hwloc; a fixed hwloc refuses it
    one_error_line(run(larm, *command), f"larm {command[0]} on an XML that crashes hwloc",
                   "topology")

# 3d. Messages and exit status of the command line: unknown commands named, empty values
# refused, an output file that cannot be written refused before any work (nothing printed first),
# a samples header told what it lacks, not what it has.
for args, needle in ((["foo"], "unknown command 'foo'"),
                     (["hybrid", "frob"], "unknown command 'frob' of larm hybrid"),
                     (["plan", "--domains", ""], "--domains: empty value"),
                     (["show", ""], "empty value")):
    one_error_line(run(larm, *args), f"larm {' '.join(args)}", needle)
r = run(larm, "place", reference, reference_regions, "--out", os.path.join(work, "none", "p.json"))
one_error_line(r, "place --out into a missing directory", "cannot write")
c.check(r.stdout == "", f"place printed before refusing its output file: {r.stdout[:200]!r}")
c.check(".p.json." not in r.stderr, f"the temporary file's name in the message: {r.stderr!r}")
for header, needle in (("q_ll,q_lr,q_el,seconds", "lacks q_er"),
                       ("gbps,gbps", "names column 'gbps' twice"),
                       ("ratio_fast,gbps", "lacks ratio_read")):
    csv = os.path.join(work, "header.csv")
    with open(csv, "w") as f:
        f.write(header + "\n" + ",".join(["1"] * len(header.split(","))) + "\n")
    one_error_line(run(larm, "hybrid", "fit", csv), f"samples header {header}", needle)

# 4. Ranges checked before they are expanded.
for domains in ("0-300000000", "2147483647-2147483647", "0-2147483647"):
    start = time.monotonic()
    r = run(larm, "plan", "--domains", domains, timeout=60)
    one_error_line(r, f"--domains {domains}", "domain")
    c.check(time.monotonic() - start < 5, f"--domains {domains} took {time.monotonic() - start:.1f} s")

# 5. Figures: a failing gnuplot keeps the previous ones whole; Ctrl-C ends gnuplot, exit 130.
plots = os.path.join(work, "plots")
r = run(larm, "plot", reference, "--out", plots, "--format", "svg", timeout=300)
if r.returncode == 0 and shutil.which("gnuplot"):
    before = {f: open(os.path.join(plots, f), "rb").read() for f in os.listdir(plots)
              if f.endswith(".svg")}
    c.check(len(before) > 0, "no figure drawn by the real gnuplot")
    fake = os.path.join(work, "bin")
    os.mkdir(fake)
    with open(os.path.join(fake, "gnuplot"), "w") as f:
        # Starts the files it was asked to draw, where the script sends them (FIGURE.svg, or
        # FIGURE.svg.partial-XXXXXXXX when larm sets larm_partial), as gnuplot's `set output`
        # does, then fails before finishing them.
        f.write("#!/bin/sh\nsuffix=\ncase \"$2\" in *larm_partial*) "
                "suffix=$(echo \"$2\" | sed \"s/.*'\\(.*\\)'.*/\\1/\");; esac\n"
                "script=\"$3\"; [ -z \"$suffix\" ] && script=\"$1\"\n"
                "echo '<svg broken' > \"${script%.gp}.svg$suffix\"\n"
                "[ -n \"$LARM_TEST_SLEEP\" ] && sleep \"$LARM_TEST_SLEEP\"\n"
                "echo 'line 1: simulated failure' >&2\nexit 1\n")
    os.chmod(os.path.join(fake, "gnuplot"), 0o755)
    env = {"PATH": fake + os.pathsep + os.environ["PATH"]}
    r = run(larm, "plot", reference, "--out", plots, "--format", "svg", env=env, timeout=300)
    c.check(r.returncode == 1, f"failing gnuplot: exit {r.returncode}")
    after = {f: open(os.path.join(plots, f), "rb").read() for f in before}
    c.check(after == before, "a failed gnuplot run changed the previous figures")
    c.check(not [f for f in os.listdir(plots) if ".partial" in f], "partial files left")
    env["LARM_TEST_SLEEP"] = "30"
    p = subprocess.Popen([larm, "plot", reference, "--out", plots, "--format", "svg"],
                         env={**os.environ, **env}, stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True)
    # Interrupted while the fake gnuplot sleeps (its first file started), not after a fixed
    # time: on a busy machine larm may not have reached gnuplot, nor caught SIGINT, after 1.5 s.
    deadline = time.monotonic() + 120
    while p.poll() is None and time.monotonic() < deadline and \
            not started_partial(plots):
        time.sleep(0.1)
    start = time.monotonic()
    p.send_signal(signal.SIGINT)
    try:
        out, err = p.communicate(timeout=60)
    except subprocess.TimeoutExpired:
        p.kill()
        raise
    c.check(p.returncode == 130, f"larm plot after Ctrl-C: exit {p.returncode}: {err[-300:]}")
    c.check("interrupted" in err, f"no 'interrupted' message: {err[-300:]!r}")
    c.check(time.monotonic() - start < 10, f"Ctrl-C took {time.monotonic() - start:.1f} s to end plot")
    after = {f: open(os.path.join(plots, f), "rb").read() for f in before}
    c.check(after == before, "an interrupted plot changed the previous figures")
    left = subprocess.run(["pgrep", "-f", os.path.join(fake, "gnuplot")], capture_output=True)
    c.check(left.returncode != 0, "the fake gnuplot outlived the interrupted larm plot")
else:
    print(f"gnuplot absent or plot failed ({r.returncode}): figure checks skipped")

c.finish()
