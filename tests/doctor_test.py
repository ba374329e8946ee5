"""larm doctor: its findings as text and JSON, a verdict that follows the load (the interference
injector busy on a CPU makes the machine busy or noisy), and a bad probe length refused."""
import json
import os
import subprocess
import sys

from cli_helpers import Checker, run

larm, source = sys.argv[1], sys.argv[2]
c = Checker()

text = run(larm, "doctor")
c.check(text.returncode == 0, f"doctor failed: {text.stderr}")
for finding in ("load average", "busy elsewhere", "steal", "clock", "SMT siblings", "settings",
                "verdict"):
    c.check(finding in text.stdout, f"no '{finding}' line in: {text.stdout}")

quiet = json.loads(run(larm, "doctor", "--json", "--seconds", "0.5").stdout)
c.check(quiet["verdict"] in ("quiet", "busy", "noisy"), f"verdict {quiet['verdict']!r}")
c.check(quiet["expected_error"] >= 0.01, f"expected error {quiet['expected_error']} below 1 %")
c.check(quiet["clock_hz"] > 3e8, f"clock {quiet['clock_hz']}")

# A process busy all the time on one of our CPUs: others use a large share of them.
injector = os.path.join(source, "scripts", "interference_injector.py")
cpu = sorted(os.sched_getaffinity(0))[-1]
# --seconds: should this test be killed before it stops the injector, the busy loop ends anyway.
busy = subprocess.Popen([sys.executable, injector, "--cpu", str(cpu), "--duty", "1", "--seconds",
                         "300"])
try:
    loaded = json.loads(run(larm, "doctor", "--json").stdout)
finally:
    busy.terminate()
    busy.wait(timeout=10)
share = 1 / len(os.sched_getaffinity(0))
c.check(loaded["others_cpu_share"] > 0.5 * share,
        f"others' share {loaded['others_cpu_share']} with a CPU kept busy (expected ~{share})")
c.check(loaded["verdict"] != "quiet", f"verdict {loaded['verdict']} with a CPU kept busy")

bad = run(larm, "doctor", "--seconds", "0")
c.check(bad.returncode == 2, f"--seconds 0 gave exit {bad.returncode}")
c.finish()
