"""A program counted here, placed on another machine's roofs: `larm count --results OTHER` models
OTHER's caches, so that the bytes each level serves are the ones that machine would serve, and
`larm place` says it is a what-if in its first line.

  what_if_count_test.py LARM TRIAD FIXTURE_RESULTS

OTHER is FIXTURE_RESULTS (a synthetic node, another machine than any live one) with its caches
shrunk to L2 256 KiB and one shared L3 of 2 MiB. The triad's three arrays of 128 Ki doubles (3 MiB)
overflow that L3 and fit the L3 of every machine larm runs on (4 MiB or more declared), so:
- counted on OTHER's caches, nearly all of its bytes come from memory (each repetition streams the
  3 MiB again), and the counted regions.json names OTHER as the machine whose caches served them;
- counted on this machine's declared caches, memory serves at most the first touch of the arrays;
- placed on OTHER's roofs, the first line is the what-if, saying the bytes per level are OTHER's.
"""
import json
import os
import subprocess
import sys
import tempfile

larm, triad, fixture = sys.argv[1], sys.argv[2], sys.argv[3]
failures = []
ELEMENTS, REPETITIONS = 131072, 20  # 3 x 1 MiB arrays, streamed 20 times
STREAMED = 3 * 8 * ELEMENTS * REPETITIONS


def check(condition, message):
    print(("ok    " if condition else "FAIL  ") + message)
    if not condition:
        failures.append(message)


def run(*args):
    return subprocess.run([larm, *args], capture_output=True, text=True, timeout=600,
                          env=dict(os.environ, OMP_NUM_THREADS="2"))


def memory_bytes(counted_dir):
    regions = json.load(open(os.path.join(counted_dir, "regions.json")))
    triad_region = [r for r in regions["regions"] if r["name"] == "triad"][0]
    counted = triad_region["machine"]["counted"]
    # The program's bytes at the memory level: its reads and writes, write-allocate fetches aside.
    served = (counted.get("bytes_memory_read", 0) - counted.get("bytes_memory_allocate", 0) +
              counted.get("bytes_memory_written", 0))
    return served if "bytes_memory_read" in counted else None, regions


with tempfile.TemporaryDirectory(prefix="larm-what-if-") as tmp:
    other = json.load(open(os.path.join(fixture, "results.json")))
    for domain in other["topology"]["domains"]:
        for cache in domain["caches"]:
            if cache["level"] == "L2":
                cache["instance_bytes"] = cache["bytes_per_thread"] = 256 << 10
            if cache["level"] == "L3":
                cache["instance_bytes"] = 2 << 20
                cache["bytes_per_thread"] = (2 << 20) // cache["max_sharing_cores"]
    other_dir = os.path.join(tmp, "other")
    os.mkdir(other_dir)
    with open(os.path.join(other_dir, "results.json"), "w") as f:
        json.dump(other, f)
    host = other["provenance"]["host"]
    program = [triad, "--size", str(ELEMENTS), "--repetitions", str(REPETITIONS)]

    there = os.path.join(tmp, "there")
    r = run("count", "--results", other_dir, "--repeat", "1", "--out", there, "--", *program)
    check(r.returncode == 0, f"counted on the other machine's caches (exit {r.returncode}) "
          f"{r.stderr[-400:]}")
    check(f"cache model: {host}'s caches (the --results' machine, not this one" in r.stdout,
          "the cache model named as the other machine's: " +
          next((l for l in r.stdout.splitlines() if l.startswith("cache model")), "none"))
    here = os.path.join(tmp, "here")
    r2 = run("count", "--repeat", "1", "--out", here, "--", *program)
    check(r2.returncode == 0, f"counted on this machine's caches (exit {r2.returncode})")
    if r.returncode == 0 and r2.returncode == 0:
        there_bytes, there_file = memory_bytes(os.path.join(there, "counted"))
        here_bytes, here_file = memory_bytes(os.path.join(here, "counted"))
        check(there_file["counters"].get("cache_model_machine") == host,
              f"the count run's regions.json names {host} as the caches' machine")
        check("cache_model_machine" not in here_file["counters"],
              "a count on this machine's caches names none")
        check(there_bytes is not None and there_bytes >= 0.8 * STREAMED,
              f"on the other machine's 2 MiB L3 memory serves the streamed bytes: {there_bytes} "
              f"of {STREAMED}")
        check(here_bytes is not None and here_bytes <= 0.2 * STREAMED,
              f"on this machine's L3 memory serves at most the first touch: {here_bytes} of "
              f"{STREAMED}")

        place_json = os.path.join(tmp, "place.json")
        r = run("place", "--results", other_dir, os.path.join(there, "timed"), "--counts",
                os.path.join(there, "counted"), "--out", place_json)
        check(r.returncode == 0, f"placed on the other machine's roofs (exit {r.returncode}) "
              f"{r.stderr[-300:]}")
        first = r.stdout.splitlines()[1] if len(r.stdout.splitlines()) > 1 else ""
        check(first.startswith("What-if: these regions ran on ") and
              f"were modelled with {host}'s caches" in first,
              f"the what-if first, naming the modelled caches: {first[:160]}")
        if os.path.exists(place_json):
            placed = json.load(open(place_json))
            check(placed.get("levels_modelled_for") == host and placed.get("what_if"),
                  "place.json keeps the what-if and the machine whose caches were modelled")

print(f"{len(failures)} failure(s)")
sys.exit(1 if failures else 0)
