"""End-to-end test of `larm diff`: a run against itself moves nothing (exit 0); a memory roof
slowed by 40 % in a copy (its samples, value and intervals, as a hog would leave them) is named as
moved and the other roofs are not (exit 1); a memory whose size moved by 3 % is the same topology,
one whose kind changed is another (another machine: a what-if, exit 0, as another CPU's run); a
setting that differs is named; a missing run is refused with
exit 2 before any output; arguments that hold terminal escapes are printed escaped.
    diff_cli_test.py LARM REFERENCE_DIR"""
import json
import os
import shutil
import sys
import tempfile

from cli_helpers import Checker, run

larm, reference = sys.argv[1], sys.argv[2]
c = Checker()
work = tempfile.mkdtemp(prefix="larm-diff-")


def variant(name, edit):
    directory = os.path.join(work, name)
    shutil.copytree(reference, directory)
    path = os.path.join(directory, "results.json")
    doc = json.load(open(path))
    edit(doc)
    json.dump(doc, open(path, "w"), indent=1)
    return directory


def scale(roof, factor):
    roof["samples"] = [s * factor for s in roof["samples"]]
    roof["pass_values"] = [s * factor for s in roof.get("pass_values", [])]
    for key in ("min", "max", "mean", "median"):
        roof["stats"][key] *= factor
    roof["roof"] *= factor
    interval = roof.get("interval")
    if interval:
        for key in ("low", "high"):
            interval[key] *= factor
        interval["modes"] = [m * factor for m in interval.get("modes", [])]
        if interval.get("next_run"):
            for key in ("low", "high"):
                interval["next_run"][key] *= factor


r = run(larm, "diff", reference, reference)
c.check_equal(r.returncode, 0, "a run against itself: " + r.stderr)
c.check("Moved beyond the intervals: 0 roofs" in r.stdout and "No roof moved beyond the noise." in r.stdout
        and "Machine: the same" in r.stdout and "Settings: the same" in r.stdout,
        f"a run against itself: {r.stdout[-600:]}")


def slow_memory(doc):
    for roof in doc["roofs"]:
        if roof["level"] == "memory" and roof["access"] == "load" and roof.get("placement") == "local" \
                and roof["samples"]:
            scale(roof, 0.6)


slowed = variant("slowed", slow_memory)
r = run(larm, "diff", reference, slowed)
c.check_equal(r.returncode, 1, "a slowed memory roof: " + r.stderr)
moved = r.stdout.split("Moved beyond the intervals:")[1].split("At the edge")[0] if "Moved" in r.stdout else ""
c.check("1 roof\n" in moved and "mem 0 DRAM local load" in moved and "(-40.0 %)" in moved,
        f"the slowed roof is not named as moved: {moved!r}")
c.check("1 roof moved beyond the noise" in r.stdout, "the verdict line")


def grown_memory(doc):
    doc["topology"]["memories"][0]["bytes"] = int(doc["topology"]["memories"][0]["bytes"] * 1.03)
    doc["provenance"]["environment"]["transparent_hugepages"] = "never"


grown = variant("grown", grown_memory)
r = run(larm, "diff", reference, grown)
c.check("Machine: the same" in r.stdout and "another topology" not in r.stdout,
        f"a memory 3 % larger is another topology: {r.stdout[:800]}")
c.check("environment.transparent_hugepages:" in r.stdout and "-> never" in r.stdout, "the setting that differs is not named")
c.check_equal(r.returncode, 1, "settings differ")


def other_kind(doc):
    doc["topology"]["memories"][0]["kind"] = "HBM"


r = run(larm, "diff", reference, variant("kind", other_kind))
c.check("another topology" in r.stdout and "memory 0 kind: DRAM -> HBM" in r.stdout,
        f"a memory of another kind: {r.stdout[:800]}")

# Another machine (another CPU): a what-if, exit 0, nothing "moved"; the roofs side by side.
def other_cpu(doc):
    doc["provenance"]["cpu_model"] = "Another CPU"
    doc["provenance"]["cpu_model_number"] = 99
    for roof in doc["roofs"]:
        if "roof" in roof and isinstance(roof["roof"], (int, float)):
            roof["roof"] *= 2


r = run(larm, "diff", reference, variant("other-cpu", other_cpu))
c.check_equal(r.returncode, 0, "another machine: a what-if, not a change")
c.check(r.stdout.splitlines()[1].startswith("Another machine:") and "moved beyond" not in r.stdout and
        "cpu_model: " in r.stdout and "(+100.0 %)" in r.stdout,
        f"another machine said first, its roofs side by side: {r.stdout[:600]}")
r = run(larm, "diff", reference, variant("kind2", other_kind))
c.check(r.stdout.splitlines()[1].startswith("Another machine:") and r.returncode == 0,
        f"another topology is another machine: {r.stdout[:300]}")

# A run whose directory name holds a terminal escape: echoed escaped, never raw.
escaped = variant("run\x1b[31mred", lambda doc: None)
r = run(larm, "diff", reference, escaped)
c.check_equal(r.returncode, 0, "a copy under an escaped name")
c.check("\x1b" not in r.stdout + r.stderr and "red" in r.stdout,
        f"the escaped name printed escaped: {r.stdout[:200]!r}")

r = run(larm, "diff", reference, os.path.join(work, "missing"))
c.check_equal(r.returncode, 2, "a missing run")
c.check(r.stdout == "" and r.stderr.count("\n") == 1, f"a missing run: one error line: {r.stderr!r}")
c.finish()
