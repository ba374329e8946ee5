"""`larm run --set-weights` leaves the kernel's weighted-interleave settings as it found them.

Run on a fake sysfs: a tmpfs mounted over the weights' directory in a private mount namespace
(unshare), never the machine's own files. Checks: larm says before writing that the weights are
system-wide; the program sees the weights asked; after it ends, after larm is sent SIGTERM, and
after a refused write, the weights and the automatic flag are back as they were (the program
turns the flag off here as the kernel does when a weight is written); --keep-weights keeps them.
    weights_restore_test.py LARM
Exits 77 (skipped) where there is no unshare, no root, or no weighted interleave to mount over."""
import os
import shutil
import signal
import subprocess
import sys
import time

from cli_helpers import Checker, run

WEIGHTS_DIR = "/sys/kernel/mm/mempolicy/weighted_interleave"
larm = sys.argv[1]

if os.environ.get("LARM_WEIGHTS_NAMESPACE") != "1":
    if os.geteuid() != 0 or shutil.which("unshare") is None or not os.path.isdir(WEIGHTS_DIR):
        print("skipped: needs root, unshare and " + WEIGHTS_DIR)
        sys.exit(77)
    env = dict(os.environ, LARM_WEIGHTS_NAMESPACE="1")
    sys.exit(subprocess.run(["unshare", "--mount", "--propagation", "private", sys.executable,
                             *sys.argv], env=env, timeout=600).returncode)

# In the private namespace: the fake directory.
subprocess.run(["mount", "-t", "tmpfs", "-o", "size=1m", "larm-fake-weights", WEIGHTS_DIR],
               check=True)
c = Checker()
node = min(int(n[4:]) for n in os.listdir("/sys/devices/system/node") if n.startswith("node")
           and n[4:].isdigit())
weight_file = f"{WEIGHTS_DIR}/node{node}"
auto_file = f"{WEIGHTS_DIR}/auto"


def reset(weight="1", automatic="true"):
    with open(weight_file, "w") as f:
        f.write(weight + "\n")
    with open(auto_file, "w") as f:
        f.write(automatic + "\n")


def settings():
    return open(weight_file).read().strip(), open(auto_file).read().strip()


# As the kernel does when a weight is written: automatic weights off.
show = f"echo false > {auto_file}; cat {weight_file}"

reset()
r = run(larm, "run", "--weighted-interleave", f"{node}:3", "--set-weights", "--", "sh", "-c", show)
c.check_equal(r.returncode, 0, f"set-weights run: exit ({r.stderr!r})")
c.check_equal(r.stdout.strip(), "3", "the program sees the weight asked")
c.check("system-wide" in r.stderr and "automatic weights off" in r.stderr and
        "put back when the program ends" in r.stderr, f"said before writing: {r.stderr!r}")
c.check_equal(settings(), ("1", "true"), "weight and automatic flag put back after the run")

reset()
r = run(larm, "run", "--weighted-interleave", f"{node}:3", "--set-weights", "--", "sh", "-c",
        "exit 4")
c.check_equal(r.returncode, 4, "the program's exit status")
c.check_equal(settings(), ("1", "true"), "put back after a program that failed")

reset()
r = run(larm, "run", "--weighted-interleave", f"{node}:3", "--set-weights", "--keep-weights", "--",
        "sh", "-c", show)
c.check_equal(r.returncode, 0, f"keep-weights run ({r.stderr!r})")
c.check_equal(settings()[0], "3", "--keep-weights keeps the weight")
r = run(larm, "run", "--weighted-interleave", f"{node}:3", "--keep-weights", "--", "true")
c.check(r.returncode == 2 and "give both" in r.stderr, f"--keep-weights alone: {r.stderr!r}")

# SIGTERM to larm alone while the program runs: the program ends, the weights come back.
reset()
marker = os.path.join(os.environ.get("TMPDIR", "/tmp"), f"larm-weights-{os.getpid()}")
p = subprocess.Popen([larm, "run", "--weighted-interleave", f"{node}:5", "--set-weights", "--",
                      "sh", "-c", f"echo $$ > {marker}; exec sleep 120"],
                     stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                     start_new_session=True)
deadline = time.monotonic() + 60
while time.monotonic() < deadline and not (os.path.exists(marker) and os.path.getsize(marker)):
    time.sleep(0.05)
c.check_equal(settings()[0], "5", "the weight while the program runs")
p.send_signal(signal.SIGTERM)
try:
    out, err = p.communicate(timeout=60)
except subprocess.TimeoutExpired:
    os.killpg(p.pid, signal.SIGKILL)
    out, err = p.communicate()
c.check_equal(p.returncode, 143, f"SIGTERM: larm's exit ({err!r})")
c.check("interrupted (SIGTERM)" in err, f"SIGTERM: said: {err!r}")
c.check_equal(settings(), ("1", "true"), "put back after SIGTERM")
if os.path.exists(marker):
    os.remove(marker)

# A write the kernel refuses (here a read-only file): nothing changed, the program not run.
reset()
subprocess.run(["mount", "--bind", weight_file, weight_file], check=True)
subprocess.run(["mount", "-o", "remount,ro,bind", weight_file], check=True)
r = run(larm, "run", "--weighted-interleave", f"{node}:7", "--set-weights", "--", "sh", "-c",
        f"echo ran > {marker}")
lines = r.stderr.strip().splitlines()
c.check(r.returncode == 2 and lines[-1].startswith("larm: error:") and "--set-weights" in lines[-1],
        f"refused write: exit {r.returncode}, {r.stderr!r}")
c.check(not os.path.exists(marker), "refused write: the program did not run")
c.check_equal(settings(), ("1", "true"), "refused write: weight and flag unchanged")
subprocess.run(["umount", weight_file], check=False)
c.finish()
