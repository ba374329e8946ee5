"""Kernels whose bottleneck an expert names from the source (count/known_answer_program.c), counted
by larm count on this machine's quick characterization and placed: each verdict the expert's, and
the same in every output that tells it.

  known_answer_test.py LARM BUILD_DIR

Expected, for the SSE2 build and the x86-64-v3 one:
- triad_dram: memory-bound (the local memory roof of its 2ld1st mix), at no more than that
  roof's interval above it (its bytes per level count what the roof's kernel counts);
- triad_l2: bound by the L2 roof;
- muladd_regs: compute-bound by the ceiling of its own mix (SSE2: adds and multiplies, never the
  add ceiling alone; x86-64-v3: FMAs), the next step a wider ISA where the node has one;
- stencil_l2: x86-64-v3: the L2 roof; SSE2: the L2 roof or its add-heavy FP mix (said which);
- chase: latency-bound (about one line in flight per thread), unless its runs were disturbed;
- gather: its misses overlap (many lines in flight): not latency-bound.
Every region's bound is the same in place.json, advice.json, the LARM figure's caption, the
interactive roofline's data and report.md; its headline fits 100 columns.

Where the build has them (GCC with larm's plugin), the same kernels built through the plugin
(known_answer_plugin_*) count themselves in their native runs: every region's FLOPs, by width and
by kind, equal the Valgrind tool's count of the same source within 0.5 %; its bytes equal the
tool's within 3 % where both count the same memory instructions, and are fewer where the tool
counts more (the memory operands the register allocator adds: spills, constants read from the
constant pool, as the SSE2 triad reads its 3.0 each iteration), never fewer than the kernel's own;
its native runs are placed without a counting run."""
import json
import os
import re
import subprocess
import sys
import tempfile

larm, build = sys.argv[1], sys.argv[2]
failures = []


def check(condition, message):
    print(("ok    " if condition else "FAIL  ") + message)
    if not condition:
        failures.append(message)


def compare_plugin_counts(variant, counted_dir, out):
    """The plugin build's native counts against the Valgrind tool's counts of the same source."""
    program = os.path.join(build, "tests", f"known_answer_plugin_{variant}")
    if not os.path.exists(program):
        print(f"{variant}: no plugin build (the build's C compiler is not the plugin's GCC)")
        return
    r = run("count", "--repeat", "1", "--out", out, "--", program, "256", "1")
    check(r.returncode == 0, f"{variant} plugin: counted natively (exit {r.returncode}) "
          f"{r.stderr[-300:]}")
    if r.returncode != 0:
        return
    check("Counted by larm's compiler plugin" in r.stdout and
          not os.path.exists(os.path.join(out, "counted", "valgrind.log")),
          f"{variant} plugin: counts from the native run, no Valgrind run")
    native = json.load(open(os.path.join(out, "timed", "regions.json")))
    tool = json.load(open(os.path.join(counted_dir, "regions.json")))
    check(native["counters"].get("counted_by") == "compiler" and native["run"] == "timed",
          f"{variant} plugin: regions.json says counted_by compiler in a timed run")
    by_name = {reg["name"]: reg for reg in tool["regions"]}
    for reg in native["regions"]:
        other = by_name.get(reg["name"])
        if other is None:
            check(False, f"{variant} plugin: {reg['name']} is in the Valgrind count too")
            continue
        mine, theirs = reg["machine"], other["machine"]

        def near(a, b, share):
            return abs(a - b) <= share * max(abs(b), 1.0)

        flops, tool_flops = mine["flops"] or 0, theirs["flops"] or 0
        check(near(flops, tool_flops, 0.005), f"{variant} plugin: {reg['name']} FLOPs {flops:.6g}, "
              f"the Valgrind tool's {tool_flops:.6g}")
        for count in ("fma_flops", "add_flops", "mul_flops", "div_flops", "flops_dp_scalar",
                      "flops_dp_128", "flops_dp_256"):
            a, b = mine["counted"].get(count, 0), theirs["counted"].get(count, 0)
            check(near(a, b, 0.005) or abs(a - b) <= 0.005 * max(tool_flops, 1.0),
                  f"{variant} plugin: {reg['name']} {count} {a:.6g}, the tool's {b:.6g}")
        nbytes, tool_bytes = mine["bytes"] or 0, theirs["bytes"] or 0
        accesses = mine["counted"].get("loads", 0) + mine["counted"].get("stores", 0)
        tool_accesses = theirs["counted"].get("loads", 0) + theirs["counted"].get("stores", 0)
        # A region that touches no memory (muladd_regs) has only liblarm's and the calls' few kB.
        if tool_bytes < 65536:
            check(nbytes < 65536, f"{variant} plugin: {reg['name']} bytes {nbytes:.6g}, the "
                  f"Valgrind tool's {tool_bytes:.6g}: both a region's overhead alone")
        elif near(accesses, tool_accesses, 0.03):
            check(near(nbytes, tool_bytes, 0.03), f"{variant} plugin: {reg['name']} bytes "
                  f"{nbytes:.6g}, the Valgrind tool's {tool_bytes:.6g}")
        else:
            check(tool_accesses > accesses and nbytes < tool_bytes,
                  f"{variant} plugin: {reg['name']} bytes {nbytes:.6g} of {accesses:.6g} accesses, "
                  f"the tool's {tool_bytes:.6g} of {tool_accesses:.6g}: fewer where the machine "
                  "code reads more")
        # The triads' own bytes: 2 loads and a store of 8 bytes per 2 FLOPs.
        if reg["name"].startswith("triad"):
            check(near(nbytes, 12 * flops, 0.001),
                  f"{variant} plugin: {reg['name']} bytes {nbytes:.6g}, the kernel's {12 * flops:.6g}")


def html_escape(text):
    """As report.html escapes its text: & < > and " only."""
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;")


def run(*args, timeout=900):
    r = subprocess.run([larm, *args], capture_output=True, text=True, timeout=timeout,
                       env=dict(os.environ, OMP_NUM_THREADS="2", OMP_PROC_BIND="true"))
    return r


with tempfile.TemporaryDirectory(prefix="larm-known-answer-") as tmp:
    results = os.path.join(tmp, "results")
    r = run("characterize", "--quick", "--out", results)
    check(r.returncode == 0, f"quick characterization (exit {r.returncode}) {r.stderr[-300:]}")
    if r.returncode != 0:
        sys.exit(1)
    widest = json.load(open(os.path.join(results, "results.json")))["provenance"].get("isa")
    for variant in ("sse2", "v3"):
        out = os.path.join(tmp, variant)
        program = os.path.join(build, "tests", f"known_answer_{variant}")
        # A ring of 256 MiB: far past any cache the model has (the effective capacities of the
        # results); a million steps of chase per thread.
        r = run("count", "--results", results, "--repeat", "3", "--out", out, "--", program,
                "256", "1")
        check(r.returncode == 0, f"{variant}: counted (exit {r.returncode}) {r.stderr[-300:]}")
        if r.returncode != 0:
            continue
        timed, counted = os.path.join(out, "timed"), os.path.join(out, "counted")
        compare_plugin_counts(variant, counted, os.path.join(tmp, variant + "-plugin"))
        place_json = os.path.join(out, "place.json")
        r = run("place", results, timed, "--counts", counted, "--out", place_json)
        check(r.returncode == 0, f"{variant}: placed (exit {r.returncode}) {r.stderr[-300:]}")
        print(r.stdout)
        placed = {p["region"]: p for p in json.load(open(place_json))["regions"]}

        def bound(name):
            p = placed.get(name)
            return (p["kind"], (p["bound"] or {}).get("level"), (p["bound"] or {}).get("placement"),
                    (p["bound"] or {}).get("name", "")) if p else (None, None, None, "")

        kind, level, where, roof = bound("triad_dram")
        check(kind == "memory" and where == "local" and "2ld1st" in roof,
              f"{variant}: triad_dram memory-bound on the local 2ld1st roof: {kind} {roof}")
        p = placed.get("triad_dram")
        if p:
            check(p["bytes_convention"] == "program_per_level",
                  f"{variant}: triad_dram's bytes per level in the roofs' convention")
            # Counting the write-allocate reads against roofs that do not would give the memory
            # level 32 bytes an element, not the program's 24: its intensity 2/32, not 2/24. Read
            # from the counts, not from a time against a quick roof (a shared host moved that
            # share to 124 % of the roof where the bound was 120 %).
            memory = [l for l in p.get("levels", []) if (l.get("roof") or {}).get("level") == "memory"]
            ai = memory[0]["ai"] if memory else None
            check(ai is not None and abs(ai - 2 / 24) <= 0.05 * (2 / 24),
                  f"{variant}: triad_dram's memory-level intensity {ai} is 2 FLOPs per 24 bytes "
                  f"(2/32 would count the write-allocate reads)")
        kind, level, where, roof = bound("triad_l2")
        check(kind == "cache" and level == "L2", f"{variant}: triad_l2 on the L2 roof: {kind} {roof}")
        kind, level, where, roof = bound("muladd_regs")
        mix = placed.get("muladd_regs", {}).get("fp") or {}
        if variant == "sse2":
            check(kind == "compute" and roof.startswith("add+mul dp sse2"),
                  f"{variant}: muladd_regs against its add+mul mix's ceiling: {kind} {roof}")
            check(abs(mix.get("add", 0) - 0.5) < 0.01 and abs(mix.get("mul", 0) - 0.5) < 0.01,
                  f"{variant}: muladd_regs counted half adds, half multiplies: {mix}")
        else:
            check(kind == "compute" and roof.startswith("fma dp avx2"),
                  f"{variant}: muladd_regs against the fma avx2 ceiling: {kind} {roof}")
        steps = [s["step"] for s in placed.get("muladd_regs", {}).get("next", [])]
        if widest == "avx512" or variant == "sse2":
            check(steps[:1] == ["vectorize_wider"], f"{variant}: muladd_regs' next step: {steps}")
        kind, level, where, roof = bound("stencil_l2")
        # Where the L1 and L2 shares are within each other's intervals (a Zen 3 guest: L2 78 %,
        # L1 75 %), either may be the bound so long as the other is named as the runner-up.
        runner = ((placed.get("stencil_l2", {}).get("runner_up") or {}).get("roof") or {}).get("level")
        if variant == "v3":
            check(kind == "cache" and (level == "L2" or runner == "L2"),
                  f"{variant}: stencil_l2 on the L2 roof (or L2 the runner-up): {kind} {roof}, "
                  f"runner-up {runner}")
        else:
            check((kind == "cache" and level == "L2") or (kind == "compute" and roof.startswith("add+mul")),
                  f"{variant}: stencil_l2 on the L2 roof or its add-heavy mix: {kind} {roof}")
        chase = placed.get("chase", {})
        lines = (chase.get("lines_in_flight") or {})
        disturbed = "none clean" in chase.get("time", {}).get("estimator", "")
        check(chase.get("kind") == "latency" or disturbed or lines.get("reading") == "within_noise",
              f"{variant}: chase latency-bound: {chase.get('kind')}, "
              f"{lines.get('value', 0):.2f} lines in flight per thread ({chase.get('time')})")
        gather = placed.get("gather", {})
        glines = (gather.get("lines_in_flight") or {})
        check(gather.get("kind") != "latency" and glines.get("value", 0) > 2,
              f"{variant}: gather's misses overlap: {gather.get('kind')}, "
              f"{glines.get('value', 0):.1f} lines in flight per thread")
        table = r.stdout.splitlines()
        rows = table[next((i for i, line in enumerate(table) if line.startswith("region ")), 0):]
        check(all(len(line) <= 100 for line in rows), f"{variant}: every line of the table within "
              "100 columns")
        # Each region's headline: the line under its row.
        headlines = {}
        for i, line in enumerate(table[:-1]):
            name = line.split(" ", 1)[0]
            if name in placed and table[i + 1].startswith("    "):
                headlines[name] = table[i + 1].strip()
        # The same bound in every output: advise, the figure, the interactive data, the report.
        advice = os.path.join(out, "advice.json")
        r = run("advise", results, timed, "--counts", counted, "--placements", place_json,
                "--out", advice)
        check(r.returncode == 0, f"{variant}: advised (exit {r.returncode}) {r.stderr[-300:]}")
        advised = {a["region"]: a for a in json.load(open(advice))["regions"]} if r.returncode == 0 else {}
        report = os.path.join(out, "report")
        r = run("report", results, "--placements", place_json, "--out", report)
        check(r.returncode == 0, f"{variant}: reported (exit {r.returncode}) {r.stderr[-300:]}")
        md = open(os.path.join(report, "report.md")).read() if r.returncode == 0 else ""
        html = open(os.path.join(report, "report.html")).read() if r.returncode == 0 else ""
        figures = json.load(open(os.path.join(report, "plots", "figures.json")))["figures"] if r.returncode == 0 else []
        caption = next((f["caption"] for f in figures if f["name"] == "larm-domain0"), "")
        data = re.search(r'<script type="application/json" id="larm-roofline-data">(.*?)</script>', html, re.S)
        interactive = json.loads(data.group(1)) if data else {"domains": []}
        tips = {r["name"].split(" (")[0]: r["text"] for d in interactive["domains"] for r in d["regions"]}
        words = {"compute": "compute", "cache": None, "memory": "memory local", "latency": "latency",
                 "unexplained": "unexplained"}
        for name, p in placed.items():
            a = advised.get(name, {})
            check(a.get("verdict", {}).get("kind") == p["kind"] and
                  a.get("verdict", {}).get("bound") == (p["bound"] or {}).get("name"),
                  f"{variant}: {name}: advise says {a.get('verdict')}, place {p['kind']}")
            word = words.get(p["kind"]) or (p["bound"] or {}).get("level")
            if p["ai"] and p["gflops"]:  # a region without FLOPs has no point on log axes
                check(f"{name} of default: {word}" in caption,
                      f"{variant}: {name}: the figure says {word}")
            check(f"**{name}** (default, domain 0): " in md, f"{variant}: {name}: report.md's headline")
            headline = headlines.get(name, "?")
            check(html_escape(headline) in html, f"{variant}: {name}: report.html says {headline!r}")
            if p["ai"] and p["gflops"]:
                check(tips.get(name, "").endswith(headline),
                      f"{variant}: {name}: the interactive roofline says {tips.get(name)!r}")
    if failures:
        print(f"{len(failures)} failed")
        sys.exit(1)
    print("all passed")
