"""larm profile on programs built through larm's compiler plugins: the program counts its functions
itself in a native counting run (larm_plugin_runtime.so, preloaded), perf times them; no Valgrind
run.

  profile_plugin_test.py LARM BUILD_DIR RESULTS_DIR

- an unmodified OpenMP program (2 threads), triad and dot in their own functions, built through
  larm-cc and, where the build has it, larm-clang: both placed, their FLOPs exact (2 per element
  per call), their bytes those of their loads and stores (24 and 16 per element), two threads
  each with half the work; regions.json says counted_by compiler; nothing runs under Valgrind;
- built with the sampled cache model (cache-sample=64, through each plugin) and profiled with
  --cache-model: triad and dot read 24 and 16 bytes an element from memory (arrays larger than the
  modelled L3), within 15 %;
- dot in an object compiled without the plugin: one line names the uninstrumented source before
  the runs, dot is listed "not instrumented" and not placed, triad still exact;
- refused with one line and exit 2 before any run: a plugin build linked as a position-dependent
  executable (-no-pie: its weak reference cannot reach the preloaded library), --cache-model on a
  build without the sampled model.
Exit 77 (skipped) when Linux perf cannot sample here."""
import json
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from cli_helpers import Checker  # noqa: E402

larm, build, results = sys.argv[1:4]
bindir = os.path.join(build, "bin")
checker = Checker()
check = checker.check
ELEMENTS, CALLS = 1 << 20, 80

MAIN = r"""
#include <stdio.h>
#include <stdlib.h>
enum { kElements = %d, kCalls = %d };
__attribute__((noinline)) void triad(double* a, const double* b, const double* c, double s,
                                     long n) {
  for (long i = 0; i < n; ++i) a[i] = b[i] + s * c[i];
}
double dot(const double* a, const double* b, long n);
int main(void) {
  double* a = malloc(sizeof(double) * kElements);
  double* b = malloc(sizeof(double) * kElements);
  double* c = malloc(sizeof(double) * kElements);
  for (long i = 0; i < kElements; ++i) { a[i] = 0; b[i] = 1; c[i] = 2; }
  double total = 0;
#pragma omp parallel for schedule(static) reduction(+ : total)
  for (int half = 0; half < 2; ++half) {
    const long first = half * (kElements / 2);
    for (int call = 0; call < kCalls; ++call) {
      triad(a + first, b + first, c + first, 0.5, kElements / 2);
      total += dot(a + first, b + first, kElements / 2);
    }
  }
  printf("%%g\n", total);
  return 0;
}
""" % (ELEMENTS, CALLS)

DOT = r"""
__attribute__((noinline)) double dot(const double* a, const double* b, long n) {
  double sum = 0;
  for (long i = 0; i < n; ++i) sum += a[i] * b[i];
  return sum;
}
"""


def run(args, timeout=600):
    return subprocess.run(args, capture_output=True, text=True, timeout=timeout,
                          env=dict(os.environ, OMP_NUM_THREADS="2"))


def compile_program(tmp, name, main_cc, dot_cc, extra=()):
    for file, text in (("main.c", MAIN), ("dot.c", DOT)):
        with open(os.path.join(tmp, file), "w") as f:
            f.write(text)
    objects = []
    for file, cc in (("main.c", main_cc), ("dot.c", dot_cc)):
        obj = os.path.join(tmp, name + "-" + file + ".o")
        r = run([cc, "-O2", "-g", "-fopenmp", "-c", os.path.join(tmp, file), "-o", obj] + list(extra))
        if r.returncode != 0:
            sys.exit(f"{cc} {file}: {r.stderr}")
        objects.append(obj)
    program = os.path.join(tmp, name)
    r = run([main_cc, "-fopenmp", "-o", program] + objects + list(extra))
    if r.returncode != 0:
        sys.exit(f"{main_cc} link: {r.stderr}")
    return program


def profile(tmp, name, program, args=()):
    out = os.path.join(tmp, "out-" + name)
    r = run([larm, "profile", "--out", out, "--repeat", "2", "--results", results] + list(args)
            + ["--", program])
    return r, out


if shutil.which("perf") is None:
    print("Linux perf is not installed: skipped")
    sys.exit(77)

compilers = [("gcc", os.path.join(bindir, "larm-cc"))]
if os.path.exists(os.path.join(bindir, "larm-clang")):
    compilers.append(("clang", os.path.join(bindir, "larm-clang")))

with tempfile.TemporaryDirectory(prefix="larm-profile-plugin-") as tmp:
    for name, cc in compilers:
        program = compile_program(tmp, name, cc, cc)
        r, out = profile(tmp, name, program)
        if "perf_event_paranoid" in r.stderr:
            print(r.stderr)
            sys.exit(77)
        print(r.stdout[-2500:], r.stderr[-1500:])
        check(r.returncode == 0, f"{name}: larm profile ran (exit {r.returncode})")
        if r.returncode != 0:
            continue
        check("Valgrind" not in r.stderr and "counting run under" not in r.stderr,
              f"{name}: no Valgrind run")
        check("counts: larm's compiler plugin" in r.stdout, f"{name}: the table names the plugin")
        doc = json.load(open(os.path.join(out, "regions.json")))
        check(doc["counters"].get("counted_by") == "compiler", f"{name}: counted_by compiler")
        prof = json.load(open(os.path.join(out, "profile.json")))
        check(prof.get("counted_by") == "compiler" and prof.get("counting_run_seconds", 0) > 0,
              f"{name}: profile.json: counted by the compiler, in a native counting run")
        regions = {r_["name"]: r_ for r_ in doc["regions"]}
        for function, flops, bytes_ in (("triad", 2 * ELEMENTS * CALLS, 24 * ELEMENTS * CALLS),
                                        ("dot", 2 * ELEMENTS * CALLS, 16 * ELEMENTS * CALLS)):
            region = regions.get(function)
            check(region is not None, f"{name}: {function} placed ({sorted(regions)})")
            if region is None:
                continue
            machine = region["machine"]
            got_flops = machine["flops"]
            got_bytes = machine["bytes"]
            check(got_flops == flops, f"{name}: {function}: FLOPs {got_flops:.0f} == {flops}")
            check(abs(got_bytes - bytes_) <= 0.01 * bytes_,
                  f"{name}: {function}: bytes {got_bytes:.0f} within 1 % of {bytes_}")
            threads = region["threads"]
            halves = sorted(t["flops"] for t in threads)
            check(len(threads) == 2 and halves == [flops / 2, flops / 2],
                  f"{name}: {function}: two threads, half the FLOPs each ({halves})")

    # The sampled cache model, of each plugin: bytes per level per function, from memory for
    # arrays larger than the modelled L3 (24 and 16 bytes an element, within 15 %).
    flags = {"larm-cc": ["-fplugin-arg-larm_gcc_plugin-cache-sample=64"],
             "larm-clang": ["-mllvm", "-larm-cache-sample=64"]}
    for name, wrapper in compilers:
        tag = "sampled-" + name
        program = compile_program(tmp, tag, wrapper, wrapper, flags[os.path.basename(wrapper)])
        r, out = profile(tmp, tag, program,
                         ["--cache-model", "32768:8:64,524288:8:64,4194304:16:64"])
        print(r.stdout[-1500:], r.stderr[-800:])
        check(r.returncode == 0 and "sampled cache model" in r.stdout,
              f"{tag}: larm profile with the sampled model (exit {r.returncode})")
        if r.returncode != 0:
            continue
        placed = {r_["name"]: r_ for r_ in
                  json.load(open(os.path.join(out, "regions.json")))["regions"]}
        for function, per_element in (("triad", 24), ("dot", 16)):
            counted = placed.get(function, {}).get("machine", {}).get("counted", {})
            got = counted.get("bytes_memory_read", 0)
            expected = per_element * ELEMENTS * CALLS
            print(f"{tag}: {function} memory read {got:.4g}, expected {expected:.4g}")
            check(abs(got - expected) <= 0.15 * expected,
                  f"{tag}: {function} reads {got:.4g} bytes from memory, {expected:.4g} expected")

    # dot compiled without the plugin: not counted, said, not placed.
    program = compile_program(tmp, "mixed", compilers[0][1], "gcc")
    r, out = profile(tmp, "mixed", program)
    print(r.stdout[-2000:], r.stderr[-1500:])
    check(r.returncode == 0, f"mixed: larm profile ran (exit {r.returncode})")
    check("1 source file(s)" in r.stderr and "compiled without larm's plugin" in r.stderr,
          "mixed: the uninstrumented source is said before the runs")
    table = {f["function"]: f for f in json.load(open(os.path.join(out, "profile.json")))["functions"]}
    check("dot" in table and not table["dot"]["placed"] and
          "not instrumented" in table["dot"]["why"], f"mixed: dot not instrumented, not placed")
    triad = {r_["name"]: r_ for r_ in json.load(open(os.path.join(out, "regions.json")))["regions"]}
    check("triad" in triad and triad["triad"]["machine"]["flops"] == 2 * ELEMENTS * CALLS,
          "mixed: triad still exact")

    # Refused before any run.
    program = compile_program(tmp, "nopie", compilers[0][1], compilers[0][1], ["-no-pie"])
    r, out = profile(tmp, "nopie", program)
    check(r.returncode == 2 and "position-dependent" in r.stderr and
          len(r.stderr.strip().splitlines()) == 1 and not os.path.exists(out),
          f"-no-pie refused, one line, exit 2, nothing made ({r.returncode}: {r.stderr.strip()})")
    program = os.path.join(tmp, compilers[0][0])
    r, out = profile(tmp, "model", program, ["--cache-model", "l1=32K:8"])
    check(r.returncode == 2 and "--cache-model" in r.stderr and
          len(r.stderr.strip().splitlines()) == 1 and not os.path.exists(out),
          f"--cache-model refused, one line, exit 2 ({r.returncode}: {r.stderr.strip()})")

checker.finish()
