"""larm's GCC plugin in the AArch64 cross build: a program built through the cross larm-cc for
NEON and for SVE counts its own FLOPs, run under qemu-aarch64 at SVE vector lengths of 128, 512
and 2048 bits; liblarm (the AArch64 one) reads them into regions.json.

  aarch64_plugin_test.py BUILD_DIR SOURCE_DIR

Expected: every region's FLOPs the same in every run, NEON's and SVE's at each length, and the
program's own (2 per element for the multiply-add, 2 for the dot product, 3 adds and a multiply per
point for the Gauss-Seidel-like stencil; each repetition depends on the one before, so that none is optimized away); SVE's FLOPs in the scalable (512-bit) bucket; counted_by compiler. The
sizes are multiples of 32 lanes: a predicated last iteration counts its full width. The
counts per function (larm profile's: the AArch64 larm_plugin_runtime.so preloaded) give main
the regions' FLOPs and the initialization's 4,096 divisions, in every run."""
import json
import os
import subprocess
import sys
import tempfile

from cli_helpers import Checker

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "bench"))
import compare_counts  # noqa: E402  (the reader of the counts per function)

build, source = sys.argv[1], sys.argv[2]
checker = Checker()
check = checker.check


PROGRAM = r"""
#include <larm/region.h>
#include <stdio.h>
#include <stdlib.h>
enum { N = 4096, REPS = 20 };
static double a[N], b[N], c[N];
int main(void) {
  for (int i = 0; i < N; ++i) { b[i] = i; c[i] = 1.0 / (i + 1); }
  larm_region_begin("triad");
  for (int r = 0; r < REPS; ++r)
    for (int i = 0; i < N; ++i) a[i] = a[i] + 3.0 * c[i];
  larm_region_end("triad");
  double s = 0;
  larm_region_begin("dot");
  for (int r = 0; r < REPS; ++r)
    for (int i = 0; i < N; ++i) s += a[i] * b[i];
  larm_region_end("dot");
  larm_region_begin("stencil");
  for (int r = 0; r < REPS; ++r)
    for (int i = 32; i < N - 32; ++i) c[i] = 0.25 * (c[i - 1] + c[i + 1]) + a[i] + b[i + 32];
  larm_region_end("stencil");
  printf("%g %g\n", s, c[N / 2]);
  return larm_finalize() == 0 ? 0 : 1;
}
"""
EXPECTED = {"triad": 2 * 4096 * 20, "dot": 2 * 4096 * 20, "stencil": 4 * (4096 - 64) * 20}
MAIN_FLOPS = sum(EXPECTED.values()) + 4096


def function_flops(directory):
    """FLOPs per function symbol in larm_plugin_runtime.so's file(s)."""
    return {symbol: m["flops"] for symbol, m in compare_counts.functions(directory).items()}

wrapper = os.path.join(build, "bin", "larm-cc")
if not os.path.exists(wrapper):
    print("no larm-cc in the AArch64 build (gcc-12-plugin-dev-aarch64-linux-gnu missing?)")
    sys.exit(1)
lib = os.path.join(build, "instrument")
reader = os.path.join(build, "lib", "larm", "larm_plugin_runtime.so")
with tempfile.TemporaryDirectory(prefix="larm-aarch64-plugin-") as tmp:
    program_c = os.path.join(tmp, "vectors.c")
    open(program_c, "w").write(PROGRAM)
    runs = {}
    for isa, march in (("neon", "armv8-a"), ("sve", "armv8.2-a+sve")):
        program = os.path.join(tmp, "vectors_" + isa)
        r = subprocess.run([wrapper, "-O3", "-march=" + march, program_c, "-o", program,
                            "-I" + os.path.join(source, "include"), "-L" + lib, "-llarm"],
                           capture_output=True, text=True, timeout=300)
        check(r.returncode == 0, f"{isa}: built through the cross larm-cc ({r.stderr[-300:]})")
        if r.returncode != 0:
            continue
        for bits in ((128,) if isa == "neon" else (128, 512, 2048)):
            out = os.path.join(tmp, f"{isa}-{bits}")
            functions = os.path.join(tmp, f"functions-{isa}-{bits}")
            os.makedirs(functions)
            r = subprocess.run(["qemu-aarch64", "-L", "/", "-cpu",
                                f"max,sve-default-vector-length={bits // 8}",
                                "-E", "LD_PRELOAD=" + reader, "-E", "LARM_FUNCTIONS_DIR=" + functions,
                                program],
                               capture_output=True, text=True, timeout=300,
                               env=dict(os.environ, LARM_OUT=out, LD_LIBRARY_PATH=lib))
            check(r.returncode == 0, f"{isa} at {bits} bits: ran ({r.stderr[-300:]})")
            if r.returncode != 0:
                continue
            doc = json.load(open(os.path.join(out, "regions.json")))
            check(doc["counters"].get("counted_by") == "compiler",
                  f"{isa} at {bits} bits: counted_by compiler ({doc['counters'].get('reason')})")
            runs[(isa, bits)] = {reg["name"]: reg["machine"] for reg in doc["regions"]}
            per_function = function_flops(functions)
            check(per_function.get("main") == MAIN_FLOPS,
                  f"{isa} at {bits} bits: main's own counts {per_function}, expected {MAIN_FLOPS}")
    for (isa, bits), regions in runs.items():
        for name, expected in EXPECTED.items():
            m = regions.get(name, {})
            check(m.get("flops") == expected,
                  f"{isa} at {bits} bits: {name} {m.get('flops')} FLOPs, expected {expected}")
        if isa == "sve":
            triad = regions.get("triad", {}).get("counted", {})
            check(triad.get("flops_dp_512", 0) == EXPECTED["triad"],
                  f"sve at {bits} bits: the triad's FLOPs in the scalable bucket: {triad}")
    # The sampled cache model on AArch64 (cache-sample=64): the scalar stencil's lines go through the
    # runtime's model; SVE's scalable accesses are not sampled (their size is known at run time).
    program = os.path.join(tmp, "vectors_sampled")
    r = subprocess.run([wrapper, "-O3", "-march=armv8.2-a+sve", program_c, "-o", program,
                        "-fplugin-arg-larm_gcc_plugin-cache-sample=64",
                        "-I" + os.path.join(source, "include"), "-L" + lib, "-llarm"],
                       capture_output=True, text=True, timeout=300)
    check(r.returncode == 0, f"sampled: built through the cross larm-cc ({r.stderr[-300:]})")
    if r.returncode == 0:
        out = os.path.join(tmp, "sampled")
        r = subprocess.run(["qemu-aarch64", "-L", "/", "-cpu", "max,sve-default-vector-length=64",
                            "-E", "LD_PRELOAD=" + reader, program], capture_output=True, text=True,
                           timeout=300,
                           env=dict(os.environ, LARM_OUT=out, LD_LIBRARY_PATH=lib,
                                    LARM_CACHE_MODEL="32768:8:64,524288:8:64,4194304:16:64",
                                    LARM_CACHE_SAMPLE="64"))
        check(r.returncode == 0, f"sampled: ran ({r.stderr[-300:]})")
        if r.returncode == 0:
            doc = json.load(open(os.path.join(out, "regions.json")))
            stencil = {reg["name"]: reg["machine"] for reg in doc["regions"]}.get("stencil", {})
            counted = stencil.get("counted", {})
            check(doc["run"] == "counted" and counted.get("cache_accesses", 0) > 0 and
                  counted.get("bytes_l2_read", 0) > 0 and
                  stencil.get("flops") == EXPECTED["stencil"],
                  f"sampled: the stencil's lines modelled, its FLOPs the same ({counted})")
checker.finish()
