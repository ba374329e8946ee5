"""Programs' regions counted and placed REPS times, through every output: one line per
repetition, program and region with the bound `larm place` names, its share of it, and whether
advise, the LARM figure's caption, the interactive roofline and the report say the same, and what
`larm profile` (the same program, its functions sampled and counted) says of the function of that
name; then, per region, how many repetitions gave each bound, and the profile's functions.

  python3 bench/verdict_consistency.py LARM RESULTS OUT REPS [--no-profile] -- NAME COMMAND [...]

RESULTS: a characterization of this machine (larm characterize); OUT: a directory for the runs;
COMMAND: the program and its arguments as one word list; --no-profile: no `larm profile` run. A
program built through larm's compiler plugin counts itself: its native runs are placed alone
(no --counts). The known-answer kernels:
  python3 bench/verdict_consistency.py build/release/tools/larm RESULTS out 5 \
    -- sse2 "build/release-tests/tests/known_answer_sse2 256 2" \
    -- v3 "build/release-tests/tests/known_answer_v3 256 2"
NPB MG (bench/real_codes/patch_mg.py) and XSBench (patch_xsbench.py):
    -- mgW "NPB/bin/mg.W" -- mgA "NPB/bin/mg.A" \
    -- xsb "XSBench -t 2 -s small -m event -l 200000" """
import collections
import json
import os
import re
import subprocess
import sys

larm, results, out, reps = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
programs = []
rest = sys.argv[5:]
with_profile = rest[:1] != ["--no-profile"]
if not with_profile:
    rest = rest[1:]
while len(rest) >= 3 and rest[0] == "--":
    programs.append((rest[1], rest[2].split()))
    rest = rest[3:]
env = dict(os.environ, OMP_NUM_THREADS="2", OMP_PROC_BIND="true")
os.makedirs(out, exist_ok=True)
WORDS = {"compute": "compute", "memory": "memory local", "latency": "latency",
         "unexplained": "unexplained"}


def run(*args):
    r = subprocess.run([larm, *args], capture_output=True, text=True, env=env, timeout=1800)
    if r.returncode != 0:
        print(f"larm {args[0]} failed ({r.returncode}): {r.stderr[-400:]}", file=sys.stderr)
    return r


def counts(d):
    """--counts DIR/counted where larm count made a counting run (not for a plugin build)."""
    counted = os.path.join(d, "counted")
    return ["--counts", counted] if os.path.exists(os.path.join(counted, "regions.json")) else []


def word(p):
    return WORDS.get(p["kind"]) or (p["bound"] or {}).get("level") or p["kind"]


def headlines(table):
    lines = table.splitlines()
    return {line.split(" ", 1)[0]: lines[i + 1].strip()
            for i, line in enumerate(lines[:-1]) if lines[i + 1].startswith("    ")}


tally = collections.defaultdict(collections.Counter)
functions = collections.defaultdict(collections.Counter)
agree = collections.Counter()
print("rep program region bound share bound_roof | advise figure interactive report | profile")
for rep in range(1, reps + 1):
    for variant, command in programs:
        d = os.path.join(out, f"{variant}-{rep}")
        run("count", "--results", results, "--out", d, "--", *command)
        place_json = os.path.join(d, "place.json")
        placed = run("place", results, os.path.join(d, "timed"), *counts(d), "--out", place_json)
        if placed.returncode != 0:
            continue
        heads = headlines(placed.stdout)
        regions = {p["region"]: p for p in json.load(open(place_json))["regions"]}
        run("advise", results, os.path.join(d, "timed"), *counts(d), "--placements", place_json, "--out", os.path.join(d, "advice.json"))
        advised = {a["region"]: a for a in json.load(open(os.path.join(d, "advice.json")))["regions"]}
        run("report", results, "--placements", place_json, "--out", os.path.join(d, "report"))
        html = open(os.path.join(d, "report", "report.html")).read()
        caption = next(f["caption"] for f in json.load(open(
            os.path.join(d, "report", "plots", "figures.json")))["figures"]
            if f["name"] == "larm-domain0")
        data = re.search(r'id="larm-roofline-data">(.*?)</script>', html, re.S)
        tips = {r["name"].split(" (")[0]: r["text"]
                for dom in json.loads(data.group(1))["domains"] for r in dom["regions"]}
        # The same program unmodified under larm profile: its kernels are its functions.
        prof = os.path.join(d, "profile")
        if with_profile:
            run("profile", "--results", results, "--out", prof, "--allow-exit", "1", "--", *command)
        profiled = {}
        if with_profile and os.path.exists(os.path.join(prof, "place.json")):
            profiled = {p["region"]: p for p in json.load(open(os.path.join(prof, "place.json")))["regions"]}
        for name, p in profiled.items():
            functions[(variant, name)][word(p)] += 1
        for name, p in sorted(regions.items()):
            bound = (p["bound"] or {}).get("name", "-")
            a = advised.get(name, {}).get("verdict", {})
            checks = {
                "advise": a.get("kind") == p["kind"] and a.get("bound") == bound,
                "figure": not (p["ai"] and p["gflops"]) or f"{name} of default: {word(p)}" in caption,
                "interactive": not (p["ai"] and p["gflops"]) or tips.get(name, "").endswith(heads.get(name, "?")),
                "report": heads.get(name, "?").replace("&", "&amp;").replace('"', "&quot;") in html,
            }
            for k, v in checks.items():
                agree[k] += v
            # The function of that name under larm profile: its bound, whether it leans on the
            # same roof (which the time does not decide), and its time against the region's.
            if name in profiled:
                f = profiled[name]
                same_roof = (f["bound"] or {}).get("name") == bound
                profile_word = (f"{word(f)} {100 * f['share']:.0f}%, "
                                f"{'same roof' if same_roof else 'roof ' + (f['bound'] or {}).get('name', '-')}, "
                                f"time x{f['time']['seconds'] / max(p['time']['seconds'], 1e-12):.2f}")
                agree["profile roof"] += same_roof
                agree["profile bound"] += f["kind"] == p["kind"]
            else:
                profile_word = "not placed"
            tally[(variant, name)][word(p)] += 1
            print(f"{rep} {variant} {name} {word(p)} {100 * p['share']:.0f}% {bound} | " +
                  " ".join(("same" if checks[k] else "DIFFERENT") for k in
                           ("advise", "figure", "interactive", "report")) +
                  f" | profile: {profile_word}", flush=True)
print("\nbounds over the repetitions (larm place, the instrumented regions):")
for (variant, name), counter in sorted(tally.items()):
    print(f"  {variant} {name}: " + ", ".join(f"{b} {n}/{sum(counter.values())}"
                                               for b, n in counter.most_common()))
print("larm profile's placed functions:")
for (variant, name), counter in sorted(functions.items()):
    print(f"  {variant} {name}: " + ", ".join(f"{b} {n}/{sum(counter.values())}"
                                               for b, n in counter.most_common()))
total = sum(sum(c.values()) for c in tally.values())
print("outputs agreeing with place: " + ", ".join(f"{k} {v}/{total}" for k, v in agree.items()))
