"""larm's compiler plugins as their users use them: programs built through the wrappers (larm-cc,
larm-fortran and, where the build has clang's, larm-clang) count their own FLOPs and bytes in
their native runs, and `larm count` takes counts and times from those runs, with no counting run.

  compiler_plugin_test.py LARM BUILD_DIR SOURCE_DIR

- a C triad with OpenMP (2 threads) and a Fortran daxpy through the region API: FLOPs exact (2
  per element), bytes those of the loads and stores (24 and 24 per element), per thread too;
- SSE2 and x86-64-v3 builds count the same FLOPs, in their own widths (FMAs only where the ISA
  has them);
- refused with one line and exit 2 before any run: a program with an object of another plugin
  version, --cache-model and --no-native on a plugin build; a plugin option it does not know
  fails the compilation with one line."""
import json
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from cli_helpers import Checker  # noqa: E402

larm, build, source = sys.argv[1], sys.argv[2], sys.argv[3]
bindir = os.path.join(build, "bin")
checker = Checker()
check = checker.check


def run(args, timeout=300, **kwargs):
    return subprocess.run(args, capture_output=True, text=True, timeout=timeout,
                          env=dict(os.environ, OMP_NUM_THREADS="2", OMP_PROC_BIND="true"),
                          **kwargs)


def link_flags():
    lib = os.path.join(build, "instrument")
    return ["-I" + os.path.join(source, "include"), "-L" + lib, "-Wl,-rpath," + lib, "-llarm"]


TRIAD = r"""
#include <larm/region.h>
#include <stdio.h>
#include <stdlib.h>
int main(int argc, char** argv) {
  const long n = atol(argv[1]);
  const int reps = atoi(argv[2]);
  double* a = malloc(n * sizeof *a);
  double* b = malloc(n * sizeof *b);
  double* c = malloc(n * sizeof *c);
#pragma omp parallel for
  for (long i = 0; i < n; ++i) { a[i] = 0; b[i] = i; c[i] = 2 * i; }
#pragma omp parallel
  {
    larm_region_begin("triad");
    for (int r = 0; r < reps; ++r) {
#pragma omp for
      for (long i = 0; i < n; ++i) a[i] = b[i] + 3.0 * c[i];
    }
    larm_region_end("triad");
  }
  printf("%g\n", a[n / 2]);
  free(a); free(b); free(c);
  return 0;
}
"""

DAXPY = r"""
program daxpy
  use iso_c_binding
  implicit none
  interface
    subroutine larm_region_begin(name) bind(C, name="larm_region_begin")
      import :: c_char
      character(kind=c_char), dimension(*), intent(in) :: name
    end subroutine
    subroutine larm_region_end(name) bind(C, name="larm_region_end")
      import :: c_char
      character(kind=c_char), dimension(*), intent(in) :: name
    end subroutine
  end interface
  integer, parameter :: n = 1000000, reps = 20
  double precision, allocatable :: x(:), y(:)
  integer :: i, r
  allocate(x(n), y(n))
  do i = 1, n
    x(i) = i
    y(i) = 0
  end do
  call larm_region_begin("daxpy" // c_null_char)
  do r = 1, reps
    do i = 1, n
      y(i) = y(i) + 0.5d0 * x(i)
    end do
  end do
  call larm_region_end("daxpy" // c_null_char)
  print *, y(n / 2)
end program
"""


COPY = r"""
#include <larm/region.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
int main(int argc, char** argv) {
  const long n = atol(argv[1]);
  char* a = malloc(n);
  char* b = malloc(n);
  for (long i = 0; i < n; ++i) b[i] = (char)(i * argc);
  larm_region_begin("copy");
  const long m = n - atol(argv[2]); /* a length computed in the region's own block */
  memcpy(a, b, m);
  memset(b, 1, m / 2);
  larm_region_end("copy");
  printf("%d %d\n", a[m - 1], b[m / 2 - 1]);
  return 0;
}
"""


def machine(regions_json, name):
    regions = json.load(open(regions_json))
    return regions, next((r for r in regions["regions"] if r["name"] == name), None)


with tempfile.TemporaryDirectory(prefix="larm-plugin-") as tmp:
    triad_c = os.path.join(tmp, "triad.c")
    open(triad_c, "w").write(TRIAD)
    n, reps = 2_000_000, 10
    flops_by_width = {}
    builds = [(wrapper + ":" + isa, wrapper, flags)
              for wrapper in ("larm-cc", "larm-clang") if os.path.exists(os.path.join(bindir, wrapper))
              for isa, flags in (("sse2", []), ("v3", ["-march=x86-64-v3"]))]
    check(any(b[1] == "larm-cc" for b in builds), "larm-cc is built")
    for variant, wrapper, flags in builds:
        program = os.path.join(tmp, "triad_" + variant.replace(":", "_"))
        r = run([os.path.join(bindir, wrapper), "-O3", "-fopenmp", *flags, triad_c, "-o", program,
                 *link_flags()])
        check(r.returncode == 0, f"{variant}: {wrapper} builds the triad ({r.stderr[-400:]})")
        if r.returncode != 0:
            continue
        out = os.path.join(tmp, "count-" + variant.replace(":", "_"))
        r = run([larm, "count", "--repeat", "2", "--out", out, "--", program, str(n), str(reps)])
        check(r.returncode == 0, f"{variant}: larm count (exit {r.returncode}) {r.stderr[-400:]}")
        if r.returncode != 0:
            continue
        check("Counted by larm's compiler plugin" in r.stdout and "Valgrind" not in r.stderr,
              f"{variant}: counted in the native runs, no Valgrind run")
        check(not os.path.exists(os.path.join(out, "counted", "regions.json")),
              f"{variant}: no counting run's regions")
        check("next: larm place --results" in r.stdout and "--counts" not in r.stdout,
              f"{variant}: place takes the native regions alone")
        regions, triad = machine(os.path.join(out, "timed", "regions.json"), "triad")
        check(regions["counters"].get("counted_by") == "compiler", f"{variant}: counted_by compiler")
        if triad is None:
            check(False, f"{variant}: a triad region")
            continue
        m = triad["machine"]
        check(m["flops"] == 2 * n * reps and m["flops_source"] == "counted",
              f"{variant}: triad FLOPs {m['flops']:.6g}, expected {2 * n * reps:.6g}")
        check(abs(m["bytes_read"] - 16 * n * reps) <= 0.001 * 16 * n * reps and
              abs(m["bytes_written"] - 8 * n * reps) <= 0.001 * 8 * n * reps,
              f"{variant}: triad bytes read {m['bytes_read']:.6g} (expected {16 * n * reps:.6g}), "
              f"written {m['bytes_written']:.6g} ({8 * n * reps:.6g})")
        threads = triad["threads"]
        check(len(threads) == 2 and sum(t["flops"] for t in threads) == m["flops"] and
              all(t["flops"] > 0 for t in threads),
              f"{variant}: each of 2 threads counted its share: {[t['flops'] for t in threads]}")
        check(m["counted"].get("fma_flops", 0) == (2 * n * reps if variant.endswith("v3") else 0),
              f"{variant}: FMA FLOPs {m['counted'].get('fma_flops')}")
        check("instructions" not in m["counted"], f"{variant}: no instruction count claimed")
        flops_by_width[variant] = {k: v for k, v in m["counted"].items() if k.startswith("flops_")}
        # Bad input on a plugin build: refused before any run.
        for extra, needle in ((["--cache-model", "declared"], "--cache-model"),
                              (["--no-native"], "--no-native")):
            bad_out = os.path.join(tmp, "bad-" + variant.replace(":", "_") + extra[0])
            r = run([larm, "count", *extra, "--out", bad_out, "--", program, "10", "1"])
            check(r.returncode == 2 and needle in r.stderr and len(r.stderr.strip().splitlines()) == 1
                  and not os.path.exists(bad_out),
                  f"{variant}: {' '.join(extra)} refused, one line, nothing made: {r.stderr.strip()!r}")
    for variant, widths in flops_by_width.items():
        width = "flops_dp_256" if variant.endswith("v3") else "flops_dp_128"
        check(widths.get(width, 0) > 0.9 * 2 * n * reps,
              f"{variant}: the triad's FLOPs are mostly {width[9:]}-bit ones: {widths}")

    # Fortran, through larm-fortran, where the build has it.
    fortran = os.path.join(bindir, "larm-fortran")
    if os.path.exists(fortran):
        daxpy_f = os.path.join(tmp, "daxpy.f90")
        open(daxpy_f, "w").write(DAXPY)
        program = os.path.join(tmp, "daxpy")
        r = run([fortran, "-O2", daxpy_f, "-o", program, *link_flags()])
        check(r.returncode == 0, f"larm-fortran builds daxpy ({r.stderr[-400:]})")
        if r.returncode == 0:
            out = os.path.join(tmp, "count-daxpy")
            r = run([larm, "count", "--repeat", "1", "--out", out, "--", program])
            check(r.returncode == 0, f"daxpy: larm count (exit {r.returncode}) {r.stderr[-300:]}")
            if r.returncode == 0:
                _, daxpy = machine(os.path.join(out, "timed", "regions.json"), "daxpy")
                m = daxpy["machine"] if daxpy else {}
                check(m.get("flops") == 2 * 1_000_000 * 20,
                      f"daxpy (Fortran): FLOPs {m.get('flops')}, expected {2 * 1_000_000 * 20}")
                check(abs(m.get("bytes", 0) - 24 * 1_000_000 * 20) <= 0.001 * 24e6 * 20,
                      f"daxpy (Fortran): bytes {m.get('bytes')}, expected {24 * 1_000_000 * 20}")
    else:
        print("no larm-fortran (no gfortran at build time): Fortran not checked")

    # An object that says it was built by another plugin version: refused before any run.
    other_c = os.path.join(tmp, "other.c")
    open(other_c, "w").write(
        '__asm__(".pushsection larm_counted,\\"aR\\",@progbits\\n'
        '.ascii \\"larm-gcc-plugin 99 counts 27 gcc 12.2.0 other.c\\\\n\\"\\n.popsection\\n");\n')
    program = os.path.join(tmp, "mixed")
    r = run([os.path.join(bindir, "larm-cc"), "-O2", "-fopenmp", triad_c, other_c, "-o", program,
             *link_flags()])
    check(r.returncode == 0, f"a program with an object of another version builds ({r.stderr[-300:]})")
    if r.returncode == 0:
        out = os.path.join(tmp, "count-mixed")
        r = run([larm, "count", "--out", out, "--", program, "10", "1"])
        check(r.returncode == 2 and "version 99" in r.stderr and
              len(r.stderr.strip().splitlines()) == 1 and not os.path.exists(out),
              f"another plugin version refused, one line, before any run: {r.stderr.strip()!r}")

    # memcpy and memset of a length known at run time only, in one region: their lengths.
    copy_c = os.path.join(tmp, "copy.c")
    open(copy_c, "w").write(COPY)
    for wrapper in ("larm-cc", "larm-clang"):
        if not os.path.exists(os.path.join(bindir, wrapper)):
            continue
        program = os.path.join(tmp, "copy_" + wrapper)
        r = run([os.path.join(bindir, wrapper), "-O2", copy_c, "-o", program, *link_flags()])
        check(r.returncode == 0, f"{wrapper}: builds the copy ({r.stderr[-300:]})")
        if r.returncode != 0:
            continue
        out = os.path.join(tmp, "count-copy-" + wrapper)
        r = run([larm, "count", "--repeat", "1", "--out", out, "--", program, "1000000", "7"])
        check(r.returncode == 0, f"{wrapper}: copy counted (exit {r.returncode}) {r.stderr[-300:]}")
        if r.returncode == 0:
            _, copy = machine(os.path.join(out, "timed", "regions.json"), "copy")
            m = copy["machine"] if copy else {}
            length = 1000000 - 7
            check(abs(m.get("bytes_read", 0) - length) <= 256 and
                  abs(m.get("bytes_written", 0) - (length + length // 2)) <= 256,
                  f"{wrapper}: memcpy and memset of {length} and {length // 2} bytes: read "
                  f"{m.get('bytes_read')}, written {m.get('bytes_written')}")

    # An object compiled without the plugin: said before the runs, by its source's name.
    helper_c = os.path.join(tmp, "helper_plain.c")
    open(helper_c, "w").write("static double twice(double x) { return 2 * x; }\n"
                              "double helper(double x) { return twice(x) + 1; }\n")
    helper_o = os.path.join(tmp, "helper_plain.o")
    program = os.path.join(tmp, "partly")
    r = run(["gcc", "-O0", "-c", helper_c, "-o", helper_o])
    r2 = run([os.path.join(bindir, "larm-cc"), "-O2", "-fopenmp", triad_c, helper_o, "-o", program,
              *link_flags()])
    check(r.returncode == 0 and r2.returncode == 0, f"a partly instrumented program builds ({r2.stderr[-300:]})")
    if r2.returncode == 0:
        r = run([larm, "count", "--repeat", "1", "--out", os.path.join(tmp, "count-partly"), "--",
                 program, "1000", "1"])
        check(r.returncode == 0 and "1 source file(s)" in r.stderr and "helper_plain.c" in r.stderr
              and "triad.c" not in r.stderr.split("compiled without")[-1],
              f"the source compiled without the plugin is named: {r.stderr[:300]!r}")

    # A plugin option it does not know: the compilation fails and says which.
    r = run([os.path.join(bindir, "larm-cc"), "-fplugin-arg-larm_gcc_plugin-bogus=1", "-c", triad_c,
             "-o", os.path.join(tmp, "x.o")])
    check(r.returncode != 0 and "unknown plugin option" in r.stderr and "bogus" in r.stderr,
          f"an unknown plugin option fails the build: {r.stderr.strip()[-200:]!r}")

checker.finish()
