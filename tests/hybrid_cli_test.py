"""End-to-end test of `larm hybrid`: on this one-node machine the sweep says it is not
applicable (and its hybrid.json says so, valid against the schema); fit and predict work on a
samples CSV made from the thesis' Skylake θ with 1 % noise, recover θ, and refuse bad input with
one line and exit 2.
    hybrid_cli_test.py LARM SCHEMA"""
import json
import os
import random
import subprocess
import sys
import tempfile

import jsonschema

from cli_helpers import Checker, run

larm, schema_file = sys.argv[1], sys.argv[2]
schema = json.load(open(schema_file))
c = Checker()
work = tempfile.mkdtemp(prefix="larm-hybrid-")

# The thesis' table 4.3 (Skylake), as THETA[dominant][other], and bandwidths of that order.
THETA = {"lr": {"er": 0.966, "ll": 0.600, "el": -0.102}, "ll": {"er": 0.465, "lr": 0.294, "el": 0.373},
         "er": {"lr": 0.912, "ll": 0.067, "el": 0.337}, "el": {"er": 0.059, "ll": 0.293, "lr": 0.54}}
B = {"ll": 30.0, "lr": 95.0, "el": 20.0, "er": 60.0}


def model_seconds(f, r, total=1e9):
    q = {"lr": total * r * f, "ll": total * r * (1 - f), "er": total * (1 - r) * f,
         "el": total * (1 - r) * (1 - f)}
    t = {k: q[k] / (B[k] * 1e9) for k in q}
    k = max(t, key=t.get)
    return t[k] + sum(THETA[k][j] * t[j] for j in t if j != k)


def write(name, text):
    path = os.path.join(work, name)
    with open(path, "w") as f:
        f.write(text)
    return path


def one_line_error(result, expected, what):
    lines = result.stderr.strip().splitlines()
    c.check(result.returncode == 2, f"{what}: exit {result.returncode}, expected 2")
    c.check(len(lines) == 1 and lines[0].startswith("larm: error:") and expected in lines[0],
            f"{what}: stderr {result.stderr!r}, expected one line with {expected!r}")


# The sweep: one memory here.
out = os.path.join(work, "sweep")
r = run(larm, "hybrid", "sweep", "--out", out)
c.check(r.returncode == 0, f"sweep exit {r.returncode}: {r.stderr}")
c.check("not applicable" in r.stdout and "one memory" in r.stdout, f"sweep said {r.stdout!r}")
doc = json.load(open(os.path.join(out, "hybrid.json")))
jsonschema.validate(doc, schema)
c.check(doc["status"] == "not_applicable" and doc["sweep"] == [] and doc["fit"] is None,
        "not-applicable hybrid.json carries values")

# A synthetic sweep: 11 x 5 grid, 1 % noise.
random.seed(7)
rows = ["# thesis Skylake θ, 1 % noise", "ratio_fast,ratio_read,gbps"]
for i in range(11):
    for rr in (0, 0.25, 0.5, 0.75, 1):
        t = model_seconds(i / 10, rr) * (1 + random.gauss(0, 0.01))
        rows.append(f"{i / 10},{rr},{1e9 / t / 1e9:.6f}")
samples = write("samples.csv", "\n".join(rows) + "\n")
r = run(larm, "hybrid", "fit", samples, "--json")
c.check(r.returncode == 0, f"fit exit {r.returncode}: {r.stderr}")
fit = json.loads(r.stdout)
worst = max(abs(fit["piecewise"]["theta"][k][j] - THETA[k][j]) for k in THETA for j in THETA[k])
print(f"fit: largest θ error {worst:.3f}, mean relative error "
      f"{100 * fit['piecewise']['mean_relative_error']:.2f} %")
c.check(worst < 0.15, f"θ not recovered: largest error {worst}")
c.check(fit["piecewise"]["mean_relative_error"] < 0.01, "mean relative error above 1 %")
for k in B:
    c.check(abs(fit["bandwidths_gbps"][k] - B[k]) / B[k] < 0.05, f"b_{k} {fit['bandwidths_gbps'][k]}")

# The fit saved, then a prediction from it, and from the CSV directly: the same numbers.
saved = os.path.join(work, "fit.json")
r = run(larm, "hybrid", "fit", samples, "--out", saved)
c.check(r.returncode == 0 and "Piecewise model" in r.stdout, f"fit text: {r.stdout} {r.stderr}")
jsonschema.validate(json.load(open(saved)), schema)
p1 = run(larm, "hybrid", "predict", saved, "--ratio-fast", "0.5", "--ratio-read", "0.75", "--json")
p2 = run(larm, "hybrid", "predict", samples, "--q", "1.875e8,1.875e8,6.25e7,6.25e7", "--json")
c.check(p1.returncode == 0 and p2.returncode == 0, f"predict: {p1.stderr} {p2.stderr}")
a, b = json.loads(p1.stdout), json.loads(p2.stdout)
c.check(abs(a["piecewise"]["gbps"] - b["piecewise"]["gbps"]) < 1e-6 * a["piecewise"]["gbps"],
        f"predictions differ: {a['piecewise']} {b['piecewise']}")
c.check(a["lower_bound"]["gbps"] <= a["piecewise"]["gbps"] <= a["upper_bound"]["gbps"] * 1.001,
        f"model outside its bounds: {a}")
truth = 1e9 / model_seconds(0.5, 0.75) / 1e9
c.check(abs(a["piecewise"]["gbps"] / truth - 1) < 0.02, f"prediction {a['piecewise']} vs truth {truth}")

# hybrid.csv's own format (extra columns, set and status) reads back.
r = run(larm, "hybrid", "fit", write("larm.csv", "set,kernel,ratio_fast,ratio_read,gbps,status\n"
                                     + "\n".join(f"sweep,rw,{line},ok" for line in rows[2:])
                                     + "\nvalidation,copy,0.5,0.5,1,ok\nsweep,rw,0.5,0.5,1,misplaced\n"),
        "--json")
c.check(r.returncode == 0 and json.loads(r.stdout)["samples"] == 55, f"hybrid.csv refit: {r.stderr}")

# Bad input: one line, exit 2.
one_line_error(run(larm, "hybrid", "fit", os.path.join(work, "none.csv")), "cannot read", "missing file")
one_line_error(run(larm, "hybrid", "fit", write("short.csv", "ratio_fast,ratio_read,gbps\n0.5,1\n")),
               "short.csv:2: 2 fields, the header has 3", "short row")
one_line_error(run(larm, "hybrid", "fit", write("nan.csv", "ratio_fast,ratio_read,gbps\n0.5,nan,3\n")),
               "nan.csv:2: ratio_read is nan", "NaN")
one_line_error(run(larm, "hybrid", "fit", write("hdr.csv", "fast,read,bw\n0.5,1,3\n")),
               "the header lacks ratio_fast, ratio_read", "no known columns")
one_line_error(run(larm, "hybrid", "fit", write("zero.csv", "q_ll,q_lr,q_el,q_er,seconds\n0,0,0,0,1\n")),
               "zero bytes", "zero bytes")
slow_only = "ratio_fast,ratio_read,gbps\n" + "".join(f"0,{rr},10\n" for rr in (0, 0.5, 1))
one_line_error(run(larm, "hybrid", "fit", write("slow.csv", slow_only), "--bandwidths", "10,10,10,10"),
               "slow memory only", "one memory")
one_piece = "ratio_fast,ratio_read,gbps\n" + "".join(f"{f},1,10\n" for f in (0, 0.1, 0.2))
one_line_error(run(larm, "hybrid", "fit", write("piece.csv", one_piece), "--bandwidths", "30,95,20,60"),
               "are in piece ll", "one piece")
one_line_error(run(larm, "hybrid", "fit", write("nocorner.csv", one_piece)), "to give b_lr",
               "no corner sample")
one_line_error(run(larm, "hybrid", "fit", samples, "--bandwidths", "1,2"), "four values", "bandwidths")
one_line_error(run(larm, "hybrid", "predict", samples), "give the quantities", "predict without q")
one_line_error(run(larm, "hybrid", "predict", samples, "--q", "-1,0,0,0"), "q_ll is -1", "negative q")
one_line_error(run(larm, "hybrid", "sweep", "--fast", "0"), "both --fast and --slow", "fast alone")
one_line_error(run(larm, "hybrid", "sweep", "--ratio-read", "0.01"), "stay in cache", "tiny ratio")
one_line_error(run(larm, "hybrid", "sweep", "--domain", "9"), "domain 9 does not exist", "domain")
c.finish()
