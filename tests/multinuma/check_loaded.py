"""Checks the loaded-latency curves the multi-NUMA guest measured from domain 0 with the other
domain's core injecting (--machine): one curve for the local memory and one for the remote one,
each with its idle point first (no injection) and the delays asked, its chase percentiles ordered
and its pages placed. The guest's timings (TCG) mean nothing: the idle latencies are printed
beside the results' latency roofs, not compared.
    check_loaded.py CURVES_JSON RESULTS_JSON"""
import json
import sys

curves = json.load(open(sys.argv[1]))
results = json.load(open(sys.argv[2]))
failures = 0


def check(condition, message):
    global failures
    if not condition:
        failures += 1
        print(f"FAIL: loaded latency: {message}", file=sys.stderr)


# Memories are written by OS index as text, as in results.json.
check(sorted(c["memory"] for c in curves) == ["0", "1"], f"memories {[c['memory'] for c in curves]}")
check(all(c["local"] == (c["memory"] == "0") for c in curves), "local and remote said")
roofs = {(l["domain"], l["memory"]): l["stats"]["median"] for l in results.get("latency", [])
         if l["level"] == "memory" and l.get("samples_ns")}
for c in curves:
    what = f"memory {c['memory']}"
    check(c["domain"] == 0 and c["mix"] == "1" and len(c["injector_pus"]) == 1, f"{what}: {c}")
    check([p["delay"] for p in c["points"]] == [None, 1024, 64, 0], f"{what}: points")
    check(c["points"][0]["injector_gbps"] == 0, f"{what}: the idle point injected")
    check(all(0 < p["p10_ns"] <= p["p50_ns"] <= p["p90_ns"] for p in c["points"]),
          f"{what}: percentiles")
    check(c["points"][-1]["injector_gbps"] > 0, f"{what}: no injection at delay 0")
    check(c["chain_placement"] == 1 and c["injector_placement"] == 1, f"{what}: placement")
    roof = roofs.get((0, c["memory"]))
    print(f"loaded latency {what} ({'local' if c['local'] else 'remote'}): idle "
          f"{c['idle_ns']:.0f} ns (latency roof {roof if roof is None else round(roof)} ns), "
          f"saturation {c['saturation_gbps']:.2f} GB/s, knee {c['knee_gbps']}")
sys.exit(1 if failures else 0)
