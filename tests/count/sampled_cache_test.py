"""The plugins' sampled cache model against the Valgrind tool's full one: the same program, built
through larm-cc with -fplugin-arg-larm_gcc_plugin-cache-sample=64 and with gcc alone, and (where
the build has the LLVM plugin) through larm-clang with -mllvm -larm-cache-sample=64 and with
clang-14 alone, counted by `larm count` with the same caches (--cache-model, given by hand: the
same on any machine).

  sampled_cache_test.py LARM BUILD_DIR SOURCE_DIR

- regions of known levels: a triad on arrays larger than the modelled L3 (memory), a sum over
  128 KiB repeated (L2; also in a variadic function, whose checks clang's plugin keeps in place),
  a sum over 8 KiB repeated (L1), a 2-thread OpenMP triad, reads of a
  512-byte array through indices streamed from memory (an emulated gather: each index a lane of
  a vector load, sampled as the bytes it reads; the array is small so that no sampled line of it
  decides what L1 keeps), 2 MiB zeroed by memset and read back (memset's range modelled: the
  reads come from L3): the bytes each
  level serves within 15 % of the Valgrind tool's (and the L1 sum none beyond L1); the counted
  run is the sampled model's (no Valgrind), its file a counting run that `larm place --counts`
  takes;
- the timed runs of the sampled build take the checkless copy of each loop: its regions' FLOPs
  and bytes equal the plain plugin build's (the same counts in both copies);
- a vectorized reduction and an add of two products (-O3 -ffast-math, double and float, through
  larm-cc and larm-clang): the plugin's FLOPs by width equal the Valgrind tool's on the plain
  build, the reduction's end included, and the two products counted whole (an add fuses one);
  without -ffast-math, a min by a select (x86's minsd; also behind a guard, beside an index, and
  vectorized: a vmaxpd) and libm's sqrt (a sqrtsd where errno is not touched) counted as the tool
  counts them;
- refused with one line and exit 2 before any run: --cache-model on a plugin build without the
  sampled model (naming the flag of the build's compiler), a model of 128-byte lines; a
  cache-sample value that is not a power of two fails the compilation, its first error saying why
  (GCC adds that the plugin did not start)."""
import json
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from cli_helpers import Checker  # noqa: E402

larm, build, source = sys.argv[1:4]
bindir = os.path.join(build, "bin")
checker = Checker()
check = checker.check
# L1 32 KiB 8-way, L2 512 KiB 8-way, L3 4 MiB 16-way: small enough that 8 MiB arrays go to memory.
MODEL = "32768:8:64,524288:8:64,4194304:16:64"
SAMPLE = {"larm-cc": ["-fplugin-arg-larm_gcc_plugin-cache-sample=64"],
          "larm-clang": ["-mllvm", "-larm-cache-sample=64"]}
BAD_SAMPLE = {"larm-cc": ["-fplugin-arg-larm_gcc_plugin-cache-sample=48"],
              "larm-clang": ["-mllvm", "-larm-cache-sample=48"]}

PROGRAM = r"""
#include <larm/region.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
__attribute__((noinline)) void triad(double* a, const double* b, const double* c, long n) {
  for (long i = 0; i < n; ++i) a[i] = b[i] + 3.0 * c[i];
}
/* Variadic: clang's plugin keeps its checks in place (no copy can be called in its stead). */
__attribute__((noinline)) double variadic_sum(int reps, ...) {
  va_list args;
  va_start(args, reps);
  const double* a = va_arg(args, const double*);
  const long n = va_arg(args, long);
  va_end(args);
  double s = 0;
  for (int r = 0; r < reps; ++r)
    for (long i = 0; i < n; ++i) s += a[i];
  return s;
}
__attribute__((noinline)) double sum(const double* a, long n, int reps) {
  double s = 0;
  for (int r = 0; r < reps; ++r)
    for (long i = 0; i < n; ++i) s += a[i];
  return s;
}
/* At -O3 for x86-64-v3, GCC vectorizes the indexed reads as an emulated gather: the indices
   loaded as one vector, each lane read alone (a BIT_FIELD_REF of memory). */
__attribute__((noinline, optimize("O3"))) void gather(double* restrict y, const double* restrict x,
                                                      const int* restrict index, long n) {
  for (long i = 0; i < n; ++i) y[i] = 2.0 * x[index[i]];
}
int main(void) {
  const long n = 1L << 20;  /* 8 MiB per array */
  double *a = malloc(n * 8), *b = malloc(n * 8), *c = malloc(n * 8);
  int* index = malloc(n * sizeof *index);
  for (long i = 0; i < n; ++i) { a[i] = 0; b[i] = 1; c[i] = 2; index[i] = (int)((i * 5) & 63); }
  larm_region_begin("memory triad");
  for (int r = 0; r < 4; ++r) triad(a, b, c, n);
  larm_region_end("memory triad");
  double s = 0;
  larm_region_begin("L2 sum");
  s += sum(a, 16384, 40);
  larm_region_end("L2 sum");
  larm_region_begin("variadic L2 sum");
  s += variadic_sum(40, a, 16384L);
  larm_region_end("variadic L2 sum");
  larm_region_begin("L1 sum");
  s += sum(b, 1024, 400);
  larm_region_end("L1 sum");
  larm_region_begin("gathered reads");
  for (int r = 0; r < 2; ++r) gather(a, c, index, n); /* 512 bytes of c, the indices from memory */
  larm_region_end("gathered reads");
#pragma omp parallel
  {
    larm_region_begin("parallel triad");
#pragma omp for
    for (long i = 0; i < n; ++i) a[i] = b[i] + 2.0 * c[i];
    larm_region_end("parallel triad");
  }
  /* 2 MiB zeroed by memset (its lines modelled from its range) and read back: from L3. */
  larm_region_begin("zeroed then summed");
  for (int r = 0; r < 4; ++r) {
    memset(b, 0, 1 << 21);
    s += sum(b, (1 << 21) / 8, 1);
  }
  larm_region_end("zeroed then summed");
  printf("%g %g\n", s, a[n / 2]);
  free(a); free(b); free(c); free(index);
  return 0;
}
"""
REDUCTION = r"""
#include <larm/region.h>
#include <stdio.h>
REAL a[1000], b[1000], c[1000], d[1000];
int main(void) {
  for (int i = 0; i < 1000; ++i) { a[i] = i; b[i] = 1.0 / (i + 1); c[i] = 2; d[i] = 0.5; }
  REAL s = 0;
  larm_region_begin("dot");
  for (int r = 0; r < 10; ++r) {
    REAL t = 0;
    for (int i = 0; i < 1000; ++i) t += a[i] * b[i];
    s += t;
    a[r] = s;
  }
  larm_region_end("dot");
  /* An add of two products (HPCG's SYMGS, unrolled by clang): the back end fuses one of them. */
  larm_region_begin("two products");
  for (int r = 0; r < 10; ++r) {
    REAL t = 0;
    for (int i = 0; i < 1000; ++i) t -= a[i] * b[i] + c[i] * d[i];
    s += t;
    c[r] = s;
  }
  larm_region_end("two products");
  printf("%g\n", (double)s);
  return 0;
}
"""
# Built without -ffast-math: a min by a select of the compare's operands (x86 makes it a minsd) and
# libm's sqrt, which errno keeps a call in the IR (the back end makes it a sqrtsd).
LIMITS = r"""
#include <larm/region.h>
#include <math.h>
#include <stdio.h>
REAL a[1000];
int main(void) {
  for (int i = 0; i < 1000; ++i) a[i] = (REAL)((i * 37) % 1000) - 500;
  REAL m = a[0], s = 0;
  larm_region_begin("min");
  for (int r = 0; r < 10; ++r) {
    for (int i = 0; i < 1000; ++i) m = a[i] < m ? a[i] : m;
    a[r] += 1;
  }
  larm_region_end("min");
  larm_region_begin("guarded min");
  for (int r = 0; r < 10; ++r) {
    for (int i = 0; i < 1000; ++i) m = a[i] != 0 && a[i] < m ? a[i] : m;
    a[r] -= 1;
  }
  larm_region_end("guarded min");
  int k = 0;
  larm_region_begin("argmin");
  for (int r = 0; r < 10; ++r) {
    for (int i = 0; i < 1000; ++i) {
      const int less = a[i] < m;
      m = less ? a[i] : m;
      k = less ? i : k;
    }
    a[r] += 2;
  }
  larm_region_end("argmin");
  /* Vectorized: a select of the compare's operands lane by lane, a vmaxpd. */
  larm_region_begin("clamp");
  for (int r = 0; r < 10; ++r) {
    const REAL low = (REAL)(r * 40 - 400);
    for (int i = 0; i < 1000; ++i) a[i] = a[i] < low ? low : a[i];
  }
  larm_region_end("clamp");
  larm_region_begin("sqrt");
  for (int r = 0; r < 10; ++r)
    for (int i = 0; i < 1000; ++i) s += SQRT(a[i] * a[i] + 1);
  larm_region_end("sqrt");
  printf("%g %g %d\n", (double)m, (double)s, k);
  return 0;
}
"""
LEVELS = ("bytes_l2_read", "bytes_l3_read", "bytes_memory_read", "bytes_memory_written")


def run(args, timeout=900):
    return subprocess.run(args, capture_output=True, text=True, timeout=timeout,
                          env=dict(os.environ, OMP_NUM_THREADS="2"))


def compile_program(cc, out, extra=()):
    lib = os.path.join(build, "instrument")
    r = run([cc, "-O2", "-fopenmp", "-march=x86-64-v3", program_c, "-o", out,
             "-I" + os.path.join(source, "include"), "-L" + lib, "-Wl,-rpath," + lib, "-llarm"]
            + list(extra))
    if r.returncode != 0:
        sys.exit(f"{cc}: {r.stderr[-800:]}")
    return out


def regions(path):
    with open(path) as f:
        return {r["name"]: r["machine"] for r in json.load(f)["regions"]}


def levels_against_valgrind(wrapper, compiler):
    """The program through `wrapper` with and without the sampled model, and by `compiler` alone
    under Valgrind: each level's bytes, the timed runs' counts, the pair placed. Returns the
    plugin build without the model and the sampled build."""
    tag = wrapper.replace("larm-", "")
    sampled = compile_program(os.path.join(bindir, wrapper), os.path.join(tmp, "sampled-" + tag),
                              SAMPLE[wrapper])
    plain = compile_program(compiler, os.path.join(tmp, "plain-" + tag))
    plugin = compile_program(os.path.join(bindir, wrapper), os.path.join(tmp, "plugin-" + tag))

    out_s, out_v, out_p = (os.path.join(tmp, d + "-" + tag) for d in ("s", "v", "p"))
    r = run([larm, "count", "--out", out_s, "--repeat", "2", "--cache-model", MODEL, "--", sampled])
    print(r.stdout[-2500:], r.stderr[-1500:])
    check(r.returncode == 0 and "sampled cache model" in r.stdout and "Valgrind" not in r.stderr,
          f"{tag}: the sampled build counted by its own model, no Valgrind (exit {r.returncode})")
    r = run([larm, "count", "--out", out_v, "--repeat", "1", "--cache-model", MODEL, "--", plain])
    check(r.returncode == 0, f"{tag}: the plain build counted under Valgrind (exit {r.returncode})")
    r = run([larm, "count", "--out", out_p, "--repeat", "2", "--", plugin])
    check(r.returncode == 0,
          f"{tag}: the plugin build without the model counted (exit {r.returncode})")
    if checker.failures:
        return plugin, sampled
    counted_s = regions(os.path.join(out_s, "counted", "regions.json"))
    counted_v = regions(os.path.join(out_v, "counted", "regions.json"))
    for name, levels in (("memory triad", LEVELS), ("L2 sum", ("bytes_l2_read",)),
                         ("variadic L2 sum", ("bytes_l2_read",)),
                         ("parallel triad", LEVELS), ("gathered reads", LEVELS),
                         ("zeroed then summed", ("bytes_l3_read", "bytes_memory_read"))):
        for level in levels:
            s = counted_s[name]["counted"].get(level, 0)
            v = counted_v[name]["counted"].get(level, 0)
            message = f"{tag}: {name}: {level} {s:.4g} sampled, {v:.4g} Valgrind (within 15 %)"
            print(message, f"{100 * (s / v - 1) if v else 0:+.1f} %")
            check(v > 0 and abs(s - v) <= 0.15 * v, message)
    l1 = counted_s["L1 sum"]["counted"]
    check(l1.get("bytes_l2_read", 0) <= 0.02 * counted_s["L1 sum"]["bytes"],
          f"{tag}: L1 sum: nothing beyond L1 ({l1.get('bytes_l2_read', 0):.4g} bytes from L2)")
    timed_s = regions(os.path.join(out_s, "timed", "regions.json"))
    timed_p = regions(os.path.join(out_p, "timed", "regions.json"))
    for name in ("memory triad", "L2 sum", "L1 sum", "parallel triad", "gathered reads"):
        check(timed_s[name]["flops"] == timed_p[name]["flops"] and
              timed_s[name]["bytes"] == timed_p[name]["bytes"],
              f"{tag}: {name}: the sampled build's timed runs count as the plugin build's")
    placed = run([larm, "place", os.path.join(source, "results", "reference", "dev-zen5-2vcpu"),
                  os.path.join(out_s, "timed", "regions.json"), "--counts",
                  os.path.join(out_s, "counted", "regions.json")])
    check(placed.returncode == 0 and "memory triad" in placed.stdout,
          f"{tag}: larm place takes the pair (exit {placed.returncode}: {placed.stderr[-300:]})")
    return plugin, sampled


with tempfile.TemporaryDirectory(prefix="larm-sampled-cache-") as tmp:
    program_c = os.path.join(tmp, "levels.c")
    with open(program_c, "w") as f:
        f.write(PROGRAM)
    # Where the build has it, clang's plugin too: its objects count and sample as GCC's.
    pairs = [("larm-cc", "gcc")]
    if os.path.exists(os.path.join(bindir, "larm-clang")) and shutil.which("clang-14"):
        pairs.append(("larm-clang", "clang-14"))
    builds = {wrapper: levels_against_valgrind(wrapper, compiler) for wrapper, compiler in pairs}
    plugin, sampled = builds["larm-cc"]

    # A vectorized reduction's end counted as the tool counts x86's code, width by width: GCC's
    # and clang's (whose code ends on a scalar add); and, without -ffast-math, a min and libm's
    # sqrt as the back end makes them.
    kernels = (("reduction", REDUCTION, ["-ffast-math"], ("dot", "two products")),
               ("limits", LIMITS, [], ("min", "guarded min", "argmin", "clamp", "sqrt")))
    for (wrapper, compiler), precision, (kernel, text, flags, names) in (
            (p, q, k) for p in pairs for q in ("double", "float") for k in kernels):
        kernel_c = os.path.join(tmp, f"{kernel}_{precision}.c")
        with open(kernel_c, "w") as f:
            f.write(text.replace("REAL", precision).replace(
                "SQRT", "sqrt" if precision == "double" else "sqrtf"))
        programs = {}
        for name, cc, extra in (("plugin", os.path.join(bindir, wrapper), []),
                                ("plain", compiler, [])):
            lib = os.path.join(build, "instrument")
            exe = os.path.join(tmp, f"{kernel}_{wrapper}_{precision}_{name}")
            r = run([cc, "-O3", "-march=x86-64-v3", kernel_c, "-o", exe,
                     "-I" + os.path.join(source, "include"), "-L" + lib, "-Wl,-rpath," + lib,
                     "-llarm", "-lm"] + flags + extra)
            check(r.returncode == 0, f"{kernel} {precision} built ({name}): {r.stderr[-300:]}")
            programs[name] = exe
        out_rp = os.path.join(tmp, f"{kernel}{wrapper}{precision}p")
        out_rn = os.path.join(tmp, f"{kernel}{wrapper}{precision}n")
        run([larm, "count", "--out", out_rp, "--repeat", "1", "--", programs["plugin"]])
        run([larm, "count", "--out", out_rn, "--repeat", "1", "--no-cache-model", "--",
             programs["plain"]])
        for region in names:
            try:
                mp = regions(os.path.join(out_rp, "timed", "regions.json"))[region]
                mn = regions(os.path.join(out_rn, "counted", "regions.json"))[region]
                # By width: which multiplies the back end fuses decides the split by kind, which
                # clang's reassociation makes differ from the IR's (the total does not).
                counts = lambda m: {k: v for k, v in m["counted"].items()
                                    if k.startswith("flops_") and v}
                check(counts(mp) == counts(mn) and mp["flops"] == mn["flops"],
                      f"{region} {wrapper} {precision}: FLOPs by width {counts(mp)} == "
                      f"the tool's {counts(mn)}")
            except (OSError, KeyError) as e:
                check(False, f"{region} {wrapper} {precision}: no counts ({e})")

    # Refused before any run, naming the flag of the build's compiler.
    for wrapper, (plugin, sampled) in builds.items():
        r = run([larm, "count", "--out", os.path.join(tmp, "x"), "--cache-model", MODEL, "--",
                 plugin])
        check(r.returncode == 2 and " ".join(SAMPLE[wrapper]) in r.stderr and
              len(r.stderr.strip().splitlines()) == 1 and not os.path.exists(os.path.join(tmp, "x")),
              f"{wrapper}: --cache-model on a build without the sampled model: one line, exit 2 "
              f"({r.stderr.strip()})")
        r = run([larm, "count", "--out", os.path.join(tmp, "y"), "--cache-model",
                 "32768:8:128,4194304:16:128", "--", sampled])
        check(r.returncode == 2 and "64-byte lines" in r.stderr and
              len(r.stderr.strip().splitlines()) == 1,
              f"{wrapper}: 128-byte lines refused for the sampled model: one line, exit 2 "
              f"({r.stderr.strip()})")
        r = run([os.path.join(bindir, wrapper), "-O2", "-c", program_c, "-o",
                 os.path.join(tmp, "bad.o"), "-I" + os.path.join(source, "include")]
                + BAD_SAMPLE[wrapper])
        errors = [line for line in r.stderr.splitlines() if "error" in line]
        check(r.returncode != 0 and errors and "power of two" in errors[0],
              f"{wrapper}: a sample of 48 fails the compilation, its first error saying why "
              f"({errors})")

checker.finish()
