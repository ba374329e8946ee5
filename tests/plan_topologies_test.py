"""larm plan --topology on every hwloc XML of ../shared/topologies: domains, memories,
remote/contention/congestion entries, counts, and the estimate (the default plan of each at most
120 s)."""
import glob
import os
import re
import sys

from cli_helpers import Checker, run

larm, topologies = sys.argv[1], sys.argv[2]
c = Checker()
files = sorted(glob.glob(os.path.join(topologies, "*.xml")))
c.check(len(files) >= 8, f"expected the shared topologies, found {len(files)}")

for path in files:
    name = os.path.basename(path)
    topo = run(larm, "topology", "--json", "--topology", path)
    c.check(topo.returncode == 0, f"{name}: topology --json failed: {topo.stderr}")
    import json
    t = json.loads(topo.stdout)
    domains, memories = len(t["domains"]), len(t["memories"])

    r = run(larm, "plan", "--verbose", "--topology", path, env={"COLUMNS": "200"})
    c.check(r.returncode == 0, f"{name}: plan failed: {r.stderr}")
    lines = r.stdout.splitlines()
    head = [l for l in lines if l.startswith("Plan for")]
    isa_line = [l for l in lines if l.startswith("  kernels ")]
    c.check(len(isa_line) == 1, f"{name}: no kernels line")
    isas = re.search(r"FLOP ceilings of ([a-z0-9, ]+)", isa_line[0]).group(1).split(", ") \
        if isa_line else []
    if "Opteron(tm) Processor 865" in r.stdout:
        c.check(isas == ["sse2"], f"{name}: the K8's ceilings {isas}")
    def counted(n, one, many):
        return f"{n} {one if n == 1 else many}"
    c.check(len(head) == 1 and f"{counted(domains, 'domain', 'domains')}, "
                               f"{counted(memories, 'memory', 'memories')}" in head[0],
            f"{name}: header {head}")
    for d in range(domains):
        local = [l for l in lines if re.search(rf"^\s*bandwidth domain {d} memory \d+ local load ", l)]
        remote = [l for l in lines if re.search(rf"^\s*bandwidth domain {d} memory \d+ remote load ", l)]
        shared = [l for l in lines if re.search(rf"^\s*bandwidth domain {d} memory (contention|congestion) load ", l)]
        if memories > 1:
            c.check(not shared, f"{name}: domain {d} has per-domain shared entries")
        nlocal = len(t["domains"][d]["local_memories"])
        c.check(len(local) == nlocal, f"{name}: domain {d} has {len(local)} local load roofs, expected {nlocal}")
        c.check(len(remote) == memories - nlocal,
                f"{name}: domain {d} has {len(remote)} remote load roofs, expected {memories - nlocal}")
        if memories == 1:
            c.check(len(shared) == 2 and all("absent: single NUMA node" in l for l in shared),
                    f"{name}: single node contention/congestion not absent with reason")
        # add, mul, fma and addmul in sp and dp per ISA the plan names: the file's CPU's where its
        # family says which it has (the Opteron 865: SSE2 alone), else the 4 this build generates.
        fl = [l for l in lines if re.search(rf"^\s*flops domain {d} ", l)]
        c.check(len(fl) == 8 * len(isas), f"{name}: domain {d} has {len(fl)} FLOP entries, "
                f"expected 8 for each of {isas}")
    if memories > 1:
        contention = [l for l in lines if re.search(r"^\s*bandwidth machine memory \d+ contention load ", l)]
        congestion = [l for l in lines if re.search(r"^\s*bandwidth machine memory congestion load ", l)]
        curve = [l for l in lines if re.search(r"^\s*curve machine memory \d+ contention ", l)]
        cores = sum(len(x["core_pus"]) for x in t["domains"])
        c.check(len(contention) == memories, f"{name}: {len(contention)} contention load entries")
        c.check(len(congestion) == 1, f"{name}: {len(congestion)} congestion load entries")
        c.check(all(f"threads {cores:3d}" in l for l in contention + congestion),
                f"{name}: machine-wide runs do not use every core")
        c.check(len(curve) >= memories, f"{name}: contention curves missing")
    total = [l for l in lines if "measurements to run" in l]
    m = re.search(r"(\d+) measurements to run, (\d+) absent.*estimated (\d+) s", total[0] if total else "")
    c.check(m is not None, f"{name}: no total line")
    if m:
        entries = [l for l in lines if re.match(r"^\s+(frequency|capacity|bandwidth|flops|sweep|latency|curve|loaded) (domain|machine)", l)]
        c.check(int(m.group(1)) + int(m.group(2)) == len(entries), f"{name}: counts do not add up")
        c.check(int(m.group(3)) > 0, f"{name}: zero estimate")
        # The default characterization of any node of these files fits in 2 minutes.
        c.check(int(m.group(3)) <= 120, f"{name}: the default plan is estimated at "
                                        f"{m.group(3)} s, past 120 s")
    quick = run(larm, "plan", "--quick", "--topology", path)
    qm = re.search(r"estimated (\d+) s", quick.stdout)
    c.check(qm is not None and m is not None and int(qm.group(1)) <= int(m.group(3)),
            f"{name}: quick not shorter")
    print(f"{name}: {total[0] if total else '?'} | quick: {qm.group(0) if qm else '?'}")

# The sizing target: a 2-socket, 4-domain, 64-core node (hwloc synthetic topology, exported
# to XML by lstopo) is planned at <= 15 minutes by default and <= 3 minutes with --quick.
import shutil
import subprocess
import tempfile
lstopo = shutil.which("lstopo-no-graphics")
if lstopo is None:
    print("lstopo-no-graphics not found: 64-core sizing check not run")
else:
    xml = os.path.join(tempfile.mkdtemp(prefix="larm-synthetic-"), "2s4d64c.xml")
    subprocess.run([lstopo, "--input", "package:2 group:2 [numa(memory=34359738368)] "
                    "l3:1(size=33554432) l2:16(size=1048576) l1d:1(size=49152) core:1 pu:2",
                    "--of", "xml", xml], check=True)
    estimates = {}
    for mode in ("default", "quick"):
        r = run(larm, "plan", "--topology", xml, *(["--quick"] if mode == "quick" else []),
                env={"COLUMNS": "200"})
        c.check("4 domains, 4 memories, 64 cores" in r.stdout, f"synthetic node: {r.stdout[:200]}")
        m = re.search(r"estimated (\d+) s", r.stdout)
        estimates[mode] = int(m.group(1)) if m else None
    print(f"2-socket 4-domain 64-core synthetic node: estimated {estimates['default']} s, quick {estimates['quick']} s")
    c.check(estimates["default"] is not None and estimates["default"] <= 15 * 60, "default plan over 15 minutes")
    c.check(estimates["quick"] is not None and estimates["quick"] <= 3 * 60, "quick plan over 3 minutes")
c.finish()
