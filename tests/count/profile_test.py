"""larm profile end to end: an unmodified program's hottest functions placed without editing it.

  profile_test.py LARM PROGRAM CXX_PROGRAM RESULTS_DIR

- triad and dot, each called from an OpenMP parallel region on 2 threads, are placed: counted
  FLOPs equal to the algorithm's (2 per element per call) within 0.1 %, bytes within 1 %, two
  threads each, and their share of the samples above 1 %; the outlined body is not a function of
  its own; regions.json is a regions file `larm place` reads, with a median over the sampled runs;
- bad input, each one line and before any run: a program that does not exist, a script (not an
  ELF), --top 0; a program that exits 3: one error line naming --allow-exit 3, exit 1, and with
  --allow-exit 3 the profile is made;
- the C++ program: the function template, the namespace and both overloads of one name placed,
  named as C++ writes them (the overloads with their parameters), their FLOPs exact; each
  kernel's time within 30 % of the program's own wall-clock timer around its calls in the same
  sampled runs (the margin holds a loaded machine: the median of 3 runs at 1 ms a sample, about
  100 samples a kernel);
- a stripped copy: refused before any run (its functions have no names to profile by), one error
  line, exit 2.
Exit 77 (skipped) when Linux perf cannot sample here."""
import json
import os
import shutil
import subprocess
import sys
import tempfile

larm, program, program_cxx, results = sys.argv[1:5]
failures = []
ELEMENTS, CALLS = 1 << 21, 60


def check(condition, message):
    print(("ok    " if condition else "FAIL  ") + message)
    if not condition:
        failures.append(message)


def profile(args, out, **kwargs):
    env = dict(os.environ, OMP_NUM_THREADS="2")
    return subprocess.run([larm, "profile", "--out", out] + args, capture_output=True, text=True,
                          timeout=600, env=env, **kwargs)


if shutil.which("perf") is None:
    print("Linux perf is not installed: skipped")
    sys.exit(77)

with tempfile.TemporaryDirectory(prefix="larm-profile-test-") as tmp:
    out = os.path.join(tmp, "p")
    run = profile(["--repeat", "2", "--results", results, "--", program], out)
    if "perf_event_paranoid" in run.stderr:
        print(run.stderr)
        sys.exit(77)
    print(run.stdout[-3000:], run.stderr[-2000:])
    check(run.returncode == 0, "larm profile ran (exit %d)" % run.returncode)
    doc = json.load(open(os.path.join(out, "regions.json")))
    regions = {r["name"]: r for r in doc["regions"]}
    for name, flops, bytes_ in (("triad", 2 * ELEMENTS * CALLS, 24 * ELEMENTS * CALLS),
                                ("dot", 2 * ELEMENTS * CALLS, 16 * ELEMENTS * CALLS)):
        region = regions.get(name)
        check(region is not None, "%s placed among %s" % (name, sorted(regions)))
        if region is None:
            continue
        m = region["machine"]
        check(abs(m["flops"] - flops) <= 1e-3 * flops,
              "%s: %.0f FLOPs counted, %d expected" % (name, m["flops"], flops))
        check(abs(m["bytes"] - bytes_) <= 1e-2 * bytes_,
              "%s: %.0f bytes counted, %d expected" % (name, m["bytes"], bytes_))
        check(m["threads"] == 2, "%s: %d threads sampled in it (2 expected)" % (name, m["threads"]))
        check(region.get("timing", {}).get("estimator", "").startswith("median of"),
              "%s: time is a median over the sampled runs: %s" % (name, region.get("timing")))
    check(not any("_omp_fn" in name or "omp_outlined" in name for name in regions),
          "outlined bodies folded into their function: %s" % sorted(regions))
    table = json.load(open(os.path.join(out, "profile.json")))
    placed = {f["function"]: f for f in table["functions"] if f["placed"]}
    check(all(placed[n]["share_of_samples_median"] > 0.01 for n in ("triad", "dot") if n in placed),
          "triad and dot each above 1 % of the samples")
    check(os.path.exists(os.path.join(out, "place.json")) and "% of it" in run.stdout,
          "placed on the results' roofs")
    placed_again = subprocess.run([larm, "place", results, os.path.join(out, "regions.json")],
                                  capture_output=True, text=True, timeout=120)
    check(placed_again.returncode == 0 and "triad" in placed_again.stdout,
          "larm place reads the profile's regions.json")

    # Bad input: one line, exit 2, before any run.
    script = os.path.join(tmp, "run.sh")
    with open(script, "w") as f:
        f.write("#!/bin/sh\nexec %s\n" % program)
    os.chmod(script, 0o755)
    for args, words in ((["--", os.path.join(tmp, "missing")], "no such program"),
                        (["--", script], "is not an ELF executable"),
                        (["--top", "0", "--", program], "--top 0")):
        bad = profile(args, os.path.join(tmp, "bad"))
        lines = [l for l in bad.stderr.splitlines() if l.strip()]
        check(bad.returncode == 2 and len(lines) == 1 and words in lines[0]
              and not os.path.exists(os.path.join(tmp, "bad", "sampled")),
              "%s: exit %d, %s" % (" ".join(args), bad.returncode, lines))
    failed = profile(["--repeat", "1", "--no-cache-model", "--", program, "3"],
                     os.path.join(tmp, "exit3"))
    errors = [l for l in failed.stderr.splitlines() if l.startswith("larm: error")]
    check(failed.returncode == 1 and len(errors) == 1 and "exited with status 3" in errors[0]
          and "--allow-exit 3" in errors[0], "exit 3: %d, %s" % (failed.returncode, errors))
    allowed = profile(["--repeat", "1", "--no-cache-model", "--allow-exit", "3", "--", program, "3"],
                      os.path.join(tmp, "allowed"))
    check(allowed.returncode == 0 and "triad" in allowed.stdout,
          "--allow-exit 3: profiled (exit %d)" % allowed.returncode)

    # C++: names paired through their mangled symbols, shown demangled.
    cxx = os.path.join(tmp, "cxx")
    run = profile(["--repeat", "3", "--results", results, "--", program_cxx], cxx)
    print(run.stdout[-3000:], run.stderr[-1500:])
    check(run.returncode == 0, "C++ program profiled (exit %d)" % run.returncode)
    timers = {}
    for line in run.stderr.splitlines():
        fields = line.split()
        if len(fields) == 3 and fields[0] == "timer":
            timers.setdefault(fields[1], []).append(float(fields[2]))
    regions = {r["name"]: r for r in json.load(open(os.path.join(cxx, "regions.json")))["regions"]}
    n, calls = 1 << 21, 150
    expected = {  # region -> (FLOPs, the program's timer)
        "kernels::axpy<double>": (2 * n * calls, "axpy"),
        "kernels::sum(std::vector<double, std::allocator<double> > const&)": (n * calls,
                                                                             "sum_double"),
        "kernels::sum(std::vector<float, std::allocator<float> > const&)": (n * calls, "sum_float"),
        "kernels::lopsided": (2 * n * calls, "lopsided"),
    }
    for name, (flops, timer) in expected.items():
        region = regions.get(name)
        check(region is not None, "C++ %s placed among %s" % (name, sorted(regions)))
        if region is None:
            continue
        counted = region["machine"]["flops"]
        check(abs(counted - flops) <= 1e-3 * flops,
              "C++ %s: %.0f FLOPs counted, %d expected" % (name, counted, flops))
        # The timers of the 3 sampled runs (the native and counting runs print theirs too: the
        # native run's first, the counting run's last).
        # larm's median is over the clean runs: it lies within the runs' own timers, 30 % apart.
        # Five runs print timers: the native one, the 3 sampled ones, the counting one.
        printed = timers.get(timer, [])
        check(len(printed) == 5, "C++ %s: %d runs printed its timer (5 expected)"
              % (name, len(printed)))
        runs = sorted(printed[1:4])
        if len(runs) == 3:
            larm_s = region["timing"]["median_s"]
            check(0.7 * runs[0] <= larm_s <= 1.3 * runs[2],
                  "C++ %s: %.3f s by larm, %.3f-%.3f s by its own timer"
                  % (name, larm_s, runs[0], runs[2]))
    check(not any("_Z" in name or "omp_fn" in name for name in regions),
          "C++ names demangled, outlined bodies folded: %s" % sorted(regions))

    stripped = os.path.join(tmp, "stripped")
    subprocess.run(["objcopy", "--strip-all", program, stripped], check=True, timeout=60)
    bare = profile(["--repeat", "1", "--no-cache-model", "--", stripped], os.path.join(tmp, "s"))
    lines = bare.stderr.strip().splitlines()
    check(bare.returncode == 2 and len(lines) == 1 and lines[0].startswith("larm: error:") and
          "has no symbol table" in lines[0] and not bare.stdout and
          not os.path.exists(os.path.join(tmp, "s")),
          "stripped: refused before any run, one error line, exit 2 (exit %d, %s)"
          % (bare.returncode, bare.stderr[-400:]))

print("%d failure(s)" % len(failures))
sys.exit(1 if failures else 0)
