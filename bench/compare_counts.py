"""Two larm outputs' counts side by side, region by region (or function by function): FLOPs,
bytes and the bytes each level serves, and their difference in percent. For the plugin against
the Valgrind tool: `larm profile` of a plugin build and of a plain build, or `larm count`'s
counted files of both.

  compare_counts.py A B [--levels] [--widths] [--all]

--widths adds each side's share of 512-bit FLOPs (an AVX-512 or SVE build against an x86-64-v3 or
NEON build of the same source: FLOPs equal, the width moved).

A and B: a regions.json, or a directory of the counts per function (larm profile's counted/:
every function counted, placed or not, by its linker symbol). A region or function is matched by
name; one in only one side is listed as such."""
import json
import os
import sys

LEVELS = ("bytes_l2_read", "bytes_l3_read", "bytes_memory_read", "bytes_memory_written")
WIDEST = ("flops_dp_512", "flops_sp_512")


def functions(directory):
    """Per function symbol, its counts summed over threads and processes, as regions' machine."""
    out = {}
    for file in sorted(os.listdir(directory)):
        if not file.startswith("functions-"):
            continue
        names, symbols = [], {}
        for line in open(os.path.join(directory, file)):
            fields = line.rstrip("\n").split("\t")
            if fields[0] == "counts":
                names = fields[1:]
            elif fields[0] == "f":
                symbols[fields[1]] = fields[3]
            elif fields[0] == "c" and fields[2] in symbols:
                counts = dict(zip(names, map(float, fields[3:])))
                m = out.setdefault(symbols[fields[2]], {"flops": 0, "bytes": 0, "counted": {}})
                m["flops"] += sum(v for k, v in counts.items() if k.startswith("flops_"))
                m["bytes"] += counts.get("bytes_loaded", 0) + counts.get("bytes_stored", 0)
                for k, v in counts.items():
                    m["counted"][k] = m["counted"].get(k, 0) + v
    return out


def regions(path):
    if os.path.isdir(path):
        return functions(path)
    with open(path) as f:
        return {r["name"]: r["machine"] for r in json.load(f)["regions"]}


def diff(a, b):
    if not b:
        return "-" if a else "0"
    return f"{100 * (a / b - 1):+.2f} %"


def main(argv):
    if len(argv) < 2:
        sys.exit(__doc__)
    a, b = regions(argv[0]), regions(argv[1])
    levels = "--levels" in argv[2:]
    widths = "--widths" in argv[2:]
    print(f"{'region':<28} {'GFLOP A':>10} {'GFLOP B':>10} {'diff':>9}  {'GB A':>9} {'GB B':>9} "
          f"{'diff':>9}" + ("".join(f"  {k[6:]:>22}" for k in LEVELS) if levels else "") +
          (f"  {'512-bit A':>9} {'512-bit B':>9}" if widths else ""))
    for name in sorted(set(a) | set(b)):
        if (a.get(name, {}).get("flops") or 0) + (b.get(name, {}).get("flops") or 0) == 0 and \
                "--all" not in argv[2:]:
            continue  # no FLOPs on either side (--all lists them)
        if name not in a or name not in b:
            print(f"{name[:28]:<28} only in {'A' if name in a else 'B'}")
            continue
        fa, fb = a[name].get("flops") or 0, b[name].get("flops") or 0
        ba, bb = a[name].get("bytes") or 0, b[name].get("bytes") or 0
        line = (f"{name[:28]:<28} {fa * 1e-9:>10.4f} {fb * 1e-9:>10.4f} {diff(fa, fb):>9}  "
                f"{ba * 1e-9:>9.4f} {bb * 1e-9:>9.4f} {diff(ba, bb):>9}")
        if levels:
            for k in LEVELS:
                la = a[name].get("counted", {}).get(k, 0)
                lb = b[name].get("counted", {}).get(k, 0)
                line += f"  {la * 1e-9:>7.3f} {lb * 1e-9:>7.3f} {diff(la, lb):>6}"
        if widths:
            for side, flops in ((a[name], fa), (b[name], fb)):
                wide = sum(side.get("counted", {}).get(k, 0) for k in WIDEST)
                line += f"  {100 * wide / flops:>8.1f}%" if flops else f"  {'-':>9}"
        print(line)


if __name__ == "__main__":
    main(sys.argv[1:])
