"""Golden outputs: every command that measures nothing, run on the reference results, the topology
fixtures and a synthetic hybrid samples file, must print (and write) exactly what is stored in
tests/golden/expected/. They pin the behaviour of the commands across refactorings.

    golden_test.py LARM REPO_ROOT

To regenerate after an intended change of output, run it with LARM_REGENERATE_GOLDEN=1 and
review the diff of tests/golden/expected/ before committing; it never regenerates on its own.
Outputs are normalised before comparison: the repository and temporary paths become {REPO} and
{OUT}, and the one timing line ("Fitted in … ms") loses its number.
"""
import glob
import os
import re
import shutil
import subprocess
import sys
import tempfile

larm, repo = sys.argv[1], os.path.abspath(sys.argv[2])
expected_dir = os.path.join(repo, "tests", "golden", "expected")
regenerate = os.environ.get("LARM_REGENERATE_GOLDEN") == "1"
topologies = sorted(glob.glob(os.path.join(repo, "tests", "fixtures", "topologies", "*.xml")))
reference = os.path.join(repo, "results", "reference", "dev-zen5-2vcpu")
samples = os.path.join(repo, "tests", "fixtures", "hybrid-samples-skylake-theta.csv")
four = os.path.join(repo, "tests", "fixtures", "four-domain-hbm")
work = tempfile.mkdtemp(prefix="larm-golden-")


def normalise(text, out):
    text = text.replace(out, "{OUT}").replace(repo, "{REPO}")
    return re.sub(r"Fitted in [0-9.]+ ms", "Fitted in <time> ms", text)


def cases():
    """(name, arguments, files written under the case's output directory to compare)."""
    for path in topologies:
        base = os.path.splitext(os.path.basename(path))[0]
        yield f"topology-{base}", ["topology", "--topology", path], []
        yield f"topology-json-{base}", ["topology", "--json", "--topology", path], []
        yield f"plan-{base}", ["plan", "--topology", path], []
        yield f"plan-quick-verbose-{base}", ["plan", "--quick", "--verbose", "--topology", path], []
    triad = [os.path.join(reference, d) for d in ("regions-triad-firsttouch", "regions-triad-interleave")]
    yield "show-reference", ["show", reference], []
    yield "show-matrix-reference", ["show", reference, "--matrix"], []
    yield "place-reference", ["place", reference, *triad, "--out", "{OUT}/place.json"], ["place.json"]
    yield "place-reference-copy", ["place", reference, triad[0], "--access", "copy"], []
    yield "plot-reference", ["plot", reference, "--regions", ",".join(triad), "--format", "svg",
                             "--out", "{OUT}/plots"], ["plots/*.gp", "plots/*.dat", "plots/figures.json"]
    yield "report-reference", ["report", reference, "--regions", triad[0], "--out", "{OUT}/report"], \
        ["report/report.md"]
    yield "kernels-all", ["kernels", "--all"], []
    yield "hybrid-fit", ["hybrid", "fit", samples], []
    yield "hybrid-fit-json", ["hybrid", "fit", samples, "--json"], []
    yield "hybrid-fit-out", ["hybrid", "fit", samples, "--out", "{OUT}/hybrid.json"], ["hybrid.json"]
    yield "hybrid-predict-ratios", ["hybrid", "predict", samples, "--ratio-fast", "0.3",
                                    "--ratio-read", "0.75", "--bytes", "1000000000"], []
    yield "show-four-domain", ["show", four], []
    yield "show-matrix-four-domain", ["show", four, "--matrix"], []
    yield "place-four-domain", ["place", four, triad[1]], []
    broadwell = os.path.join(repo, "tests", "fixtures", "broadwell-table42")
    yield "advise-broadwell", ["advise", broadwell, os.path.join(broadwell, "regions-bind0.json"),
                               "--cross-validate", "--out", "{OUT}/advice.json"], ["advice.json"]
    yield "advise-reference", ["advise", reference, triad[0], "--out", "{OUT}/advice.json"], []
    yield "plot-four-domain", ["plot", four, "--regions", triad[0], "--format", "svg", "--out",
                               "{OUT}/plots"], ["plots/*.gp", "plots/*.dat", "plots/figures.json"]
    yield "report-four-domain", ["report", four, "--out", "{OUT}/report"], ["report/report.md"]
    yield "hybrid-fit-stored", ["hybrid", "fit", os.path.join(four, "hybrid.json")], []
    yield "hybrid-predict-stored", ["hybrid", "predict", os.path.join(four, "hybrid.json"),
                                    "--ratio-fast", "0.6", "--ratio-read", "0.5", "--json"], []
    yield "hybrid-predict-q-json", ["hybrid", "predict", samples, "--q", "1e8,2e8,3e8,4e8", "--json"], []


def run_case(name, arguments, files):
    out = os.path.join(work, name)
    os.makedirs(out)
    argv = [larm] + [a.replace("{OUT}", out) for a in arguments]
    result = subprocess.run(argv, capture_output=True, text=True, timeout=300,
                            # Wide enough that no line wraps at a path, whose length is the
                            # checkout's (outputs wrap prose at COLUMNS).
                            env=dict(os.environ, LC_ALL="C", COLUMNS="200"))
    produced = {f"{name}.out": f"exit {result.returncode}\n--- stdout\n{result.stdout}"
                                f"--- stderr\n{result.stderr}"}
    for pattern in files:
        matches = sorted(glob.glob(os.path.join(out, pattern)))
        if not matches:
            produced[f"{name}--{pattern.replace('/', '--')}"] = "(no file written)\n"
        for path in matches:
            relative = os.path.relpath(path, out).replace("/", "--")
            with open(path, errors="replace") as f:
                produced[f"{name}--{relative}"] = f.read()
    return {k: normalise(v, out) for k, v in produced.items()}


failures = []
seen = set()
if regenerate:
    shutil.rmtree(expected_dir, ignore_errors=True)
    os.makedirs(expected_dir)
for name, arguments, files in cases():
    for file_name, text in run_case(name, arguments, files).items():
        seen.add(file_name)
        path = os.path.join(expected_dir, file_name)
        if regenerate:
            with open(path, "w") as f:
                f.write(text)
            continue
        if not os.path.exists(path):
            failures.append(f"{file_name}: no golden file (regenerate with LARM_REGENERATE_GOLDEN=1)")
            continue
        with open(path) as f:
            golden = f.read()
        if golden != text:
            got = os.path.join(work, "got-" + file_name)
            with open(got, "w") as f:
                f.write(text)
            failures.append(f"{file_name}: differs (diff -u {path} {got})")
stale = sorted(set(os.listdir(expected_dir)) - seen) if os.path.isdir(expected_dir) else []
failures += [f"{s}: golden file no case produces" for s in stale]

if regenerate:
    print(f"regenerated {len(seen)} golden files in {expected_dir}")
    sys.exit(0)
for f in failures:
    print("FAIL", f)
print(f"{len(seen) - len([f for f in failures if 'differs' in f or 'no golden' in f])} passed, "
      f"{len(failures)} failed")
sys.exit(1 if failures else 0)
