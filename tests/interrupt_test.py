"""Ctrl-C during a characterization: what was measured is saved, marked incomplete."""
import json
import os
import signal
import subprocess
import sys
import tempfile
import time

from cli_helpers import Checker, run

larm = sys.argv[1]
c = Checker()
out = os.path.join(tempfile.mkdtemp(prefix="larm-int-"), "run")
process = subprocess.Popen([larm, "characterize", "--out", out, "--only", "flops,sweep"],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
# Wait until at least one measurement has been saved, then interrupt.
deadline = time.time() + 120
saved = False
while time.time() < deadline and not saved:
    time.sleep(0.5)
    try:
        # The sweeps come before the FLOP ceilings: two records of either.
        doc = json.load(open(os.path.join(out, "results.json")))
        saved = len(doc["roofs"]) >= 2 or len(doc["sweep"]) >= 2
    except (OSError, ValueError, KeyError):
        pass
c.check(saved, "no measurement saved within 120 s")
process.send_signal(signal.SIGINT)
try:
    stdout, stderr = process.communicate(timeout=120)
except subprocess.TimeoutExpired:
    process.kill()  # not left measuring under the tests that follow
    raise
c.check(process.returncode == 130, f"exit {process.returncode} after SIGINT, expected 130")
c.check("incomplete" in stderr, f"stderr does not say incomplete: {stderr!r}")
doc = json.load(open(os.path.join(out, "results.json")))
c.check(doc["complete"] is False, "results marked complete")
c.check("interrupted" in doc["incomplete_reason"], f"reason: {doc['incomplete_reason']!r}")
c.check(any(r["samples"] for r in doc["roofs"] + doc["sweep"]), "nothing measured was kept")
show = run(larm, "show", out)
c.check(show.returncode == 0 and "INCOMPLETE" in show.stdout, "larm show does not flag incomplete")
c.finish()
