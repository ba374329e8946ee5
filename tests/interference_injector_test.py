"""A characterization with scripts/interference_injector.py busy on one of its CPUs: the run
detects the interference, re-takes samples, says so in a warning and counts it in the records;
the injector itself refuses bad input and ends cleanly."""
import json
import os
import subprocess
import sys
import tempfile

from cli_helpers import Checker, run

larm, source = sys.argv[1], sys.argv[2]
injector = os.path.join(source, "scripts", "interference_injector.py")
c = Checker()

bad = subprocess.run([sys.executable, injector, "--cpu", "0", "--duty", "1.5", "--seconds", "1"],
                     capture_output=True, text=True)
c.check(bad.returncode != 0 and "--duty" in bad.stderr, f"bad duty accepted: {bad.stderr!r}")

cpu = sorted(os.sched_getaffinity(0))[-1]
# --seconds: should this test be killed before it stops the injector, the busy loop ends anyway.
busy = subprocess.Popen([sys.executable, injector, "--cpu", str(cpu), "--duty", "0.9",
                         "--period-ms", "20", "--seconds", "900"])
out = os.path.join(tempfile.mkdtemp(prefix="larm-inject-"), "run")
try:
    result = run(larm, "characterize", "--quick", "--only", "flops", "--out", out)
finally:
    busy.terminate()
    busy.wait(timeout=10)
c.check(busy.returncode == 0, f"injector ended with {busy.returncode} on SIGTERM")
c.check(result.returncode == 0, f"characterize failed: {result.stderr}")
doc = json.load(open(os.path.join(out, "results.json")))
c.check(any("interfered with" in w for w in doc["warnings"]),
        f"no interference warning: {doc['warnings']}")
counted = [r["interference"] for r in doc["roofs"] + doc["frequency"] if "interference" in r]
c.check(counted and all(i["samples"] >= 1 and i["reason"] for i in counted),
        f"interference not counted in the records: {counted[:3]}")
c.finish()
