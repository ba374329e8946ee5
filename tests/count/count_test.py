"""larm count end to end: exact counts without hardware counters.

  count_test.py LARM BUILD_DIR

- the triad and ddot examples, each built three ways (baseline SSE2, x86-64-v3, not vectorized):
  counted FLOPs and bytes equal to the algorithm's (triad 2N FLOPs, 24N bytes; ddot 2N, 16N)
  within 0.1 %, whatever the build; the dgemm example 2n^3 FLOPs within 0.1 %;
- Debian's OpenBLAS cblas_dgemm: 2n^3 FLOPs within 1 % (one OpenBLAS thread: counts are per
  thread, and OpenBLAS's own threads would count outside the region's thread);
- Debian's FFTW, planned without SIMD: the FLOPs FFTW itself reports for its plan (fftw_flops),
  exactly (0.1 %);
- gathers, non-temporal stores, masked loads and stores (2 of 4 lanes): the bytes they move,
  within 0.1 %;
- an AVX-512 program: refused before any run, one error line that says to build it through
  larm-cc or for x86-64-v3, exit 2; AVX-512 code in a clone chosen at load is counted;
- the counted run paired with the timed run by `larm place --counts`: no NaN, the pairing said;
- the cache model: a triad and a ddot at working sets inside L1, L2, L3 and memory of a given
  model, each level's bytes within 10 % of the analytic count (or under 2 % of the core's bytes
  where the analytic count is 0: the first repetition's cold misses);
- repeated native runs: each region's timing (runs, estimator, spread) in timed/regions.json;
- a command line through a wrapper that exec()s the program (taskset): the program counted;
- a program that exits non-zero after writing its regions keeps them (one line), a region never
  ended is named (one line), a program killed by a signal is one error line and exit 1.
Prints every count and the slowdown of the counting run."""
import json
import os
import re
import subprocess
import sys
import tempfile

larm, build = sys.argv[1], sys.argv[2]
source = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
failures = []


def check(condition, message):
    print(("ok    " if condition else "FAIL  ") + message)
    if not condition:
        failures.append(message)


def count(out, program, *args, native=False, env=None):
    command = [larm, "count", "--out", out] + ([] if native else ["--no-native"])
    run = subprocess.run(command + ["--", program] + list(args), capture_output=True, text=True,
                         env=dict(os.environ, OMP_NUM_THREADS="2", **(env or {})), timeout=600)
    return run


def machine(out, region):
    with open(os.path.join(out, "counted", "regions.json")) as f:
        doc = json.load(f)
    assert doc["run"] == "counted", doc["run"]
    for r in doc["regions"]:
        if r["name"] == region:
            return r["machine"]
    raise AssertionError("no region " + region)


def near(value, expected, tolerance):
    return abs(value - expected) <= tolerance * expected


with tempfile.TemporaryDirectory(prefix="larm-count-test-") as tmp:
    n, reps = 1000000, 2
    # wide: the share of FLOPs in 256-bit instructions when built for x86-64-v3. ddot's sum is
    # kept in order without -ffast-math: its multiplies are vectorized, its additions scalar.
    for example, flops, byte_count, wide in (("triad", 2, 24, 0.99), ("ddot", 2, 16, 0.49)):
        counted = {}
        for variant, program in (("sse2", os.path.join(build, "examples", example)),
                                 ("avx2", os.path.join(build, "tests", "count_%s_avx2" % example)),
                                 ("scalar", os.path.join(build, "tests", "count_%s_scalar" % example))):
            out = os.path.join(tmp, example + "-" + variant)
            run = count(out, program, "--size", str(n), "--repetitions", str(reps))
            check(run.returncode == 0, "%s %s counted (exit %d) %s" % (example, variant, run.returncode,
                                                                     run.stderr[-300:]))
            if run.returncode != 0:
                continue
            m = machine(out, example)
            counted[variant] = m
            print("      %s %s: %.0f FLOPs, %.0f bytes (%.0f read, %.0f written), widths %s" % (
                example, variant, m["flops"], m["bytes"], m["bytes_read"], m["bytes_written"],
                {k: v for k, v in m["counted"].items() if k.startswith("flops") and v > 0}))
            check(near(m["flops"], flops * n * reps, 1e-3),
                  "%s %s: %.0f FLOPs within 0.1 %% of %d" % (example, variant, m["flops"], flops * n * reps))
            check(near(m["bytes"], byte_count * n * reps, 1e-3),
                  "%s %s: %.0f bytes within 0.1 %% of %d" % (example, variant, m["bytes"],
                                                            byte_count * n * reps))
        if len(counted) == 3:
            check(counted["avx2"]["counted"].get("flops_dp_256", 0) > wide * counted["avx2"]["flops"],
                  "%s avx2: more than %d %% of its FLOPs are 256-bit" % (example, 100 * wide))
            check(counted["scalar"]["counted"]["flops_dp_scalar"] > 0.99 * counted["scalar"]["flops"],
                  "%s scalar: its FLOPs are scalar" % example)

    # Through a wrapper that exec()s the program (numactl, taskset, env): the program is counted.
    wrapped = os.path.join(tmp, "wrapped")
    run = subprocess.run([larm, "count", "--no-native", "--no-cache-model", "--out", wrapped, "--",
                          "taskset", "-c", "0", os.path.join(build, "examples", "triad"), "--size",
                          str(n), "--repetitions", str(reps)],
                         capture_output=True, text=True, timeout=600)
    check(run.returncode == 0 and near(machine(wrapped, "triad")["flops"], 2 * n * reps, 1e-3),
          "counted through taskset (exit %d): %s" % (run.returncode, run.stderr[-300:]))

    out = os.path.join(tmp, "dgemm")
    order = 128
    run = count(out, os.path.join(build, "examples", "dgemm"), "--size", str(order), "--repetitions", "2")
    check(run.returncode == 0, "dgemm counted")
    if run.returncode == 0:
        m = machine(out, "dgemm")
        check(near(m["flops"], 2 * order ** 3 * 2, 1e-3),
              "dgemm example: %.0f FLOPs within 0.1 %% of 2n^3 x 2 = %d" % (m["flops"], 4 * order ** 3))

    out = os.path.join(tmp, "openblas")
    order = 200
    run = count(out, os.path.join(build, "tests", "count_openblas_dgemm"), str(order), "2",
                env={"OPENBLAS_NUM_THREADS": "1"})
    check(run.returncode == 0, "OpenBLAS dgemm counted (exit %d) %s" % (run.returncode, run.stderr[-300:]))
    if run.returncode == 0:
        m = machine(out, "cblas_dgemm")
        expected = 2 * order ** 3 * 2
        check(near(m["flops"], expected, 1e-2), "OpenBLAS cblas_dgemm: %.0f FLOPs, 2n^3 x 2 = %d (%+.3f %%)" % (
            m["flops"], expected, 100 * (m["flops"] / expected - 1)))

    for plan in ("nosimd", "simd"):
        out = os.path.join(tmp, "fftw-" + plan)
        run = count(out, os.path.join(build, "tests", "count_fftw_dft"), "4096", "4", plan)
        check(run.returncode == 0, "FFTW %s counted" % plan)
        if run.returncode != 0:
            continue
        ops = re.search(r"fftw_flops: add (\d+) mul (\d+) fma (\d+)", run.stdout)
        check(ops is not None, "FFTW printed its plan's operations")
        m = machine(out, "fftw_execute")
        add, mul, fma = (int(x) for x in ops.groups())
        fftw = 4 * (add + mul + 2 * fma)
        print("      FFTW %s plan: counted %.0f FLOPs, fftw_flops %d (ratio %.4f)" % (
            plan, m["flops"], fftw, m["flops"] / fftw))
        if plan == "nosimd":
            check(near(m["flops"], fftw, 1e-3), "FFTW without SIMD: counted = fftw_flops within 0.1 %")

    # Gathers, non-temporal stores, masked loads and stores: the bytes they really move.
    out = os.path.join(tmp, "access-kinds")
    run = count(out, os.path.join(build, "tests", "count_access_kinds"))
    check(run.returncode == 0, "access kinds counted (exit %d) %s" % (run.returncode, run.stderr[-300:]))
    if run.returncode == 0:
        moved = re.search(r"gather read (\d+), stream written (\d+), maskload read (\d+), "
                          r"maskstore written (\d+)", run.stdout)
        expected = dict(zip(("gather", "stream", "maskload", "maskstore"), (int(x) for x in moved.groups())))
        for region, key in (("gather", "bytes_read"), ("stream", "bytes_written"),
                            ("maskload", "bytes_read"), ("maskstore", "bytes_written")):
            m = machine(out, region)
            check(near(m[key], expected[region], 1e-3), "%s: %.0f %s within 0.1 %% of %d" % (
                region, m[key], key, expected[region]))

    out = os.path.join(tmp, "avx512")
    run = count(out, os.path.join(build, "tests", "count_avx512_program"))
    errors = [line for line in run.stderr.splitlines() if line.startswith("larm: error:")]
    check(run.returncode == 2 and len(errors) == 1 and "x86-64-v3" in errors[0] and
          "AVX-512" in errors[0] and "larm-cc" in errors[0] and not os.path.exists(out),
          "AVX-512 program: refused before any run, exit %d, %s" % (run.returncode, errors))
    # AVX-512 code in a clone chosen at load: the baseline clone runs under Valgrind, counted.
    out = os.path.join(tmp, "clones")
    run = count(out, os.path.join(build, "tests", "count_avx512_clones"))
    check(run.returncode == 0 and near(machine(out, "clones").get("flops", 0), 4096, 0),
          "AVX-512 clones: exit %d, %s" % (run.returncode, run.stderr[-300:]))

    # The timed run and the counted run of one command, paired by larm place.
    out = os.path.join(tmp, "paired")
    run = count(out, os.path.join(build, "examples", "triad"), "--size", str(n), "--repetitions", "3",
                native=True)
    check(run.returncode == 0, "triad counted with its native run")
    slowdown = re.search(r"slowdown ([0-9.]+)x", run.stdout)
    check(slowdown is not None, "the slowdown is printed: %s" % (slowdown.group(0) if slowdown else run.stdout))
    place = subprocess.run([larm, "place", os.path.join(source, "results", "reference", "dev-zen5-2vcpu"),
                            os.path.join(out, "timed", "regions.json"), "--counts",
                            os.path.join(out, "counted", "regions.json")], capture_output=True, text=True)
    print(place.stdout)
    check(place.returncode == 0 and "counts of the count run (6 calls in both runs)" in place.stdout,
          "place --counts pairs the triad's calls")
    check("nan" not in place.stdout.lower() and "inf " not in place.stdout.lower(), "no NaN or inf in place's output")
    alone = subprocess.run([larm, "place", os.path.join(source, "results", "reference", "dev-zen5-2vcpu"),
                            os.path.join(out, "counted", "regions.json")], capture_output=True, text=True)
    check(alone.returncode == 2 and "count run" in alone.stderr, "a count run placed alone is refused")

    # The cache model against kernels of known traffic.
    model = (32768, 262144, 2097152)
    out = os.path.join(tmp, "levels")
    run = subprocess.run([larm, "count", "--no-native", "--out", out, "--cache-model",
                          ",".join("%d:%d:64" % (size, ways) for size, ways in zip(model, (8, 8, 16))),
                          "--", os.path.join(build, "tests", "count_level_traffic")] + [str(m) for m in model],
                         capture_output=True, text=True, timeout=600)
    check(run.returncode == 0, "level traffic counted (exit %d) %s" % (run.returncode, run.stderr[-300:]))
    if run.returncode == 0:
        regions_checked = 0
        for line in run.stdout.splitlines():
            # "triad_L2 elements 2730 repetitions 1025 core 67158000 L2 89544000 L3 0 memory 0"
            words = line.split()
            if len(words) != 13 or words[1] != "elements":
                continue
            regions_checked += 1
            region, core = words[0], float(words[6])
            analytic = {"l2": float(words[8]), "l3": float(words[10]), "memory": float(words[12])}
            counted = machine(out, region)["counted"]
            for level, expected in analytic.items():
                got = counted["bytes_%s_read" % level] + counted["bytes_%s_written" % level]
                ok = near(got, expected, 0.10) if expected > 0 else got <= 0.02 * core
                check(ok, "%s: %s served %.4g bytes, analytic %.4g (core %.4g)" % (region, level, got, expected, core))
        check(regions_checked == 8, "the 8 kernels of known traffic were checked (%d)" % regions_checked)

    # Repeated native runs and how a program's end is taken.
    latency = os.path.join(build, "tests", "count_latency_program")
    out = os.path.join(tmp, "repeated")
    run = subprocess.run([larm, "count", "--repeat", "3", "--no-cache-model", "--out", out, "--", latency, "4"],
                         capture_output=True, text=True, timeout=600)
    check(run.returncode == 0, "latency program counted with 3 native runs (exit %d)" % run.returncode)
    if run.returncode == 0:
        with open(os.path.join(out, "timed", "regions.json")) as f:
            timed = {r["name"]: r for r in json.load(f)["regions"]}
        timing = timed["chase"].get("timing", {})
        check(len(timing.get("runs", [])) == 3 and timing.get("estimator", "").startswith("median of"),
              "the chase's timing has 3 runs and its estimator: %s" % timing.get("estimator"))
        check(abs(timed["chase"]["machine"]["seconds"] - timing.get("median_s", -1)) < 1e-12,
              "the chase's time is the median the timing names")
        with open(os.path.join(out, "runs.json")) as f:
            check(len(json.load(f)["native_runs"]) == 3, "runs.json has the 3 native runs' quality")
    out = os.path.join(tmp, "fails")
    run = subprocess.run([larm, "count", "--repeat", "1", "--no-cache-model", "--out", out, "--", latency, "4", "fail"],
                         capture_output=True, text=True, timeout=600)
    kept = [l for l in run.stderr.splitlines() if "exited with status 3" in l]
    check(run.returncode == 0 and len(kept) == 2 and all("kept" in l for l in kept)
          and os.path.exists(os.path.join(out, "counted", "regions.json")),
          "a program exiting 3 after its regions: counted, one line per run (exit %d) %s" % (run.returncode, kept))
    out = os.path.join(tmp, "open")
    run = subprocess.run([larm, "count", "--repeat", "1", "--no-cache-model", "--out", out, "--", latency, "4", "open"],
                         capture_output=True, text=True, timeout=600)
    named = [l for l in run.stderr.splitlines() if "never_ended" in l and "never ended" in l]
    check(run.returncode == 0 and len(named) == 1, "a region never ended is named once: %s" % named)
    out = os.path.join(tmp, "killed")
    run = subprocess.run([larm, "count", "--repeat", "2", "--no-cache-model", "--out", out, "--", latency, "4", "kill"],
                         capture_output=True, text=True, timeout=600)
    errors = [l for l in run.stderr.splitlines() if l.startswith("larm: error:")]
    check(run.returncode == 1 and len(errors) == 1 and "signal 9" in errors[0],
          "a program killed by SIGKILL: one error line, exit 1 (exit %d) %s" % (run.returncode, errors))

print("%d failure(s)" % len(failures))
sys.exit(1 if failures else 0)
