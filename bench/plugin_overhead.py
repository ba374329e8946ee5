"""The cost of larm's compiler plugin: a program built through larm-cc against the same source
built without it, run in turn (native, plugin, native, plugin...) so that both meet the same
host, and the median of each one's wall times.

  plugin_overhead.py REPS -- NAME "NATIVE COMMAND" "PLUGIN COMMAND" [-- NAME ...]

Prints one line per program: the medians, their ratio (the plugin's cost), and the spread of the
ratios of the pairs (min-max). Environment as given (set OMP_NUM_THREADS and the like before)."""
import shlex
import statistics
import subprocess
import sys
import time


def wall(command):
    start = time.perf_counter()
    r = subprocess.run(shlex.split(command), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                       timeout=3600)
    if r.returncode != 0:
        sys.exit(f"plugin_overhead: {command!r} exited {r.returncode}")
    return time.perf_counter() - start


def main(argv):
    if len(argv) < 5 or argv[1] != "--":
        sys.exit(__doc__)
    reps = int(argv[0])
    rest, programs = argv[1:], []
    while len(rest) >= 4 and rest[0] == "--":
        programs.append(tuple(rest[1:4]))
        rest = rest[4:]
    if rest:
        sys.exit(f"plugin_overhead: cannot read {rest!r}\n{__doc__}")
    print(f"{'program':<16} {'native s':>10} {'plugin s':>10} {'ratio':>7}  pairs' ratios (min-max), {reps} pairs")
    for name, native, plugin in programs:
        wall(native), wall(plugin)  # warm the page cache and the binaries
        natives, plugins = [], []
        for _ in range(reps):
            natives.append(wall(native))
            plugins.append(wall(plugin))
        ratios = [p / n for n, p in zip(natives, plugins)]
        print(f"{name:<16} {statistics.median(natives):>10.3f} {statistics.median(plugins):>10.3f} "
              f"{statistics.median(plugins) / statistics.median(natives):>7.3f}  "
              f"{min(ratios):.3f}-{max(ratios):.3f}", flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
