"""Checks the console of weighted_interleave_guest.sh: each run's pages per node against its
weights within 2 %, and the refusals with one line and exit 2.
    check_weighted.py CONSOLE"""
import re
import sys

text = open(sys.argv[1]).read()
failures = 0


def fail(message):
    global failures
    failures += 1
    print(f"FAIL: {message}", file=sys.stderr)


kernel = re.search(r"@@kernel (\S+)", text)
if not kernel:
    print(text[-3000:], file=sys.stderr)
    sys.exit("the guest did not run the test")
print(f"guest kernel {kernel.group(1)}")


def block(header):
    m = re.search(re.escape(header) + r" status=(\d+)\n(.*?)@@end", text, re.S)
    return (int(m.group(1)), m.group(2)) if m else (None, "")


for name, expected in (("differ", "echo 3 > /sys/kernel/mm/mempolicy/weighted_interleave/node0"),
                       ("unknown", "node 5 is not a memory of this machine")):
    status, out = block("@@" + name)
    lines = out.strip().splitlines()
    if status != 2 or len(lines) != 1 or not lines[0].startswith("larm: error:") or \
            expected not in lines[0]:
        fail(f"{name}: status {status}, output {out!r}, expected one line with {expected!r}")
    else:
        print(f"{name}: refused: {lines[0]}")

for spec in ("0:3,1:1", "0:1,1:1,2:2", "0:1,2:4"):
    status, out = block("@@census " + spec)
    weights = {int(n): int(w) for n, w in (item.split(":") for item in spec.split(","))}
    counts = {int(n): int(c) for n, c in re.findall(r"^node (\d+): (\d+)$", out, re.M)}
    if status != 0 or sum(counts.values()) != 4096:
        fail(f"census {spec}: status {status}, output {out!r}")
        continue
    total = sum(weights.values())
    shares = []
    for node in sorted(set(weights) | set(counts)):
        share = counts.get(node, 0) / 4096
        asked = weights.get(node, 0) / total
        shares.append(f"node {node} {share:.4f} (asked {asked:.4f})")
        if abs(share - asked) > 0.02:
            fail(f"census {spec}: node {node} holds {share:.4f} of the pages, weights ask {asked:.4f}")
    print(f"census {spec}: " + ", ".join(shares))
sys.exit(1 if failures else 0)
