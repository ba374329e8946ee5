"""The binary users run on an AVX-512 node, counted: the known-answer kernels
(count/known_answer_program.c) built through larm's GCC plugin for x86-64-v4 with 512-bit vectors
preferred (known_answer_plugin_v4), which the Valgrind tool cannot run, against the same source
built through the plugin for x86-64-v3 (known_answer_plugin_v3).

  avx512_plugin_test.py LARM BUILD_DIR

Everywhere: the v4 build holds 512-bit instructions (zmm registers) and says in its larm_counted
section that the plugin built it, and larm count takes it as a plugin build.
Where the CPU has AVX-512 (avx512f in /proc/cpuinfo): counted natively, every region's FLOPs equal
the x86-64-v3 build's within 0.5 %; the vectorized regions (triad_dram, triad_l2, stencil_l2)
count 512-bit FLOPs, and larm count's table reports that width's share. Elsewhere, with
LARM_AVX512_GUEST=1 in the environment, the v4 build is counted by larm count on an emulated
AVX-512 CPU (bench/avx512_guest.sh: Bochs's Skylake-X, minutes; its first use installs Bochs and
builds the guest's kernel) and held to the same checks. Otherwise the runs are skipped, said, and
the test exits 77 (skipped) after its static checks."""
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from cli_helpers import Checker  # noqa: E402

larm, build = sys.argv[1:3]
checker = Checker()
check = checker.check
v3 = os.path.join(build, "tests", "known_answer_plugin_v3")
v4 = os.path.join(build, "tests", "known_answer_plugin_v4")
if not os.path.exists(v4):
    print("no x86-64-v4 plugin build (the build's C compiler is not the plugin's GCC): skipped")
    sys.exit(77)


with open("/proc/cpuinfo") as f:
    flags = next((line.split(":", 1)[1].split() for line in f if line.startswith("flags")), [])
in_guest = "avx512f" not in flags and os.environ.get("LARM_AVX512_GUEST") == "1"
# The emulated CPU runs one thread (avx512_guest.sh says why); both builds then run one.
threads = "1" if in_guest else "2"


def run(args, timeout=600):
    return subprocess.run(args, capture_output=True, text=True, timeout=timeout,
                          env=dict(os.environ, OMP_NUM_THREADS=threads, OMP_PROC_BIND="true"))


# Static: what was built is the AVX-512 binary, instrumented.
disassembly = run(["objdump", "-d", "--no-show-raw-insn", v4]).stdout
zmm = sum(1 for line in disassembly.splitlines() if "%zmm" in line)
print(f"known_answer_plugin_v4: {zmm} instructions name a zmm register")
check(zmm > 0, f"the v4 build uses 512-bit registers ({zmm} instructions name a zmm)")
section = run(["objdump", "-s", "-j", "larm_counted", v4]).stdout
check("larm-gcc-plugin" in section, "the v4 build's larm_counted section names the GCC plugin")

if "avx512f" not in flags and not in_guest:
    print("this CPU has no AVX-512 (no avx512f in /proc/cpuinfo): the v4 build is not run here "
          "(LARM_AVX512_GUEST=1 runs it on an emulated AVX-512 CPU)")
    if checker.failures:
        checker.finish()
    sys.exit(77)
guest_tool = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "bench",
                          "avx512_guest.sh")


def count_in_guest(program, out):
    """larm count of program on the emulated AVX-512 CPU; its output and directory come back."""
    script = out + ".sh"
    with open(script, "w") as f:
        f.write("grep -q avx512f /proc/cpuinfo || { echo 'the guest has no AVX-512'; exit 1; }\n"
                "export OMP_NUM_THREADS=1\n"
                f"larm count --repeat 1 --out $OUT/count -- /bin/{os.path.basename(program)} 256 1"
                "\n")
    # Its own process group: a timeout ends the kernel's build or Bochs with it.
    guest = subprocess.Popen([guest_tool, "--bin", larm, "--bin", program, "--out", out + ".guest",
                              "--timeout", "1500", script], stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True, start_new_session=True)
    try:
        stdout, stderr = guest.communicate(timeout=1700)
    except subprocess.TimeoutExpired:
        os.killpg(guest.pid, signal.SIGKILL)
        stdout, stderr = guest.communicate()
    r = subprocess.CompletedProcess(guest.args, guest.returncode, stdout, stderr)
    if os.path.isdir(os.path.join(out + ".guest", "count")):
        shutil.move(os.path.join(out + ".guest", "count"), out)
    return r


def count(program, out):
    if in_guest and program == v4:
        r = count_in_guest(program, out)
    else:
        r = run([larm, "count", "--repeat", "1", "--out", out, "--", program, "256", "1"])
    check(r.returncode == 0 and "Counted by larm's compiler plugin" in r.stdout,
          f"{os.path.basename(program)}: counted by the plugin (exit {r.returncode}) "
          f"{r.stderr[-300:]}")
    if r.returncode != 0:
        return r.stdout, {}
    with open(os.path.join(out, "timed", "regions.json")) as f:
        return r.stdout, {reg["name"]: reg["machine"] for reg in json.load(f)["regions"]}


with tempfile.TemporaryDirectory(prefix="larm-avx512-plugin-") as tmp:
    _, narrow = count(v3, os.path.join(tmp, "v3"))
    table, wide = count(v4, os.path.join(tmp, "v4"))
    print(table)
    for name, machine in sorted(narrow.items()):
        other = wide.get(name)
        check(other is not None, f"{name}: in the v4 build's count too")
        if other is None:
            continue
        flops, flops_v4 = machine["flops"] or 0, other["flops"] or 0
        check(abs(flops_v4 - flops) <= 0.005 * max(flops, 1.0),
              f"{name}: FLOPs {flops_v4:.6g} for x86-64-v4, {flops:.6g} for x86-64-v3 (within 0.5 %)")
        if name in ("triad_dram", "triad_l2", "stencil_l2"):
            wide_flops = other["counted"].get("flops_dp_512", 0)
            print(f"{name}: 512-bit share {100 * wide_flops / max(flops_v4, 1.0):.1f} %")
            check(wide_flops > 0, f"{name}: 512-bit FLOPs counted ({wide_flops:.6g})")
    check("dp_512" in table, "larm count's table reports the 512-bit share")

checker.finish()
