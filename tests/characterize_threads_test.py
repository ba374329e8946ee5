"""A characterization's threaded code end to end, for ThreadSanitizer: `larm characterize --quick
--only flops,sweep` runs the FLOP ceilings and the frequency on every core, the all-core and the
one-core bandwidth sweeps, each sample judged for interference, and saves as it goes. TSan ends
the program with an error at the first data race (halt_on_error), so the exit status is most of
the test; the results must also be whole.
    characterize_threads_test.py LARM"""
import json
import os
import sys
import tempfile

from cli_helpers import Checker, run

larm = sys.argv[1]
c = Checker()
out = os.path.join(tempfile.mkdtemp(prefix="larm-threads-"), "results")
r = run(larm, "characterize", "--quick", "--only", "flops,sweep", "--out", out, timeout=800)
print(r.stdout[-3000:])
c.check(r.returncode == 0, f"characterize --only flops,sweep exit {r.returncode}: {r.stderr[-4000:]}")
if r.returncode == 0:
    doc = json.load(open(os.path.join(out, "results.json")))
    c.check(doc["complete"] is True, f"incomplete: {doc['incomplete_reason']}")
    cores = len(doc["topology"]["domains"][0]["core_pus"])
    threads = {p["threads"] for p in doc["sweep"] if p["samples"]}
    c.check({1, cores} <= threads, f"sweeps on 1 and {cores} threads, found {sorted(threads)}")
    ceilings = [x for x in doc["roofs"] if x["level"] == "flops" and x["samples"]]
    c.check(ceilings and all(x["threads"] == cores for x in ceilings),
            f"{len(ceilings)} FLOP ceilings on {cores} threads")
c.finish()
