"""larm characterize --resume: a run killed with SIGKILL, or stopped by SIGTERM, is
continued from its journal with the same plan and provenance; it says what it re-did; the
journal's torn last line (a power loss mid-write) is left out; bad uses get a one-line error;
a journal with values larm would not write, or that is no regular file, is refused (exit 2)
before anything is measured.
    characterize_resume_test.py LARM
A small plan (--only flops) keeps it short."""
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time

from cli_helpers import Checker, run

larm = sys.argv[1]
c = Checker()
work = tempfile.mkdtemp(prefix="larm-resume-")
PLAN = ["--only", "flops", "--quick"]


def journal_lines(out):
    path = os.path.join(out, "journal.jsonl")
    if not os.path.exists(path):
        return 0
    with open(path, "rb") as f:
        return f.read().count(b"\n")


def start_and_stop(out, sig, after_lines):
    """Starts a run into out and sends sig once its journal holds after_lines runs."""
    process = subprocess.Popen([larm, "characterize", "-q", *PLAN, "--out", out],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 300
    while journal_lines(out) < 1 + after_lines and process.poll() is None:
        if time.monotonic() > deadline:
            break
        time.sleep(0.05)
    if process.poll() is None:
        process.send_signal(sig)
    process.communicate(timeout=300)
    return process.returncode


def results(out):
    with open(os.path.join(out, "results.json")) as f:
        return json.load(f)


# A complete run for comparison.
full = os.path.join(work, "full")
r = run(larm, "characterize", "-q", *PLAN, "--out", full, timeout=600)
c.check(r.returncode == 0, f"reference run failed: {r.stderr}")
reference = results(full)
runs = journal_lines(full) - 1
c.check(runs > 10, f"the journal of a complete run holds {runs} runs")

for sig, label in [(signal.SIGKILL, "kill -9"), (signal.SIGTERM, "SIGTERM")]:
    out = os.path.join(work, label.replace(" ", ""))
    code = start_and_stop(out, sig, runs // 2)
    c.check(code != 0, f"{label}: the run was not stopped (exit {code})")
    kept = journal_lines(out) - 1
    c.check(0 < kept < runs, f"{label}: {kept} of {runs} runs journaled")
    partial = results(out)
    c.check(not partial["complete"], f"{label}: partial results say complete")
    shown = run(larm, "show", out)
    c.check(shown.returncode == 0 and "INCOMPLETE" in shown.stdout,
            f"{label}: show does not say incomplete: {shown.stdout[:200]} {shown.stderr}")
    if sig == signal.SIGKILL:
        # A power loss in the middle of a line: the torn end is left out and cut off.
        with open(os.path.join(out, "journal.jsonl"), "a") as f:
            f.write('{"i": 3, "pass": 0, "repeti')
    r = run(larm, "characterize", "--resume", out, timeout=600)
    c.check(r.returncode == 0, f"{label}: resume failed: {r.stderr}")
    c.check(f"{kept} measurement runs kept" in r.stdout and "re-done from" in r.stdout,
            f"{label}: resume does not say what it kept and re-did: {r.stdout[-400:]}")
    done = results(out)
    c.check(done["complete"], f"{label}: resumed run not complete")
    c.check(done["provenance"]["date"] == partial["provenance"]["date"],
            f"{label}: the provenance changed on resume")
    c.check(done["provenance"].get("resumed", [{}])[0].get("runs_kept") == kept,
            f"{label}: provenance resumed {done['provenance'].get('resumed')}")
    c.check(len(done["roofs"]) == len(reference["roofs"]) and
            [x["access"] + x["isa"] + x["precision"] for x in done["roofs"]] ==
            [x["access"] + x["isa"] + x["precision"] for x in reference["roofs"]],
            f"{label}: the resumed run's roofs are not the plan's")
    c.check(all(x["samples"] for x in done["roofs"] if x["status"] != "absent" and
                "no FMA" not in x["status"]), f"{label}: a roof without samples")
    # Each run once: those kept are not made again (the number of runs itself depends on how
    # tight each measurement's interval came out).
    with open(os.path.join(out, "journal.jsonl")) as f:
        keys = [(line["i"], line["pass"]) for line in map(json.loads, f.readlines()[1:])]
    c.check(len(keys) == len(set(keys)) and len(keys) > kept,
            f"{label}: {len(keys)} runs journaled, {len(set(keys))} distinct, {kept} kept")
    again = run(larm, "characterize", "--resume", out)
    c.check(again.returncode != 0 and "complete" in again.stderr and
            len(again.stderr.strip().splitlines()) == 1,
            f"{label}: resuming a complete run: {again.returncode} {again.stderr}")

# Bad uses: one line, non-zero.
for args, words in [(["--resume", os.path.join(work, "none")], "no directory"),
                    (["--resume", work], "no journal"),
                    (["--resume", full, "--quick"], "leave out --quick")]:
    r = run(larm, "characterize", *args)
    c.check(r.returncode != 0 and words in r.stderr and len(r.stderr.strip().splitlines()) == 1,
            f"{args}: {r.returncode} {r.stderr}")
broken = os.path.join(work, "broken")
os.makedirs(broken)
with open(os.path.join(broken, "journal.jsonl"), "w") as f:
    f.write("not json\n")
r = run(larm, "characterize", "--resume", broken)
c.check(r.returncode != 0 and "journal" in r.stderr and len(r.stderr.strip().splitlines()) == 1,
        f"a broken journal: {r.returncode} {r.stderr}")

# A journal larm cannot trust is bad input: one line, exit 2, before anything is measured (no
# results.json); one that is not a regular file is never waited on or read without end.
with open(os.path.join(full, "journal.jsonl")) as f:
    journal = f.read().splitlines(True)


def poisoned(name, change=None, runs=None):
    d = os.path.join(work, "poisoned-" + name)
    os.makedirs(d)
    header = json.loads(journal[0])
    if change:
        change(header)
    with open(os.path.join(d, "journal.jsonl"), "w") as f:
        f.write(json.dumps(header) + "\n" + "".join(journal[1:] if runs is None else runs))
    return d


def plan_option(key, value):
    return lambda header: header["plan"].__setitem__(key, value)


for name, change, runs, words in [
        ("passes", plan_option("passes", 2000000000), None, "passes"),
        ("sweep", plan_option("sweep_points_per_octave", 100000), None, "sweep points"),
        ("domain", plan_option("domains", [7]), None, "domain 7"),
        ("max-time", plan_option("max_seconds", 1e300), None, "out of larm's range"),
        ("provenance", lambda h: h["provenance"].__setitem__("tsc_hz", 1e308), None, "range"),
        ("doctor", lambda h: h["provenance"]["machine_state"].__setitem__("expected_error", 1e18),
         None, "expected error"),
        ("elapsed", None, [journal[1].replace('"elapsed":', '"elapsed":1e17,"was":', 1)], "elapsed"),
        ("repetitions", None, [journal[1].replace('"repetitions":', '"repetitions":-1,"was":', 1)],
         "repetitions")]:
    d = poisoned(name, change, runs)
    started = time.monotonic()
    r = run(larm, "characterize", "--resume", d, timeout=120)
    c.check(r.returncode == 2 and words in r.stderr and len(r.stderr.strip().splitlines()) == 1 and
            not os.path.exists(os.path.join(d, "results.json")),
            f"poisoned journal ({name}): {r.returncode} {r.stderr.strip()[:300]}")
fifo = os.path.join(work, "fifo")
os.makedirs(fifo)
os.mkfifo(os.path.join(fifo, "journal.jsonl"))
zero = os.path.join(work, "zero")
os.makedirs(zero)
os.symlink("/dev/zero", os.path.join(zero, "journal.jsonl"))
large = os.path.join(work, "large")
os.makedirs(large)
with open(os.path.join(large, "journal.jsonl"), "w") as f:
    f.write(journal[0])
    f.truncate(1100 << 20)  # sparse: 1.1 GiB read as zeros
for d in (fifo, zero, large):
    r = run(larm, "characterize", "--resume", d, timeout=60)
    c.check(r.returncode == 2 and len(r.stderr.strip().splitlines()) == 1,
            f"journal {os.path.basename(d)}: {r.returncode} {r.stderr.strip()[:300]}")
os.remove(os.path.join(large, "journal.jsonl"))
# Warnings from the journal reach the terminal escaped; a memory whose size changed since (a
# guest's balloon) is the same machine.
d = poisoned("warning-and-memory", lambda h: (
    h.__setitem__("warnings", ["\x1b[31mred\x07 larm: error: forged\nline"]),
    [m.__setitem__("bytes", m["bytes"] // 2 + 4096) for m in h["topology"]["memories"]]))
r = run(larm, "characterize", "--resume", d, timeout=600)
c.check(r.returncode == 0 and "\x1b" not in r.stdout + r.stderr and "\\x1b[31mred" in r.stdout,
        f"resume with a changed memory size and an escaped warning: {r.returncode} "
        f"{r.stderr.strip()[-300:]}")
shown = run(larm, "show", d)
c.check(shown.returncode == 0, f"larm show reads the resumed run: {shown.stderr.strip()[:200]}")

shutil.rmtree(work, ignore_errors=True)
c.finish()
