"""Checks the results of `larm characterize --quick` run in the three-node QEMU guest: every
domain x memory pair measured, contention and congestion for every memory, pages verified on
the intended memories, kernels fallen back to AVX2 (TCG has no AVX-512)."""
import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from cli_helpers import Checker  # noqa: E402

results_file, seconds = sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 and sys.argv[2] else -1
c = Checker()
doc = json.load(open(results_file))
print(f"guest run: {seconds} s; isa {doc['provenance']['isa']}; "
      f"{len(doc['roofs'])} roofs, {len(doc['shared'])} machine-wide, "
      f"{len(doc['contention_curve'])} curve points")
c.check(doc["complete"], f"incomplete: {doc['incomplete_reason']}")
c.check(doc["provenance"]["isa"] == "avx2", f"kernels used {doc['provenance']['isa']}, expected avx2")
c.check("avx512" not in doc["provenance"]["usable_isas"], "AVX-512 reported usable under TCG")

memories = [str(m["os_index"]) for m in doc["topology"]["memories"]]
domains = [d["index"] for d in doc["topology"]["domains"]]
c.check(len(memories) == 3 and len(domains) == 2, f"topology {domains} x {memories}")
c.check(any(m["cpuless"] for m in doc["topology"]["memories"]), "no CPU-less memory seen")

# Latency under load: one core per domain here leaves none to inject; each memory's curves
# (from its domain and the nearest other; the CPU-less one from the nearest) absent, said why.
loaded = doc.get("loaded_latency", [])
c.check(len(loaded) == 5 and all(not x["points"] and "has one core" in x["status"] for x in loaded),
        f"loaded-latency curves: {[(x['memory'], x['domain'], x['status']) for x in loaded]}")

roofs = doc["roofs"]
for d in domains:
    for m in memories:
        pair = [r for r in roofs if r["domain"] == d and r["memory"] == m and r["level"] == "memory"
                and r["placement"] in ("local", "remote") and r["samples"]]
        accesses = sorted(r["access"] for r in pair)
        c.check(accesses == sorted(["load", "store", "store-nt", "copy", "2ld1st"]),
                f"domain {d} x memory {m}: accesses {accesses}")
        for r in pair:
            c.check(r["placement_fraction"] is not None and r["placement_fraction"] >= 0.99,
                    f"domain {d} memory {m} {r['access']}: pages {r['placement_fraction']}")
        lat = [p for p in doc["latency"] if p["domain"] == d and p["memory"] == m and p["samples_ns"]]
        huge = [p for p in lat if p.get("pages") != "base"]
        c.check(len(huge) == 1, f"no latency domain {d} memory {m}")
        # The local memories' chase again on base pages (a plain allocation's latency).
        local = any(r["placement"] == "local" for r in pair)
        base = [p for p in lat if p.get("pages") == "base"]
        c.check(len(base) == (1 if local else 0),
                f"domain {d} memory {m} ({'local' if local else 'remote'}): {len(base)} base-page latencies")
    for m in memories:
        cont = [r for r in roofs if r["domain"] == d and r["memory"] == m and r["placement"] == "contention"
                and r["samples"]]
        c.check(len(cont) == 5, f"domain {d}: {len(cont)} contention roofs on memory {m}")
    cong = [r for r in roofs if r["domain"] == d and r["placement"] == "congestion" and r["samples"]]
    c.check(len(cong) == 5, f"domain {d}: {len(cong)} congestion roofs")

for m in memories:
    total = [b for b in doc["shared"] if b["placement"] == "contention" and b["memory"] == m and b["samples"]]
    c.check(len(total) == 5, f"memory {m}: {len(total)} contention totals")
    for b in total:
        c.check(b["placement_fraction"] >= 0.99, f"contention on {m}: pages {b['placement_fraction']}")
    curve = [p for p in doc["contention_curve"] if p["memory"] == m and p["samples"]]
    c.check(len(curve) == 2, f"memory {m}: contention curve has {len(curve)} points")
congestion = [b for b in doc["shared"] if b["placement"] == "congestion" and b["samples"]]
c.check(len(congestion) == 5, "congestion totals missing")
for b in congestion:
    c.check(b["placement_fraction"] >= 0.99, f"congestion pages off the memories: {b['placement_fraction']}")
    c.check(b["interleave_evenness"] >= 0.9, f"congestion pages not spread evenly: {b['interleave_evenness']}")
c.check(not [r for r in roofs if r["status"] == "misplaced"], "misplaced roofs")

# The two one-core domains are twins: domain 0 runs the size sweeps, domain 1 is sized
# from them; both have their own cache roofs and latencies, at the same working sets.
c.check(doc["provenance"].get("twin_domains") == [{"domain": 1, "sized_from": 0}],
        f"twin domains: {doc['provenance'].get('twin_domains')}")
c.check({p["domain"] for p in doc["sweep"]} == {0}, "a twin domain ran its own size sweep")
c.check({p["domain"] for p in doc["latency_sweep"]} == {0}, "a twin domain ran its own chase")
for level in ("L1", "L2"):
    sizes = {r["domain"]: (r["working_set_bytes"] if r["samples"] else "absent") for r in roofs
             if r["level"] == level and r["access"] == "load"}
    c.check(len(sizes) == 2 and sizes[0] == sizes[1],
            f"{level} load roofs of the twins at {sizes}: expected the same working set on both")

# larm validate --quick ran after the characterization, for domain 0's congestion load roof:
# its points (every core of the machine running), pages where they should be.
validation = doc.get("validation", [])
for placement, count in (("congestion", 1),):
    roofs_here = {p["roof"] for p in validation if p["domain"] == 0 and p["placement"] == placement
                  and p["samples"]}
    c.check(len(roofs_here) == count,
            f"domain 0: {len(roofs_here)} {placement} roofs validated, expected {count}")
c.check(all(p["domain"] == 0 and p["placement"] == "congestion" for p in validation),
        "validate --domains 0 --placements congestion validated only those")
for p in validation:
    c.check(p["status"] in ("ok", "unstable"), f"validation {p['domain']} {p['roof']} AI {p['ai']}: {p['status']}")
c.finish()
