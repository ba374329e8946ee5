"""End-to-end test of `larm plot`: from the reference results of this development machine and
from a synthetic 4-domain node with two memory kinds (tests/fixtures/four-domain-hbm: the reference with
each domain a local DRAM and an HBM, remote, contention and congestion roofs), with regions and a
hybrid sweep: every figure drawn (PNG of the expected size, SVG holding its roof labels), the
scripts and data kept, figures.json listing them; missing data (one node, no hybrid sweep) is
omitted with its reason, never a failure; without gnuplot, the scripts and data are still written.
    plot_test.py LARM REFERENCE_DIR REGIONS_JSON FOUR_DOMAIN_DIR"""
import json
import os
import re
import shutil
import struct
import sys
import tempfile

from cli_helpers import Checker, run

larm, reference, regions, four_domains = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4]
c = Checker()
work = tempfile.mkdtemp(prefix="larm-plot-")


def png_size(path):
    with open(path, "rb") as f:
        head = f.read(24)
    return struct.unpack(">II", head[16:24]) if head[:8] == b"\x89PNG\r\n\x1a\n" else None


def check_figures(out, expected_names, svg_labels):
    index = json.load(open(os.path.join(out, "figures.json")))
    names = [f["name"] for f in index["figures"]]
    c.check(sorted(names) == sorted(expected_names), f"figures {names}, expected {expected_names}")
    for f in index["figures"]:
        c.check(f["error"] == "", f"{f['name']}: {f['error']}")
        c.check(os.path.getsize(os.path.join(out, f["script"])) > 0, f"{f['name']}: no script")
        png = os.path.join(out, f["name"] + ".png")
        svg = os.path.join(out, f["name"] + ".svg")
        c.check(os.path.exists(png) and os.path.getsize(png) > 10000, f"{f['name']}: png missing or tiny")
        size = png_size(png) if os.path.exists(png) else None
        script = open(os.path.join(out, f["script"])).read()
        m = re.search(r"pngcairo enhanced size (\d+),(\d+)", script)
        expected = (int(m.group(1)), int(m.group(2))) if m else None
        c.check(size is not None and size == expected and size[0] >= 600,
                f"{f['name']}: png size {size}, script asks {expected}")
        c.check(os.path.exists(svg) and os.path.getsize(svg) > 1000, f"{f['name']}: svg missing")
        text = open(svg).read() if os.path.exists(svg) else ""
        for label in svg_labels.get(f["name"], []):
            c.check(label in text, f"{f['name']}.svg lacks the label {label!r}")
    return index


# 1. This machine: one domain, one memory, regions, no hybrid sweep.
one = os.path.join(work, "one")
shutil.copytree(reference, one)
r = run(larm, "plot", one, "--regions", regions)
c.check(r.returncode == 0, f"plot exit {r.returncode}: {r.stderr}")
index = check_figures(os.path.join(one, "plots"),
                      ["larm-domain0", "validation-domain0", "sweep-domain0", "matrix-bandwidth"],
                      {"larm-domain0": ["L1: ", "GB/s", "fma", "Arithmetic intensity", "load roofs",
                                        "triad"],
                       "validation-domain0": ["L1 load (error", "memory 0 local load (error"],
                       "sweep-domain0": ["L1 32 KiB", "Working set per thread"],
                       "matrix-bandwidth": ["GB/s", "Memory (OS index)"]})
c.check(any("hybrid" in o for o in index["omitted"]), f"omitted {index['omitted']}")
c.check(any("contention curves" in o for o in index["omitted"]), f"omitted {index['omitted']}")
caption = index["figures"][0]["caption"]
c.check("remote" in caption and "single NUMA node" in caption, f"caption {caption!r}")

# 2. The synthetic 4-domain node with DRAM and HBM and its fitted hybrid model
# (tests/fixtures/four-domain-hbm, made by tests/fixtures/make_four_domain_hbm.py).
four = os.path.join(work, "four")
shutil.copytree(four_domains, four)
r = run(larm, "plot", four, "--format", "png,svg,pdf")
c.check(r.returncode == 0, f"plot 4 domains exit {r.returncode}: {r.stderr}")
out4 = os.path.join(four, "plots")
check_figures(out4, [f"larm-domain{d}" for d in range(4)] +
              ["larm-domains", "hybrid-sweep", "validation-domain0", "sweep-domain0",
               "matrix-bandwidth", "contention-curves"],
              {"larm-domain2": ["mem 1 HBM remote", "congestion (all memories)", "mem 4 DRAM contention",
                                "mem 4 DRAM local"],
               "hybrid-sweep": ["ratio_read 0.25", "model", "measured"],
               "contention-curves": ["knee 4", "memory 1", "Threads"],
               "matrix-bandwidth": ["132", "19.8"]})
c.check(os.path.getsize(os.path.join(out4, "larm-domain0.pdf")) > 1000, "no pdf")

# 3. No gnuplot on PATH: scripts and data still written, a message, exit 0.
nogp = os.path.join(work, "nogp")
shutil.copytree(reference, nogp)
r = run(larm, "plot", nogp, env={"PATH": "/nonexistent"})
c.check(r.returncode == 0, f"no-gnuplot exit {r.returncode}: {r.stderr}")
c.check("gnuplot not found" in r.stderr, f"no-gnuplot message: {r.stderr!r}")
c.check(os.path.exists(os.path.join(nogp, "plots", "larm-domain0.gp")), "script not written")
c.check(not os.path.exists(os.path.join(nogp, "plots", "larm-domain0.png")), "png without gnuplot?")
c.finish()
