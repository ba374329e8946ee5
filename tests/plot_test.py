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
import subprocess
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
                       "validation-domain0": ["L1 load: E ", "MARE", "memory 0 local load: E "],
                       "sweep-domain0": ["L1 32 KiB", "Working set per thread"],
                       "matrix-bandwidth": ["GB/s", "Memory (OS index)"]})
c.check(any("hybrid" in o for o in index["omitted"]), f"omitted {index['omitted']}")
c.check(any("contention curves" in o for o in index["omitted"]), f"omitted {index['omitted']}")
c.check(any("scaling figures" in o for o in index["omitted"]), f"omitted {index['omitted']}")
sweep_caption = next(f["caption"] for f in index["figures"] if f["name"] == "sweep-domain0")
c.check("no one-core sweep in these results" in sweep_caption, f"sweep caption {sweep_caption!r}")
caption = index["figures"][0]["caption"]
c.check("remote" in caption and "single NUMA node" in caption, f"caption {caption!r}")

# 2. The synthetic 4-domain node with DRAM and HBM and its fitted hybrid model
# (tests/fixtures/four-domain-hbm, made by tests/fixtures/make_four_domain_hbm.py).
four = os.path.join(work, "four")
shutil.copytree(four_domains, four)
r = run(larm, "plot", four, "--format", "png,svg,pdf")
c.check(r.returncode == 0, f"plot 4 domains exit {r.returncode}: {r.stderr}")
out4 = os.path.join(four, "plots")
index4 = check_figures(out4, [f"larm-domain{d}" for d in range(4)] +
              ["larm-domains", "hybrid-sweep", "hybrid-validation", "validation-domain0", "sweep-domain0",
               "matrix-bandwidth", "contention-curves"] + [f"scaling-domain{d}" for d in range(4)],
              {"larm-domain2": ["mem 1 HBM remote", "congestion (all memories)", "mem 4 DRAM contention",
                                "mem 4 DRAM local"],
               "hybrid-sweep": ["ratio_read 0.25", "model", "measured"],
               "contention-curves": ["knee 4", "memory 1", "Threads"],
               # Issue 15: the one-core sweep beside the all-core one; cache and memory scaling
               # with their knees; STREAM against the model per thread (thesis fig. 4.12).
               "sweep-domain0": ["load, one core", "load, 2 threads", "copy, one core"],
               "scaling-domain0": ["L3 (cores sharing one)", "memory 0 (contention curve)", "knee 3",
                                   "knee 4"],
               "scaling-domain2": ["L3 (cores sharing one)", "knee 3"],
               "hybrid-validation": ["ratio_read 0.67, MARE", "read, fast (HBM)", "write, slow (DRAM)",
                                     "micro-benchmark, same ratio", "STREAM kernel", "per thread"],
               "matrix-bandwidth": ["132", "19.8"]})
c.check(os.path.getsize(os.path.join(out4, "larm-domain0.pdf")) > 1000, "no pdf")
captions4 = {f["name"]: f["caption"] for f in index4["figures"]}
c.check("local memory" in captions4.get("scaling-domain2", "") and
        "(not measured)" in captions4.get("scaling-domain2", ""),
        f"scaling-domain2 caption {captions4.get('scaling-domain2')!r}")
c.check("L3: 3 threads" in captions4.get("scaling-domain0", ""), f"{captions4.get('scaling-domain0')!r}")
c.check("8 threads" in captions4.get("hybrid-validation", "") and
        "MARE" in captions4.get("hybrid-validation", ""), f"{captions4.get('hybrid-validation')!r}")
c.check("one core alone" in captions4.get("sweep-domain0", ""), f"{captions4.get('sweep-domain0')!r}")

# 3. The per-domain LARM figures' plot area (issue 15): at least 60 % of the image width, the key
# below it. gnuplot reports the frame's extent after plotting (GPVAL_TERM_XMIN/XMAX, in pixels
# for pngcairo) and the image width GPVAL_TERM_XSIZE in its internal units, GPVAL_TERM_SCALE per
# pixel.
def plot_area_fraction(plots, figure):
    probe = tempfile.mkdtemp(prefix="larm-area-", dir=work)
    for name in os.listdir(plots):
        if name.startswith(figure) and (name.endswith(".dat") or name.endswith(".gp")):
            shutil.copy(os.path.join(plots, name), probe)
    script = open(os.path.join(probe, figure + ".gp")).read()
    script = re.sub(r'^formats = ".*"$', 'formats = "png"', script, flags=re.M)
    script = script.replace("  unset multiplot\n", '  print sprintf("AREA %g %g %g %g", '
                            "GPVAL_TERM_XMIN, GPVAL_TERM_XMAX, GPVAL_TERM_XSIZE, GPVAL_TERM_SCALE)"
                            "\n  unset multiplot\n")
    open(os.path.join(probe, figure + ".gp"), "w").write(script)
    r = subprocess.run(["gnuplot", figure + ".gp"], cwd=probe, capture_output=True, text=True)
    m = re.search(r"AREA ([\d.e+]+) ([\d.e+]+) ([\d.e+]+) ([\d.e+]+)", r.stderr + r.stdout)
    if not m:
        return None
    xmin, xmax, xsize, scale = (float(g) for g in m.groups())
    return (xmax - xmin) * scale / xsize


for plots, figure in [(os.path.join(one, "plots"), "larm-domain0")] + \
        [(out4, f"larm-domain{d}") for d in range(4)]:
    fraction = plot_area_fraction(plots, figure)
    c.check(fraction is not None and fraction >= 0.6,
            f"{figure}: plot area {fraction} of the image width, expected at least 0.6")
    print(f"{figure}: plot area {fraction:.2f} of the image width" if fraction else f"{figure}: no area")

# 4. No gnuplot on PATH: scripts and data still written, a message, exit 0.
nogp = os.path.join(work, "nogp")
shutil.copytree(reference, nogp)
r = run(larm, "plot", nogp, env={"PATH": "/nonexistent"})
c.check(r.returncode == 0, f"no-gnuplot exit {r.returncode}: {r.stderr}")
c.check("gnuplot not found" in r.stderr, f"no-gnuplot message: {r.stderr!r}")
c.check(os.path.exists(os.path.join(nogp, "plots", "larm-domain0.gp")), "script not written")
c.check(not os.path.exists(os.path.join(nogp, "plots", "larm-domain0.png")), "png without gnuplot?")
c.finish()
