"""What the placement scripts share: the bound between near and far CPUs, the
independent ping-pong probe, and the placement state a results file says a roof was measured in.
Imported by scripts/placement_states.py, scripts/interval_coverage.py and
scripts/compare_likwid.py (Python puts a script's own directory on its path)."""
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
FAR_NS = 100.0  # characterize/placement_probe.h, kApartNs: over it, two CPUs share no cache


def far(state):
    """Whether a state larm names is the far one ("far: CPUs 0-1 ...")."""
    return state.startswith("far")


ONE_CORE_RATIO = 0.75  # characterize/placement_probe.h, kOneCoreRatio: under it, one core


def ping_pong(work, sharing=False):
    """Builds scripts/probes/ping_pong.c into work; returns (cpus, ping), ping() the one-way
    latency in ns between the first two CPUs this process may use; with sharing, ping() returns
    their state instead: "far" (over FAR_NS), "one core" (together under ONE_CORE_RATIO of their
    throughput alone) or "near"."""
    os.makedirs(work, exist_ok=True)
    probe = os.path.join(work, "ping_pong")
    subprocess.run(["cc", "-O2", "-pthread", "-o", probe,
                    os.path.join(HERE, "probes", "ping_pong.c")], check=True)
    cpus = sorted(os.sched_getaffinity(0))[:2]
    if len(cpus) < 2:
        sys.exit(f"{os.path.basename(sys.argv[0])}: needs two CPUs")

    def ping():
        out = subprocess.run([probe, str(cpus[0]), str(cpus[1]), *(["--sharing"] if sharing else [])],
                             capture_output=True, text=True, check=True)
        if not sharing:
            return float(out.stdout.strip())
        ns, ratio = (float(x) for x in out.stdout.split())
        return "far" if ns > FAR_NS else "one core" if ratio < ONE_CORE_RATIO else "near"
    return cpus, ping


def state_word(state):
    """A state larm names ("near", "far: CPUs 0-1", "one core: CPUs 0-1") as the probe's word."""
    return "far" if far(state) else "one core" if state.startswith("one core") else "near"


def roof_state(doc, roof):
    """The placement state a roof's value was measured in: its by_state model entry, else the
    run's one state; None when the run saw several and the roof was not split."""
    model = [s["state"] for s in roof.get("by_state", []) if s.get("model")]
    states = [s["state"] for s in doc["provenance"].get("placement_states", [])]
    return model[0] if model else (states[0] if len(states) == 1 else None)
