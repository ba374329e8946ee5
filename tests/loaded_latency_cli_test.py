"""End-to-end test of `larm loaded-latency` on this machine: a short curve per mix whose idle point
comes first with no injection, whose injectors move far more at no delay than at a long one (a
factor of 20: a delay of 65536 counting-loop iterations per access leaves them tens of microseconds
apart), whose chase percentiles are ordered, with its pages placed; --out writes the same curves
and the memory's figure, and refuses a directory that has curves; bad input refused with one line
and exit 2. With a CPU-bound process on the injector's CPU (it then runs about half the time, far
over the 2 % the watch allows), every injecting point is marked disturbed, the curve unstable, and
the text names the injector.
    loaded_latency_cli_test.py LARM"""
import json
import os
import subprocess
import sys
import tempfile

from cli_helpers import Checker, run

larm = sys.argv[1]
c = Checker()


def one_line_error(result, expected, what):
    lines = result.stderr.strip().splitlines()
    c.check(result.returncode == 2, f"{what}: exit {result.returncode}, expected 2")
    c.check(len(lines) == 1 and lines[0].startswith("larm: error:") and expected in lines[0],
            f"{what}: stderr {result.stderr!r}, expected one line with {expected!r}")


cores = len(os.sched_getaffinity(0))
if cores < 2:
    one_line_error(run(larm, "loaded-latency"), "no core is left to inject", "one core")
else:
    out = os.path.join(tempfile.mkdtemp(prefix="larm-loaded-"), "out")
    r = run(larm, "loaded-latency", "--injectors", "1", "--mix", "1,1:1", "--delays", "65536,0",
            "--samples", "3", "--json", "--out", out)
    c.check(r.returncode == 0, f"loaded-latency exit {r.returncode}: {r.stderr}")
    curves = json.loads(r.stdout) if r.returncode == 0 else []
    if r.returncode == 0:
        c.check_equal(json.load(open(os.path.join(out, "loaded-latency.json"))), curves,
                      "loaded-latency.json is what --json printed")
        memory = curves[0]["memory"]
        figure = os.path.join(out, "figures", f"loaded_latency_memory_{memory}")
        c.check(os.path.exists(figure + ".gp") and os.path.exists(figure + ".dat"),
                "the memory's figure script and data")
        data = open(figure + ".dat").read()
        c.check(data.count("# mix ") == 4, f"two blocks per curve (points, line): {data[:300]!r}")
        one_line_error(run(larm, "loaded-latency", "--out", out), "already exist",
                       "curves already in --out")
    c.check_equal([x["mix"] for x in curves], ["1", "1:1"], "one curve per mix")
    for curve in curves:
        what = f"mix {curve['mix']}"
        points = curve["points"]
        c.check_equal([p["delay"] for p in points], [None, 65536, 0], f"{what}: idle point first")
        c.check_equal(points[0]["injector_gbps"], 0, f"{what}: the idle point injects nothing")
        # Not "> 0" at the long delay: a busy host may hold the injector through the chase's
        # few milliseconds there.
        c.check(points[2]["injector_gbps"] > 20 * points[1]["injector_gbps"] and
                points[2]["injector_gbps"] > 0,
                f"{what}: injection at delay 0 {points[2]['injector_gbps']} GB/s, at 65536 "
                f"{points[1]['injector_gbps']} GB/s")
        for p in points:
            c.check(len(p["samples_ns"]) == 3 and 0 < p["p10_ns"] <= p["p50_ns"] <= p["p90_ns"],
                    f"{what}: point {p}")
        c.check_equal(curve["idle_ns"], points[0]["p50_ns"], f"{what}: idle latency")
        c.check_equal(curve["saturation_gbps"], max(p["injector_gbps"] for p in points),
                      f"{what}: saturation")
        c.check(curve["chain_placement"] == 1 and curve["injector_placement"] == 1,
                f"{what}: placement {curve['chain_placement']} {curve['injector_placement']}")
        c.check_equal(curve["read_share"], 1 if curve["mix"] == "1" else 0.5, f"{what}: read share")

    if curves:
        injector_pu = curves[0]["injector_pus"][0]
        hog = subprocess.Popen(
            [sys.executable, "-c",
             f"import os, time\nos.sched_setaffinity(0, {{{injector_pu}}})\nend = time.time() + 120"
             "\nwhile time.time() < end: pass"])
        try:
            r = run(larm, "loaded-latency", "--injectors", "1", "--mix", "1", "--delays", "64,0",
                    "--samples", "3", "--json")
            t = run(larm, "loaded-latency", "--injectors", "1", "--mix", "1", "--delays", "0",
                    "--samples", "3")
        finally:
            hog.kill()
            hog.wait(timeout=30)
        c.check(r.returncode == 0, f"loaded-latency beside a hog: exit {r.returncode}: {r.stderr}")
        if r.returncode == 0:
            curve = json.loads(r.stdout)[0]
            for p in curve["points"][1:]:
                c.check(f"PU {injector_pu}" in p.get("disturbed", "") and
                        p.get("interference", {}).get("samples", 0) >= 1,
                        f"beside a hog on PU {injector_pu}: point {p.get('delay')} disturbed "
                        f"({p.get('disturbed', 'not said')}) and re-taken")
            c.check(curve["status"].startswith("unstable"),
                    f"beside a hog: the curve is unstable ({curve['status']})")
        # The injector named, after the chase's own samples when the host's other load met
        # those too.
        marked = [l for l in t.stdout.splitlines() if "disturbed: " in l]
        c.check(t.returncode == 0 and any("injector thread 1" in l for l in marked),
                f"beside a hog: the text marks the point ({t.stdout[-600:]})")

for args, expected, what in (
        (("--mix", "3:1"), "is not 1, 2:1 or 1:1", "unknown mix"),
        (("--domain", "99"), "--domain 99 does not exist", "unknown domain"),
        (("--memory", "4093"), "no such NUMA node", "unknown memory"),
        (("--injectors", "0"), "--injectors 0", "no injector"),
        (("--injectors", "4096"), "--injectors 4096", "too many injectors"),
        (("--delays", "-1"), "--delays", "negative delay"),
        (("--samples", "0"), "--samples", "no sample"),
        (("--results", "/nonexistent/results"), "/nonexistent/results", "missing results")):
    one_line_error(run(larm, "loaded-latency", *args), expected, what)
c.finish()
