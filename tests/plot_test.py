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
import zlib

from cli_helpers import Checker, run

larm, reference, regions, four_domains = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4]
c = Checker()
work = tempfile.mkdtemp(prefix="larm-plot-")


def png_size(path):
    with open(path, "rb") as f:
        head = f.read(24)
    return struct.unpack(">II", head[16:24]) if head[:8] == b"\x89PNG\r\n\x1a\n" else None


def png_pixels(path):
    """Width, height, bytes per pixel and rows of an 8-bit RGB(A) or grey PNG (zlib, filters)."""
    data = open(path, "rb").read()
    pos, idat, width, height, kind = 8, b"", 0, 0, 2
    while pos < len(data):
        n, = struct.unpack(">I", data[pos:pos + 4])
        tag, body = data[pos + 4:pos + 8], data[pos + 8:pos + 8 + n]
        if tag == b"IHDR":
            width, height, _, kind = struct.unpack(">IIBB", body[:10])
        elif tag == b"IDAT":
            idat += body
        pos += 12 + n
    raw, bpp = zlib.decompress(idat), {0: 1, 2: 3, 4: 2, 6: 4}[kind]
    stride, rows, previous, i = width * bpp, [], bytearray(width * bpp), 0
    for _ in range(height):
        kind_of_filter, line = raw[i], bytearray(raw[i + 1:i + 1 + stride])
        i += 1 + stride
        for x in range(stride):
            a = line[x - bpp] if x >= bpp else 0
            b, cc = previous[x], previous[x - bpp] if x >= bpp else 0
            if kind_of_filter == 1:
                line[x] = (line[x] + a) & 255
            elif kind_of_filter == 2:
                line[x] = (line[x] + b) & 255
            elif kind_of_filter == 3:
                line[x] = (line[x] + ((a + b) >> 1)) & 255
            elif kind_of_filter == 4:
                p = a + b - cc
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - cc)
                line[x] = (line[x] + (a if pa <= pb and pa <= pc else b if pb <= pc else cc)) & 255
        rows.append(line)
        previous = line
    return width, height, bpp, rows


def ink_on_edges(path):
    """Dark pixels on the image's outermost rows and columns: text or lines cut by the edge."""
    width, height, bpp, rows = png_pixels(path)
    dark = lambda x, y: sum(rows[y][x * bpp:x * bpp + min(bpp, 3)]) < min(bpp, 3) * 160
    edge = [(x, y) for x in range(width) for y in (0, height - 1)] + \
           [(x, y) for y in range(height) for x in (0, width - 1)]
    return sum(1 for x, y in edge if dark(x, y))


def check_figures(out, expected_names, svg_labels):
    index = json.load(open(os.path.join(out, "figures.json")))
    names = [f["name"] for f in index["figures"]]
    c.check(sorted(names) == sorted(expected_names), f"figures {names}, expected {expected_names}")
    for f in index["figures"]:
        c.check(f["error"] == "", f"{f['name']}: {f['error']}")
        c.check(os.path.getsize(os.path.join(out, f["script"])) > 0, f"{f['name']}: no script")
        # The automated figure check (report/figure_check.h) ran on its SVG and passed, and its
        # PNG has nothing cut by the edge.
        c.check(f["checked"] and f["problems"] == [], f"{f['name']}: figure check {f['problems']}")
        png = os.path.join(out, f["name"] + ".png")
        if os.path.exists(png):
            c.check_equal(ink_on_edges(png), 0, f"{f['name']}.png: dark pixels on its edge")
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


# 1. This machine: one domain, one memory, regions, no hybrid sweep (the reference results of
# 2026-11-25: one-core sweep, latency sweep, contention and cache scaling curves).
one = os.path.join(work, "one")
shutil.copytree(reference, one)
r = run(larm, "plot", one, "--regions", regions)
c.check(r.returncode == 0, f"plot exit {r.returncode}: {r.stderr}")
index = check_figures(os.path.join(one, "plots"),
                      ["larm-domain0", "validation-domain0", "sweep-domain0",
                       "latency-sweep-domain0", "contention-curves", "scaling-domain0"],
                      {"larm-domain0": ["L1: ", "GB/s", "fma", "Arithmetic intensity", "load roofs",
                                        "triad"],
                       "validation-domain0": ["L1 load: E ", "MARE", "memory 0 local load: E "],
                       "sweep-domain0": ["L1 48 KiB", "Working set per thread"]})
c.check(any("hybrid" in o for o in index["omitted"]), f"omitted {index['omitted']}")
# One domain and one memory: a 1 x 1 heatmap would say nothing the LARM figure does not.
c.check(any(o.startswith("bandwidth matrix: one domain and one memory") for o in index["omitted"]),
        f"the one-cell heatmap is not omitted with its reason: {index['omitted']}")
sweep_caption = next(f["caption"] for f in index["figures"] if f["name"] == "sweep-domain0")
c.check("of one core alone" in sweep_caption, f"sweep caption {sweep_caption!r}")
# A kernel in registers (1e5 FLOP/byte): the x axis reaches past it, its point drawn, every label
# on the canvas (check_figures refuses any figure problem).
regs_doc = json.load(open(os.path.join(regions, "regions.json")))
for region in regs_doc["regions"]:
    region["name"] = "in_registers"
    for e in region["threads"] + region["domains"] + [region["machine"]]:
        e["bytes"] = e["bytes"] / 1.2e6 if e.get("bytes") else e.get("bytes")
        if e.get("gbps"):
            e["gbps"] /= 1.2e6
        if e.get("ai"):
            e["ai"] *= 1.2e6
regs = os.path.join(work, "registers-regions.json")
json.dump(regs_doc, open(regs, "w"))
regs_out = os.path.join(work, "registers-plots")
r = run(larm, "plot", one, "--regions", regs, "--out", regs_out)
c.check(r.returncode == 0, f"plot of a kernel in registers: exit {r.returncode}: {r.stderr[-300:]}")
if r.returncode == 0:
    check_figures(regs_out, ["larm-domain0", "validation-domain0", "sweep-domain0",
                             "latency-sweep-domain0", "contention-curves", "scaling-domain0"],
                  {"larm-domain0": ["in_registers"]})
    gp = open(os.path.join(regs_out, "larm-domain0.gp")).read()
    high = float(re.search(r"set xrange \[[^:]+:([0-9.e+]+)\]", gp).group(1))
    c.check(high > 1.5e5, f"a kernel at 1e5 FLOP/byte inside the x axis: it ends at {high:g}")
# A sweep that stopped at memory's plateau may end before a declared cache size: its marks stay
# within the sizes swept (else the label would leave the canvas, which larm's check refuses).
sweep_script = open(os.path.join(one, "plots", "sweep-domain0.gp")).read()
sizes = [float(x) for x in re.findall(r"set arrow from ([0-9.e+]+),", sweep_script)]
swept = [float(line.split()[0]) for line in open(os.path.join(one, "plots", "sweep-domain0.dat"))
         if line.strip() and not line.startswith("#")]
c.check(sizes and all(min(swept) / 1.2 <= x <= max(swept) * 1.2 for x in sizes),
        f"a size mark outside the sweep's range: {sizes}")
c.check("L3 effective" in sweep_script, "the sweep figure lacks the effective L3")
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
              {"larm-domain2": ["HBM remote", "congestion (all memories)", "DRAM contention",
                                "mem 4 DRAM local"],
               "hybrid-sweep": ["ratio_read 0.25", "model", "measured"],
               "contention-curves": ["knee 4", "memory 1", "Threads"],
               # The one-core sweep beside the all-core one; cache and memory scaling
               # with their knees; STREAM against the model per thread (thesis fig. 4.12).
               "sweep-domain0": ["load, one core", "load, 2 threads", "copy, one core"],
               "scaling-domain0": ["L3 (cores sharing one)", "memory 0 (contention curve)", "knee 3",
                                   "knee 4"],
               "scaling-domain2": ["L3 (cores sharing one)", "knee 3"],
               "hybrid-validation": ["ratio_read 0.67, MARE", "read, fast (HBM)", "write, slow (DRAM)",
                                     "micro-benchmark, same ratio", "STREAM kernel", "per thread"],
               "matrix-bandwidth": ["132.2", "19.83", "1 HBM", "0 DRAM"]})
c.check(os.path.getsize(os.path.join(out4, "larm-domain0.pdf")) > 1000, "no pdf")
captions4 = {f["name"]: f["caption"] for f in index4["figures"]}
c.check("local memory" in captions4.get("scaling-domain2", "") and
        "(not measured)" in captions4.get("scaling-domain2", ""),
        f"scaling-domain2 caption {captions4.get('scaling-domain2')!r}")
c.check("L3: 3 threads" in captions4.get("scaling-domain0", ""), f"{captions4.get('scaling-domain0')!r}")
c.check("8 threads" in captions4.get("hybrid-validation", "") and
        "MARE" in captions4.get("hybrid-validation", ""), f"{captions4.get('hybrid-validation')!r}")
c.check("one core alone" in captions4.get("sweep-domain0", ""), f"{captions4.get('sweep-domain0')!r}")

# 3. The per-domain LARM figures' plot area: at least 60 % of the image width, the key
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

# 3b. Equal roofs share one line and one key entry that names them all (a congestion
# roof equal to the local one hid under it), and the figure check fails a figure that loses one.
equal = os.path.join(work, "equal")
shutil.copytree(four_domains, equal)
doc = json.load(open(os.path.join(equal, "results.json")))
local0 = next(r["roof"] for r in doc["roofs"] if r["domain"] == 0 and r["placement"] == "local"
              and r["level"] == "memory" and r["access"] == "load")
for roof in doc["roofs"]:
    if roof["domain"] == 0 and roof["placement"] == "congestion" and roof["access"] == "load":
        roof["roof"] = local0
        roof["samples"] = [local0]
        roof["stats"] = {**roof["stats"], "median": local0, "min": local0, "max": local0, "mean": local0}
json.dump(doc, open(os.path.join(equal, "results.json"), "w"))
r = run(larm, "plot", equal, "--check")
c.check_equal(r.returncode, 0, "plot --check with equal roofs: " + r.stderr)
svg0 = open(os.path.join(equal, "plots", "larm-domain0.svg")).read()
c.check(re.search(r"DRAM local = congestion \(all memories\)|congestion \(all memories\) = .*DRAM local",
                  svg0) is not None, "the congestion roof named in the local roof's entry")

# One point per size in each series of the size sweep (a size measured several times was joined
# into a vertical zig-zag, which the figure check now refuses).
for block in open(os.path.join(one, "plots", "sweep-domain0.dat")).read().split("\n\n\n"):
    sizes = [line.split()[0] for line in block.splitlines() if line and not line.startswith("#")]
    c.check(len(sizes) == len(set(sizes)), f"a size drawn twice in one sweep series: {sizes[:8]}")

# 4. No gnuplot on PATH: scripts and data still written, a message, exit 0.
nogp = os.path.join(work, "nogp")
shutil.copytree(reference, nogp)
r = run(larm, "plot", nogp, env={"PATH": "/nonexistent"})
c.check(r.returncode == 0, f"no-gnuplot exit {r.returncode}: {r.stderr}")
c.check("gnuplot not found" in r.stderr, f"no-gnuplot message: {r.stderr!r}")
c.check(os.path.exists(os.path.join(nogp, "plots", "larm-domain0.gp")), "script not written")
c.check(not os.path.exists(os.path.join(nogp, "plots", "larm-domain0.png")), "png without gnuplot?")
# Thesis fig. 4.7 on the Table 4.2 node (three runs: bind0, firsttouch, interleave; regions ddot
# and dgemm): a region's shape names the region, its colour the run; the key has an entry for
# each; no region colour is a roof's.
broadwell = os.path.join(work, "broadwell")
shutil.copytree(os.path.join(os.path.dirname(four_domains), "broadwell-table42"), broadwell)
runs = sorted(os.path.join(broadwell, f) for f in os.listdir(broadwell) if f.startswith("regions-"))
r = run(larm, "plot", broadwell, "--regions", *runs, "--check")
c.check(r.returncode == 0, f"plot of the Table 4.2 node with its regions: {r.stderr[-400:]}")
gp = open(os.path.join(broadwell, "plots", "larm-domain0.gp")).read()
for entry in ("run: bind0", "run: firsttouch", "run: interleave", "region: ddot", "region: dgemm"):
    c.check(entry in gp, f"the LARM key lacks {entry!r}")
c.check("pt variable" in gp, "regions are not drawn with a shape per region")
roof_colours = set(re.findall(r'min\(x\*[^)]*\) with lines lc rgb "(#[0-9A-Fa-f]{6})"', gp))
region_colours = set(re.findall(r'pt variable ps [0-9.]+ lc rgb "(#[0-9A-Fa-f]{6})"', gp))
c.check(len(region_colours) == 3 and not (roof_colours & region_colours),
        f"region colours {region_colours} against roof colours {roof_colours}")
# Roofs closer than the figure can tell apart (16.70, 17.50 and 18.10 GB/s, a pixel apart) are
# one line, each named with its value in the key; the side-by-side figure has a key.
c.check("'(same line) mem 1 DRAM remote: 17.50 GB/s'" in gp, "close roofs not drawn as one")
both = open(os.path.join(broadwell, "plots", "larm-domains.gp")).read()
for entry in ("keyentry", "'mem 3 DRAM'", "'contention'", "'run: bind0'", "'region: dgemm'"):
    c.check(entry in both, f"the side-by-side figure's key lacks {entry}")
c.finish()
