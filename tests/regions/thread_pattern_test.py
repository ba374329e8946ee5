"""A region begun and ended on the calling thread around `omp parallel for` is recorded by one
thread while two work in it: regions.json carries a warning, liblarm says it on stderr. The same
loop with begin and end inside the parallel region, on every thread, gets none. `larm place`
prints the warning under the region, `larm report --regions` lists it.
    thread_pattern_test.py PROGRAM LARM RESULTS_DIR"""
import json
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from cli_helpers import Checker  # noqa: E402

program, larm, results = sys.argv[1], sys.argv[2], sys.argv[3]
c = Checker()
# Waiting threads spin (active policy), so both threads are on a CPU for the whole parallel loop
# whatever the share each gets: the busy-thread count does not depend on the load balance.
env = dict(os.environ, OMP_NUM_THREADS="2", OMP_WAIT_POLICY="active", OMP_PROC_BIND="false")
env.pop("LARM_QUIET", None)
for pattern in ("master", "every"):
    with tempfile.TemporaryDirectory() as out:
        run = subprocess.run([program, pattern, out], env=env, capture_output=True, text=True,
                             timeout=120)
        c.check(run.returncode == 0, f"{pattern}: exit {run.returncode}: {run.stderr}")
        doc = json.load(open(os.path.join(out, "regions.json")))
        region = next(r for r in doc["regions"] if r["name"] == "axpy")
        machine = region["machine"]
        busy = machine.get("busy_threads")
        warnings = region.get("warnings", [])
        said = [line for line in run.stderr.splitlines() if "threads of the process worked" in line]
        facts = f"{pattern}: threads {machine['threads']}, busy {busy}, warnings {warnings}"
        c.check(busy is not None and busy > 0, f"{facts}: no busy_threads recorded")
        placed = subprocess.run([larm, "place", results, out], capture_output=True, text=True,
                                timeout=120)
        shown = [l for l in placed.stdout.splitlines() if l.strip().startswith("warning: recorded by")]
        c.check(placed.returncode == 0 and len(shown) == (1 if pattern == "master" else 0),
                f"{pattern}: larm place shows {len(shown)} warning(s): {placed.stdout[-600:]}")
        if pattern == "master":
            report = os.path.join(out, "report")
            made = subprocess.run([larm, "report", results, "--regions", out, "--out", report],
                                  capture_output=True, text=True, timeout=300)
            text = open(os.path.join(report, "report.md")).read() if made.returncode == 0 else ""
            c.check("region axpy (default): recorded by 1 thread" in text,
                    f"larm report lists the warning (exit {made.returncode}): {made.stderr[-300:]}")
            c.check(machine["threads"] == 1, f"{facts}: recorded by one thread expected")
            c.check(len(warnings) == 1 and "recorded by 1 thread while" in warnings[0]
                    and "inside the parallel region" in warnings[0], f"{facts}: no warning")
            c.check(len(said) == 1, f"{facts}: liblarm did not say it on stderr: {run.stderr}")
        else:
            c.check(machine["threads"] == 2, f"{facts}: recorded by both threads expected")
            c.check(warnings == [] and said == [], f"{facts}: a warning on the right pattern")
        print(facts)
c.finish()
