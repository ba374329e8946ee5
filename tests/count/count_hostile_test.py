"""larm count against a program that works against it (count/hostile_program.c), and against
output names Valgrind would read as patterns:

  count_hostile_test.py LARM HOSTILE_PROGRAM

- links planted by the program where larm or its tool write after it ran (runs.json,
  counted/totals.json, timed/regions.json): the victim file is never written;
- the program's output directory swapped for a link: one error line, nothing written into the
  link's target;
- a child that outlives the program: stopped when the program ends (said in one line); the file
  it would have written 3 s later never appears;
- a read request with an address the program cannot write: refused by the tool, Valgrind does
  not crash, the counts are there;
- --out with '%p' and '%q{HOME}' in its name: everything written inside that directory;
- FLOPs and bytes beyond 1e18 declared through liblarm, and LARM_ACCESS_BYTES beyond an access:
  refused (-1, or ignored with a line), and the regions.json written is one larm place reads;
- a region named with an escape sequence and invalid UTF-8: regions.csv and larm's tables show
  them escaped;
- a program that does not exist: exit 2, one line, nothing created."""
import os
import shutil
import subprocess
import sys
import tempfile
import time

larm, program = sys.argv[1], os.path.abspath(sys.argv[2])
source = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
reference = os.path.join(source, "results", "reference", "dev-zen5-2vcpu")
failures = []
work = tempfile.mkdtemp(prefix="larm-count-hostile-")


def check(condition, message):
    print(("ok    " if condition else "FAIL  ") + message)
    if not condition:
        failures.append(message)


def count(out, *args, native=True, env=None):
    command = [larm, "count", "--no-cache-model", "--repeat", "1", "--out", out]
    if not native:
        command.append("--no-native")
    return subprocess.run(command + ["--", program, *args], capture_output=True, text=True,
                          timeout=300, cwd=work, env=dict(os.environ, **(env or {})))


victim = os.path.join(work, "victim.txt")
VICTIM_TEXT = "the victim's own content\n"


def reset_victim():
    with open(victim, "w") as f:
        f.write(VICTIM_TEXT)


def victim_intact():
    with open(victim) as f:
        return f.read() == VICTIM_TEXT


# Links planted where larm and its tool write after the program ran.
reset_victim()
out = os.path.join(work, "plant")
r = count(out, "plant", out, victim)
check(victim_intact(), f"planted links: the victim is untouched (exit {r.returncode})")
check(r.returncode == 0, f"planted links: the run completes: {r.stderr[-300:]}")
check(not os.path.islink(os.path.join(out, "runs.json")),
      "planted links: runs.json is larm's file, not the planted link")

# The output's timed/ swapped for a link to another directory.
elsewhere = os.path.join(work, "elsewhere")
os.makedirs(elsewhere)
out = os.path.join(work, "swap")
r = count(out, "swap", out, elsewhere)
errors = [line for line in r.stderr.splitlines() if line.startswith("larm: error:")]
check(r.returncode != 0 and len(errors) == 1 and "symbolic link" in errors[0],
      f"swapped output: one error line naming the link, exit {r.returncode}: {errors}")
check(os.listdir(elsewhere) == [], f"swapped output: nothing written elsewhere: {os.listdir(elsewhere)}")

# counted/ swapped for a link during the native run: refused before the counting run writes
# anything there (its log, the tool's files), by larm count and by larm profile.
for command in ("count", "profile"):
    if command == "profile" and shutil.which("perf") is None:
        print("perf is not installed: larm profile's swapped counted/ is not checked")
        continue
    elsewhere = os.path.join(work, f"elsewhere-{command}")
    os.makedirs(elsewhere)
    with open(os.path.join(elsewhere, "valgrind.log"), "w") as f:
        f.write(VICTIM_TEXT)
    out = os.path.join(work, f"swap-counted-{command}")
    r = subprocess.run([larm, command, "--no-cache-model", "--repeat", "1", "--out", out, "--",
                        program, "swapdir", out, "counted", elsewhere], capture_output=True,
                       text=True, timeout=300, cwd=work)
    errors = [line for line in r.stderr.splitlines() if line.startswith("larm: error:")]
    check(r.returncode != 0 and len(errors) == 1 and "symbolic link" in errors[0],
          f"{command}: swapped counted/: one error line naming the link, exit {r.returncode}: "
          f"{r.stderr[-400:]}")
    check(sorted(os.listdir(elsewhere)) == ["valgrind.log"] and
          open(os.path.join(elsewhere, "valgrind.log")).read() == VICTIM_TEXT,
          f"{command}: swapped counted/: nothing written there: {os.listdir(elsewhere)}")

# An --out whose name holds a terminal escape: every line larm prints shows it escaped.
out = os.path.join(work, "out-\x1b]0;owned\x07-\x1b[31m")
r = count(out)
check(r.returncode == 0, f"escaped --out: the run completes: {r.stderr[-300:]}")
check("\x1b" not in r.stdout and "\x1b" not in r.stderr and "\\x1b" in r.stderr,
      f"escaped --out: printed escaped: {r.stdout[-300:]!r} {r.stderr[-300:]!r}")

# A child that outlives the program.
late = os.path.join(work, "late.txt")
out = os.path.join(work, "linger")
started = time.monotonic()
r = count(out, "linger", late, native=False)
check(r.returncode == 0, f"lingering child: the run completes: {r.stderr[-300:]}")
check("left 1 process(es) running" in r.stderr, "lingering child: stopped, and said so")
time.sleep(max(0.0, 4.5 - (time.monotonic() - started)))
check(not os.path.exists(late), "lingering child: nothing written after larm count returned")

# A client request with an address the program cannot write.
out = os.path.join(work, "badpointer")
r = count(out, "badpointer", native=False)
check(r.returncode == 0 and "answered 0" in r.stdout,
      f"bad pointer: refused with answer 0, Valgrind alive (exit {r.returncode}): {r.stdout[-200:]} {r.stderr[-300:]}")
check(os.path.exists(os.path.join(out, "counted", "regions.json")), "bad pointer: the counts are written")

# Output names with Valgrind's file-name patterns.
for name in ("res 100%p", "q%q{HOME}x"):
    out = os.path.join(work, name)
    r = count(out, native=False)
    check(r.returncode == 0 and os.path.isfile(os.path.join(out, "counted", "valgrind.log")) and
          os.path.isfile(os.path.join(out, "counted", "regions.json")),
          f"--out {name!r}: counted into it (exit {r.returncode}): {r.stderr[-300:]}")
check(not os.path.exists(os.path.join(work, "res 100")) and
      sorted(p for p in os.listdir(work) if p.startswith("q")) == ["q%q{HOME}x"],
      f"--out patterns: nothing written beside: {sorted(os.listdir(work))}")

# Values beyond larm's range declared through liblarm.
out = os.path.join(work, "huge")
r = count(out, "huge")
check(r.returncode == 0 and "1e300: -1" in r.stdout and "1e19 bytes: -1" in r.stdout and
      "9e17 twice: 0 -1" in r.stdout,
      f"values beyond 1e18: refused by liblarm: {r.stdout[:300]} {r.stderr[-300:]}")
# The program declared FLOPs and no bytes: its own run alone cannot be placed (one line naming the
# region, exit 2); with the count run's bytes it is.
timed = os.path.join(out, "timed", "regions.json")
placed = subprocess.run([larm, "place", reference, timed], capture_output=True, text=True, timeout=60)
check(placed.returncode == 2 and len(placed.stderr.strip().splitlines()) == 1 and
      "region work" in placed.stderr and "no bytes" in placed.stderr,
      f"values beyond 1e18: declared FLOPs without bytes refused in one line: {placed.stderr[-300:]}")
placed = subprocess.run([larm, "place", reference, timed, "--counts",
                         os.path.join(out, "counted", "regions.json")],
                        capture_output=True, text=True, timeout=60)
check(placed.returncode == 0 and "work" in placed.stdout,
      f"values beyond 1e18: larm reads the regions written: {placed.stderr[-300:]}")

for width in ("1e300", "1e19", "inf"):
    out = os.path.join(work, "width-" + width)
    r = count(out, env={"LARM_ACCESS_BYTES": width})
    placed = subprocess.run([larm, "place", reference, os.path.join(out, "timed", "regions.json"),
                             "--counts", os.path.join(out, "counted", "regions.json")],
                            capture_output=True, text=True, timeout=60)
    check(r.returncode == 0 and "LARM_ACCESS_BYTES" in r.stderr and placed.returncode == 0,
          f"LARM_ACCESS_BYTES={width}: ignored, said, the regions placed: {placed.stderr[-300:]}")

# A region name with an escape sequence and invalid UTF-8.
out = os.path.join(work, "escape")
r = count(out, "escape", native=False)
with open(os.path.join(out, "counted", "regions.csv"), "rb") as f:
    csv = f.read()
check(b"\x1b" not in csv and b"\xff" not in csv and b"\\x1b" in csv,
      "escaped names: regions.csv holds no control byte or invalid UTF-8")
check("\x1b" not in r.stdout and "\x1b" not in r.stderr, "escaped names: the tables escape them")

# A program that does not exist.
out = os.path.join(work, "missing")
r = subprocess.run([larm, "count", "--out", out, "--", "no-such-program-\x1b[31m"], capture_output=True,
                   text=True, timeout=60)
check(r.returncode == 2 and len(r.stderr.strip().splitlines()) == 1 and "\x1b" not in r.stderr and
      not os.path.exists(out), f"missing program: exit 2, one line, nothing created: {r.returncode} {r.stderr}")
r = subprocess.run([larm, "count", "--no-native", "--out", out, "--", "/no/such/program"],
                   capture_output=True, text=True, timeout=60)
check(r.returncode == 2 and not os.path.exists(out), f"missing program with --no-native: exit 2: {r.stderr}")

# A larm copied out of its build tree (as a package installs it) does not take the build's tool:
# without one beside it, it says so, exit 2, before any run.
copied = os.path.join(work, "elsewhere-bin", "larm")
os.makedirs(os.path.dirname(copied))
shutil.copy2(larm, copied)
env = {k: v for k, v in os.environ.items() if k != "LARM_COUNT_TOOL_DIR"}
out = os.path.join(work, "copied")
r = subprocess.run([copied, "count", "--out", out, "--", program], capture_output=True, text=True,
                   timeout=60, env=env)
check(r.returncode == 2 and "not built or not found" in r.stderr and not os.path.exists(out),
      f"a larm outside its build tree: no tool taken from the tree: {r.returncode} {r.stderr[-300:]}")

shutil.rmtree(work, ignore_errors=True)
if failures:
    print(f"{len(failures)} failed")
    sys.exit(1)
print("all passed")
