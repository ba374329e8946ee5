#!/usr/bin/env python3
"""larm's AArch64 build under qemu-aarch64 (issue 31): a quick characterization of FLOP ceilings,
bandwidth roofs and latencies at SVE vector lengths of 128, 256, 512 and 2048 bits.

Under QEMU's user mode the timings are the emulator's and mean nothing; what must hold is what the
run says of itself: that it was emulated, the ISA and vector length it ran with, every FLOP
ceiling, bandwidth roof and latency of the one memory measured (pages on that memory, enough
samples). The kernels' bytes and FLOPs per iteration against their disassembly, and their results
(checksums, stores, FLOPs), are the unit and measuring tests' (tests/kernel_metadata_test.cpp,
tests/kernel_execution_test.cpp), run under the same emulator.

    tests/aarch64_emulated_test.py build/aarch64/tools/larm
"""
import json
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from cli_helpers import Checker  # noqa: E402

larm = sys.argv[1]
c = Checker()
work = tempfile.mkdtemp(prefix="larm-aarch64-")
env = dict(os.environ, LARM_HISTORY="off")
for bits in (128, 256, 512, 2048):
    out = os.path.join(work, f"vl{bits}")
    # The multiarch arm64 runtime, as the toolchain file's emulator (cmake/toolchains/).
    command = ["qemu-aarch64", "-L", "/", "-cpu", f"max,sve-default-vector-length={bits // 8}",
               larm, "characterize", "--quick", "--only", "flops,bandwidth,latency", "--quiet",
               "--out", out]
    r = subprocess.run(command, capture_output=True, text=True, env=env, timeout=300)
    c.check(r.returncode == 0, f"VL {bits}: exit {r.returncode}: {r.stderr[-2000:]!r}")
    if r.returncode != 0:
        continue
    results = json.load(open(os.path.join(out, "results.json")))
    p = results["provenance"]
    c.check(results["complete"], f"VL {bits}: incomplete: {results.get('incomplete_reason')}")
    c.check_equal(p.get("sve_vector_bits"), bits, f"VL {bits}: provenance sve_vector_bits")
    c.check_equal(p.get("isa"), "neon", f"VL {bits}: the kernels' ISA")
    c.check("neon" in p.get("usable_isas", []), f"VL {bits}: neon usable")
    c.check(p["environment"].get("emulated", "no") != "no",
            f"VL {bits}: environment.emulated says no")
    c.check(any(w.startswith("emulated:") for w in results["warnings"]),
            f"VL {bits}: no warning that the run was emulated: {results['warnings']!r}")

    ceilings = [r for r in results["roofs"] if r["level"] == "flops" and r["status"] != "absent"]
    c.check_equal(len(ceilings), 6, f"VL {bits}: NEON FLOP ceilings (add, mul, fma x dp, sp)")
    for roof in ceilings:
        c.check(roof["roof"] > 0 and roof["instructions_per_cycle"] > 0 and
                roof["isa"] == "neon" and len(roof["samples"]) >= 5,
                f"VL {bits}: {roof['access']} {roof['precision']}: {roof['roof']} GFLOP/s, IPC "
                f"{roof['instructions_per_cycle']}, {len(roof['samples'])} samples")

    memory = [r for r in results["roofs"] if r["level"] == "memory" and r["placement"] == "local"]
    c.check_equal(sorted(r["access"] for r in memory),
                  sorted(["load", "store", "store-nt", "copy", "2ld1st"]),
                  f"VL {bits}: local memory roofs")
    for roof in memory:
        c.check(roof["status"] != "absent" and roof["roof"] > 0 and len(roof["samples"]) >= 5,
                f"VL {bits}: memory {roof['access']}: {roof['status']} {roof.get('roof')}")
        c.check_equal(roof["placement_fraction"], 1.0, f"VL {bits}: memory {roof['access']} pages")
    latencies = [lat for lat in results["latency"] if lat["level"] == "memory"]
    c.check(len(latencies) == 1 and latencies[0]["status"] != "absent" and
            latencies[0]["stats"]["median"] > 0, f"VL {bits}: memory latency: {latencies!r}")
c.finish()
