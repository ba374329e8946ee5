"""Bad input gets one clear line on stderr, exit status 2, and nothing written."""
import json
import os
import sys
import tempfile

from cli_helpers import Checker, run

larm = sys.argv[1]
c = Checker()
tmp = tempfile.mkdtemp(prefix="larm-cli-")
fresh = os.path.join(tmp, "never-created")
reference = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "results",
                         "reference", "dev-zen5-2vcpu")
triad = os.path.join(reference, "regions-triad-firsttouch", "regions.json")
# A place.json and a regions.json of another schema version, and the bare list earlier larms wrote.
placed = run(larm, "place", reference, triad, "--out", os.path.join(tmp, "place.json"))
assert placed.returncode == 0, placed.stderr
doc = json.load(open(os.path.join(tmp, "place.json")))
doc["schema_version"] = "2.0"
json.dump(doc, open(os.path.join(tmp, "place-v2.json"), "w"))
json.dump(doc["regions"], open(os.path.join(tmp, "place-list.json"), "w"))
regions = json.load(open(triad))
regions["schema_version"] = "2.0"
json.dump(regions, open(os.path.join(tmp, "regions-v2.json"), "w"))

# The commands larm --help lists.
commands = {line.split()[0] for line in run(larm, "--help").stdout.splitlines()
            if line.startswith("  ") and not line.strip().startswith("-") and
            len(line.split()) > 1 and line[2] != " "}

cases = [
    (["frobnicate"], {}, "unknown command 'frobnicate'"),
    (["frobnicate", "--help"], {}, "unknown command 'frobnicate'"),  # not the main help, exit 0
    (["hybrid", "frobnicate", "--help"], {}, "unknown command 'frobnicate' of larm hybrid"),
    (["shwo"], {}, "unknown command 'shwo': did you mean 'show'?"),
    (["hybrid", "swep"], {}, "unknown command 'swep' of larm hybrid: did you mean 'sweep'?"),
    (["show", "--matirx", "x"], {}, "unknown option '--matirx' of larm show: did you mean '--matrix'?"),
    (["profile", "--topp", "3", "--", "ls"], {}, "did you mean '--top'?"),
    (["characterize", "--bogus"], {}, "bogus"),
    (["characterize", "--out", fresh, "--domains", "0,x"], {}, "domain"),
    (["characterize", "--out", fresh, "--domains", "7"], {}, "does not exist"),
    (["characterize", "--out", fresh, "--domains", "1-0"], {}, "range"),
    (["characterize", "--out", fresh, "--domains", ","], {}, "empty"),
    (["characterize", "--out", fresh, "--samples", "0"], {}, "samples"),
    (["characterize", "--out", fresh, "--samples", "many"], {}, "samples"),
    (["characterize", "--out", fresh, "--sample-ms", "0"], {}, "sample-ms"),
    (["characterize", "--out", fresh, "--sample-ms", "nan"], {}, "sample-ms"),
    (["characterize", "--out", fresh, "--isa", "avx1024"], {}, "unknown ISA"),
    (["characterize", "--out", fresh, "--isa", "avx512"], {"LARM_MAX_ISA": "sse2"}, "avx512"),
    (["characterize", "--out", fresh], {"LARM_MAX_ISA": "mmx"}, "LARM_MAX_ISA"),
    (["characterize", "--out", fresh, "--only", "bandwidth,foo"], {}, "foo"),
    (["characterize", "--out", "/proc/larm-cannot-write-here"], {}, "output directory"),
    (["characterize", "--out", fresh, "--topology", "x.xml"], {}, "unknown option '--topology'"),
    (["place", "--topology", "x.xml", "a", "b"], {}, "unknown option '--topology'"),
    (["show", "-q", "x"], {}, "unknown option '-q'"),
    (["count", "--", "/bin/true"], {"PATH": "/nonexistent"}, "apt install valgrind"),
    (["plan", "--topology", "/nonexistent/topology.xml"], {}, "not found"),
    (["plan", "--isa", "avx3"], {}, "unknown ISA"),
    (["show", "/nonexistent/results"], {}, "cannot read"),
    (["kernels", "--dump", "no-such-kernel", tmp], {}, "no kernel named"),
    (["place", "/nonexistent/results", "regions.json"], {}, "cannot read"),
    (["place"], {}, "missing RESULTS: results directory"),
    (["place", "--results", reference], {}, "missing REGIONS"),
    (["show"], {}, "missing RESULTS"),
    (["validate", "--placements", "cache", "/nonexistent/results"], {}, "cannot read"),
    (["diff", reference], {}, "missing AFTER"),
    (["plot", "-r", reference, reference], {}, "two results directories"),
    (["bench", "-t", "loadx", "-w", "0:1M"], {}, "-t 'loadx': not a test"),
    (["bench", "--access", "load", "-t", "load", "-w", "0:1M"], {}, "excludes"),
    (["bench", "-w", "0:1M", "--working-set", "1M"], {}, "excludes"),
    (["bench", "-w", "0"], {}, "not DOMAIN:SIZE[:THREADS]"),
    (["bench"], {}, "give the working set"),
    # The option as typed, the value's problem in words.
    (["plot", "-o", "", "-r", reference], {}, "-o: empty value"),
    (["report", "-r", reference, "-o"], {}, "-o needs a value"),
    (["bench", "-w", "0:1M", "--threads", "abc"], {}, "--threads: 'abc' is not a whole number"),
    (["plot", reference, "--placements", os.path.join(tmp, "place-v2.json"), "--out", fresh], {},
     "unsupported place schema_version '2.0'"),
    (["report", reference, "--placements", os.path.join(tmp, "place-list.json"), "--out", fresh],
     {}, "not a larm place file"),
    (["advise", reference, triad, "--placements", os.path.join(tmp, "place-v2.json"), "--out",
      fresh], {}, "place-v2.json"),
    (["place", reference, os.path.join(tmp, "regions-v2.json"), "--out", fresh], {},
     "regions-v2.json"),
    (["plot", reference, "--placements", os.path.join(tmp, "place.json"), "--regions", triad,
      "--out", fresh], {}, "not both"),
    (["count", "--out", fresh, "--repeat", "0", "--", "true"], {}, "repeat"),
    (["count", "--out", fresh, "--cache-model", "1:2", "--", "true"], {}, "cache-model"),
    (["count", "--out", fresh, "--cache-model", "32768:8:64,1048576:16:128", "--", "true"], {},
     "line size"),
    (["count", "--out", fresh, "--cache-model", "32768:99:64", "--", "true"], {}, "ways"),
    (["count", "--out", fresh, "--cache-model", "32768:8:64", "--no-cache-model", "--", "true"],
     {}, "exclude"),
    (["count", "--out", fresh, "--results", "/nonexistent/results", "--", "true"], {},
     "cannot read"),
]
for args, env, expected in cases:
    r = run(larm, *args, env=env)
    lines = r.stderr.strip().splitlines()
    what = " ".join(args) + (f" with {env}" if env else "")
    c.check(r.returncode == 2, f"{what}: exit {r.returncode}, expected 2")
    c.check(len(lines) == 1 and lines[0].startswith("larm: error:"),
            f"{what}: stderr is not one 'larm: error:' line: {r.stderr!r}")
    c.check(expected.lower() in r.stderr.lower(), f"{what}: stderr does not mention {expected!r}")
    c.check("error: larm " not in r.stderr, f"{what}: the command named twice: {r.stderr!r}")
    # The help of the command the error belongs to, where its options are described ("larm
    # hybrid swep" belongs to larm hybrid, an unknown command to larm).
    named = [a for a in args[:2] if not a.startswith("-") and a in commands]
    help_of = f"larm {named[0]}" if named else "larm"
    if "mmx" not in env.get("LARM_MAX_ISA", ""):
        c.check(lines and lines[-1].endswith(f"(see {help_of} --help)"),
                f"{what}: the error does not point to {help_of} --help: {r.stderr!r}")
    c.check(r.stdout == "", f"{what}: wrote to stdout: {r.stdout!r}")
    c.check(not os.path.exists(fresh), f"{what}: created {fresh}")

# The results directory, one spelling in every command: --results (-r) reads what the first
# argument reads.
for flag in ("--results", "-r"):
    by_option = run(larm, "place", flag, reference, triad)
    by_position = run(larm, "place", reference, triad)
    c.check(by_option.returncode == 0 and by_option.stdout == by_position.stdout,
            f"place {flag} R REGIONS differs from place R REGIONS: {by_option.stderr!r}")
by_option = run(larm, "show", "--results", reference)
c.check(by_option.returncode == 0 and by_option.stdout == run(larm, "show", reference).stdout,
        f"show --results R differs from show R: {by_option.stderr!r}")

# An existing results directory is never overwritten.
existing = os.path.join(tmp, "existing")
os.makedirs(existing)
with open(os.path.join(existing, "results.json"), "w") as f:
    f.write("{}")
r = run(larm, "characterize", "--out", existing)
c.check(r.returncode == 2 and "already exist" in r.stderr, f"existing results: {r.stderr!r}")

for args in (["--help"], ["characterize", "--help"], ["plan", "--help"], ["show", "--help"],
             ["topology", "--help"], ["kernels", "--help"]):
    r = run(larm, *args)
    c.check(r.returncode == 0 and "Options" in r.stdout, f"{' '.join(args)}: exit {r.returncode}")
r = run(larm, "characterize", "--help")
for option in ("--quick", "--out", "--isa", "--domains", "--samples", "--only", "--quiet"):
    c.check(option in r.stdout, f"characterize --help does not list {option}")

dump = os.path.join(tmp, "dump")
r = run(larm, "kernels", "--dump", "flops-fma-dp-avx2-u42", dump)
c.check(r.returncode == 0, f"kernels --dump: {r.stderr!r}")
c.check(os.path.getsize(os.path.join(dump, "flops-fma-dp-avx2-u42.bin")) > 0, "no .bin dumped")
asm = os.path.join(dump, "flops-fma-dp-avx2-u42.asm")
c.check(os.path.exists(asm) and "vfmadd231pd" in open(asm).read(), "no disassembly with vfmadd231pd")

r = run(larm, "topology")
c.check(r.returncode == 0 and "Domain 0" in r.stdout, "larm topology")
c.finish()
