#!/usr/bin/env python3
"""larm's AArch64 build under qemu-aarch64: a quick characterization of FLOP ceilings,
bandwidth roofs and latencies at SVE vector lengths of 128, 256, 512 and 2048 bits.

Under QEMU's user mode the timings are the emulator's and mean nothing; what must hold is what the
run says of itself: that it was emulated, the ISA and vector length it ran with (SVE, the widest),
every FLOP ceiling of NEON and SVE, bandwidth roof and latency of the one memory measured (pages on
that memory, enough samples), and the SVE kernels' bytes and FLOPs per iteration following the
vector length (`larm kernels` at each length: a kernel of u vectors moves u x VL bytes). The
kernels' metadata against their disassembly, and their results (checksums, stores, FLOPs), are the
unit and measuring tests' (tests/kernel_metadata_test.cpp, tests/kernel_execution_test.cpp), run
under the same emulator. At 128 and 2048 bits `larm validate --quick` runs SVE's mixed kernels of
known intensity against the cache roofs.

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
    emulator = ["qemu-aarch64", "-L", "/", "-cpu", f"max,sve-default-vector-length={bits // 8}"]
    listing = subprocess.run(emulator + [larm, "kernels"], capture_output=True, text=True,
                             env=env, timeout=300)
    c.check(listing.returncode == 0, f"VL {bits}: larm kernels: exit {listing.returncode}")
    rows = {line.split()[0]: line.split()[1:] for line in listing.stdout.splitlines()[1:]
            if line.strip()}
    vl = bits // 8
    for name, (loaded, stored, flops) in {
            "stream-load-sve-u128": (128 * vl, 0, 0),
            "stream-store-nt-sve-u128": (0, 128 * vl, 0),
            "stream-copy-sve-u64": (64 * vl, 64 * vl, 0),
            "stream-2ld1st-sve-u32": (2 * 32 * vl, 32 * vl, 0),
            "flops-fma-dp-sve-u44": (0, 0, 44 * 2 * vl // 8),
            "flops-add-sp-sve-u44": (0, 0, 44 * vl // 4)}.items():
        row = rows.get(name)
        c.check(row is not None and [int(x) for x in row[:3]] == [loaded, stored, flops],
                f"VL {bits}: {name}: {row!r}, expected {loaded} {stored} {flops}")
    command = emulator + [larm, "characterize", "--quick", "--only", "flops,bandwidth,latency",
                          "--quiet", "--out", out]
    r = subprocess.run(command, capture_output=True, text=True, env=env, timeout=300)
    c.check(r.returncode == 0, f"VL {bits}: exit {r.returncode}: {r.stderr[-2000:]!r}")
    if r.returncode != 0:
        continue
    results = json.load(open(os.path.join(out, "results.json")))
    p = results["provenance"]
    c.check(results["complete"], f"VL {bits}: incomplete: {results.get('incomplete_reason')}")
    c.check_equal(p.get("sve_vector_bits"), bits, f"VL {bits}: provenance sve_vector_bits")
    c.check_equal(p.get("isa"), "sve", f"VL {bits}: the kernels' ISA (the widest)")
    c.check_equal(p.get("usable_isas"), ["neon", "sve"], f"VL {bits}: usable ISAs")
    c.check(p["environment"].get("emulated", "no") != "no",
            f"VL {bits}: environment.emulated says no")
    c.check(any(w.startswith("emulated:") for w in results["warnings"]),
            f"VL {bits}: no warning that the run was emulated: {results['warnings']!r}")

    ceilings = [r for r in results["roofs"] if r["level"] == "flops" and r["status"] != "absent"]
    c.check_equal(sorted((r["isa"], r["access"], r["precision"]) for r in ceilings),
                  sorted((isa, op, precision) for isa in ("neon", "sve")
                         for op in ("add", "mul", "fma", "addmul") for precision in ("dp", "sp")),
                  f"VL {bits}: FLOP ceilings (NEON and SVE: add, mul, fma, addmul x dp, sp)")
    for roof in ceilings:
        c.check(roof["roof"] > 0 and roof["instructions_per_cycle"] > 0 and
                len(roof["samples"]) >= 5,
                f"VL {bits}: {roof['access']} {roof['precision']}: {roof['roof']} GFLOP/s, IPC "
                f"{roof['instructions_per_cycle']}, {len(roof['samples'])} samples")

    memory = [r for r in results["roofs"] if r["level"] == "memory" and r["placement"] == "local"]
    c.check(all(r["isa"] == "sve" for r in memory), f"VL {bits}: memory roofs measured with SVE")
    c.check_equal(sorted(r["access"] for r in memory),
                  sorted(["load", "store", "store-nt", "copy", "2ld1st"]),
                  f"VL {bits}: local memory roofs")
    for roof in memory:
        c.check(roof["status"] != "absent" and roof["roof"] > 0 and len(roof["samples"]) >= 5,
                f"VL {bits}: memory {roof['access']}: {roof['status']} {roof.get('roof')}")
        c.check_equal(roof["placement_fraction"], 1.0, f"VL {bits}: memory {roof['access']} pages")
    # The memory's latency, and again on base pages.
    latencies = [lat for lat in results["latency"] if lat["level"] == "memory"]
    c.check(sorted(lat.get("pages", "huge") for lat in latencies) == ["base", "huge"] and
            all(lat["status"] != "absent" and lat["stats"]["median"] > 0 for lat in latencies),
            f"VL {bits}: memory latency: {latencies!r}")
    # The model's validation at the two ends of SVE's lengths: mixed kernels of known intensity
    # (SVE, the ISA of the roofs) run against the cache roofs. Not the memory roof: without the
    # size sweep its working set is 4 x the declared last-level cache, and its high-intensity
    # points under the emulator take as long as that is large (a host declaring a 480 MiB L3:
    # 1 GiB per thread, over 250 s at 128 bits against 11 s for the three cache roofs).
    # The emulated hwloc knows the caches from sysfs only (the host's cpuid is not the guest's):
    # a host kernel without /sys/devices/system/cpu/cpu0/cache gives it none, and then no cache
    # roof is measured nor validated, which validate says.
    cached = bool(results["topology"]["domains"][0].get("caches"))
    if bits in (128, 2048) and not cached:
        r = subprocess.run(emulator + [larm, "validate", "--quick", "--placements", "cache", out],
                           capture_output=True, text=True, env=env, timeout=900)
        c.check(r.returncode == 0 and "no roof to validate" in r.stdout,
                f"VL {bits}: no cache in the emulated topology (the host gives no sysfs cache "
                f"information): validate says it has no roof: {r.stdout[-300:]!r}")
    if bits in (128, 2048) and cached:
        r = subprocess.run(emulator + [larm, "validate", "--quick", "--quiet", "--placements",
                                       "cache", out],
                           capture_output=True, text=True, env=env, timeout=900)
        c.check(r.returncode == 0, f"VL {bits}: validate: exit {r.returncode}: {r.stderr[-2000:]!r}")
        points = json.load(open(os.path.join(out, "results.json"))).get("validation", [])
        c.check(len(points) >= 3, f"VL {bits}: {len(points)} validation points")
        for point in points:
            c.check(point["kernel"].startswith("mixed-load-fma-dp-sve-") and
                    point["status"] != "absent" and point["ai"] > 0,
                    f"VL {bits}: validation point {point['kernel']}: {point['status']}")
c.finish()
