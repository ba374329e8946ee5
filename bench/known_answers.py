"""The known-answer kernels (tests/count/known_answer_program.c) placed REPS times, through every
output: one line per repetition, build and kernel with the bound `larm place` names, and whether
advise, the LARM figure's caption, the interactive roofline, the report and `larm profile` (the
same program unmodified, its functions sampled and counted) say the same; then, per kernel, how
many repetitions gave each bound.

  python3 bench/known_answers.py LARM BUILD_DIR RESULTS OUT [REPS]

RESULTS: a characterization of this machine (larm characterize); OUT: a directory for the runs."""
import collections
import json
import os
import re
import subprocess
import sys

larm, build, results, out = sys.argv[1:5]
reps = int(sys.argv[5]) if len(sys.argv) > 5 else 5
env = dict(os.environ, OMP_NUM_THREADS="2", OMP_PROC_BIND="true")
os.makedirs(out, exist_ok=True)
WORDS = {"compute": "compute", "memory": "memory local", "latency": "latency",
         "unexplained": "unexplained"}


def run(*args):
    r = subprocess.run([larm, *args], capture_output=True, text=True, env=env, timeout=1800)
    if r.returncode != 0:
        print(f"larm {args[0]} failed ({r.returncode}): {r.stderr[-400:]}", file=sys.stderr)
    return r


def word(p):
    return WORDS.get(p["kind"]) or (p["bound"] or {}).get("level") or p["kind"]


def headlines(table):
    lines = table.splitlines()
    return {line.split(" ", 1)[0]: lines[i + 1].strip()
            for i, line in enumerate(lines[:-1]) if lines[i + 1].startswith("    ")}


tally = collections.defaultdict(collections.Counter)
agree = collections.Counter()
print("rep build kernel bound share bound_roof | advise figure interactive report profile")
for rep in range(1, reps + 1):
    for variant in ("sse2", "v3"):
        program = os.path.join(build, "tests", f"known_answer_{variant}")
        d = os.path.join(out, f"{variant}-{rep}")
        run("count", "--results", results, "--out", d, "--", program, "256", "2")
        place_json = os.path.join(d, "place.json")
        placed = run("place", results, os.path.join(d, "timed"), "--counts",
                     os.path.join(d, "counted"), "--out", place_json)
        if placed.returncode != 0:
            continue
        heads = headlines(placed.stdout)
        regions = {p["region"]: p for p in json.load(open(place_json))["regions"]}
        run("advise", results, os.path.join(d, "timed"), "--counts", os.path.join(d, "counted"),
            "--placements", place_json, "--out", os.path.join(d, "advice.json"))
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
        run("profile", "--results", results, "--out", prof, "--", program, "256", "2")
        profiled = {}
        if os.path.exists(os.path.join(prof, "place.json")):
            profiled = {p["region"]: p for p in json.load(open(os.path.join(prof, "place.json")))["regions"]}
        for name, p in sorted(regions.items()):
            bound = (p["bound"] or {}).get("name", "-")
            a = advised.get(name, {}).get("verdict", {})
            checks = {
                "advise": a.get("kind") == p["kind"] and a.get("bound") == bound,
                "figure": not (p["ai"] and p["gflops"]) or f"{name} of default: {word(p)}" in caption,
                "interactive": not (p["ai"] and p["gflops"]) or tips.get(name, "").endswith(heads.get(name, "?")),
                "report": heads.get(name, "?").replace("&", "&amp;").replace('"', "&quot;") in html,
                "profile": name in profiled and profiled[name]["kind"] == p["kind"],
            }
            for k, v in checks.items():
                agree[k] += v
            profile_word = word(profiled[name]) if name in profiled else "not placed"
            tally[(variant, name)][word(p)] += 1
            print(f"{rep} {variant} {name} {word(p)} {100 * p['share']:.0f}% {bound} | " +
                  " ".join(("same" if checks[k] else "DIFFERENT") for k in
                           ("advise", "figure", "interactive", "report")) +
                  f" profile:{profile_word}", flush=True)
print("\nbounds over the repetitions:")
for (variant, name), counter in sorted(tally.items()):
    print(f"  {variant} {name}: " + ", ".join(f"{b} {n}/{sum(counter.values())}"
                                               for b, n in counter.most_common()))
total = sum(sum(c.values()) for c in tally.values())
print("outputs agreeing with place: " + ", ".join(f"{k} {v}/{total}" for k, v in agree.items()))
