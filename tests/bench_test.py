"""larm bench: one roof's kernel alone. The threads, working set, unroll and memory asked for are
the ones run (JSON echoes what ran, not what was asked); a level's roof form is its kernel (L2's
stores run shorter loops on x86-64); the value is the estimator of the samples it prints; each
repeat is a line; bad input is one line and exit 2."""
import json
import platform
import statistics
import sys

from cli_helpers import Checker, run

larm = sys.argv[1]
c = Checker()


def bench(*args):
    done = run(larm, "bench", "--json", "--samples", "5", "--sample-ms", "2", *args)
    c.check(done.returncode == 0, f"bench {args} failed: {done.stderr}")
    return [json.loads(line) for line in done.stdout.splitlines()] if done.returncode == 0 else []


for line in bench("--access", "copy", "--working-set", "16K", "--threads", "1", "--unroll", "8"):
    c.check_equal(line["threads"], 1, "threads")
    c.check_equal(line["working_set_bytes"], 16384, "working set per thread")
    c.check_equal(line["unroll"], 8, "unroll")
    c.check("copy" in line["kernel"] and line["kernel"].endswith("-u8"), f"kernel {line['kernel']}")
    c.check_equal(len(line["samples_gbps"]), 5, "samples")
    c.check(all(v > 0 for v in line["samples_gbps"]), f"samples {line['samples_gbps']}")
    c.check(abs(line["median_gbps"] - statistics.median(line["samples_gbps"])) < 1e-6 *
            line["median_gbps"], "the median is its samples'")
    c.check(line["min_gbps"] <= line["median_gbps"] <= line["gbps"] <= line["max_gbps"],
            f"p90 {line['gbps']} not between median and max")
    c.check(line["placement_fraction"] >= 0.99, f"pages placed {line['placement_fraction']}")

median = bench("--working-set", "8K", "--estimator", "median", "--repeat", "2")
c.check_equal(len(median), 2, "lines with --repeat 2")
for line in median:
    c.check_equal(line["gbps"], line["median_gbps"], "--estimator median's value")

if platform.machine() in ("x86_64", "AMD64"):
    # plan.cpp's roof_unroll: in L2 a kernel that stores runs at most 16 stores an iteration.
    for line in bench("--access", "store", "--working-set", "64K", "--level", "L2", "--threads",
                      "1"):
        c.check_equal(line["unroll"], 16, "L2 store roof's unroll")
    for line in bench("--access", "store", "--working-set", "64K", "--level", "L3", "--threads",
                      "1"):
        c.check(line["unroll"] > 16, f"L3 store roof's unroll {line['unroll']}")

# likwid-bench's spellings: -w DOMAIN:SIZE[:THREADS] gives the whole group's size, split over its
# threads; -t names the access and the ISA.
for line in bench("-w", "M0:32K:1"):
    c.check_equal((line["threads"], line["working_set_bytes"]), (1, 32768), "-w M0:32K:1")
cores = bench("-w", "0:16K")[:1]
if cores and cores[0]["threads"] > 1:
    group = cores[0]["threads"]
    for line in bench("-w", f"0:{64 * group}K:{group}"):
        c.check_equal(line["working_set_bytes"], 65536, f"-w 0:{64 * group}K:{group} per thread")
for line in bench("-t", "copy", "-w", "0:16K:1"):
    c.check_equal(line["access"], "copy", "-t copy")
if platform.machine() in ("x86_64", "AMD64"):
    for line in bench("-t", "store_mem_sse", "-w", "0:16K:1"):
        c.check_equal((line["access"], line["isa"]), ("store-nt", "sse2"), "-t store_mem_sse")

text = run(larm, "bench", "--working-set", "4096", "--samples", "3", "--sample-ms", "2")
c.check(text.returncode == 0 and " GB/s (p90 of 3 samples" in text.stdout and
        "pages on memory" in text.stdout, f"text output: {text.stdout} {text.stderr}")

for args in (["--working-set", "2X"], ["--working-set", "0"], ["--working-set", "nan"],
             ["--working-set", "1.5"], ["--working-set", "-4K"], [],
             ["--working-set", "4K", "--threads", "0"],
             ["--working-set", "4K", "--threads", "100000"],
             ["--working-set", "4K", "--domain", "9999"],
             ["--working-set", "4K", "--memory", "9999"],
             ["--working-set", "4K", "--isa", "mmx"],
             ["--working-set", "4K", "--access", "gather"],
             ["--working-set", "4K", "--topology", "/dev/null"],
             ["--working-set", "900000G"]):  # more than half the memory: refused, not touched
    bad = run(larm, "bench", *args)
    lines = bad.stderr.strip().splitlines()
    c.check(bad.returncode == 2 and len(lines) == 1 and lines[0].startswith("larm: error:") and
            not bad.stdout, f"bench {args}: exit {bad.returncode}, {bad.stderr!r} {bad.stdout!r}")
c.finish()
