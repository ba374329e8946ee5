#!/usr/bin/env bash
# verdict_stability.sh LARM RESULTS OUT REPS -- NAME COMMAND [-- NAME COMMAND ...]
# `larm count` then `larm place` of each command, REPS times; one line per region and repetition:
# name, repetition, region, bound kind (a cache level, memory-PLACEMENT, compute, latency,
# unexplained), bound, its share of it, stable/unstable, time spread, memory lines in flight per
# thread, estimator. The verdicts of one region should agree in every repetition, or be marked unstable.
#   verdict_stability.sh larm results/vm out 5 -- mgW "bin/mg.W" -- xsb "./XSBench -t 2 -s small -l 200000"
set -u
larm=$1 results=$2 out=$3 reps=$4
shift 4
names=() commands=()
while [ $# -ge 3 ] && [ "$1" = "--" ]; do names+=("$2"); commands+=("$3"); shift 3; done
mkdir -p "$out"
for rep in $(seq 1 "$reps"); do
  for i in "${!names[@]}"; do
    d="$out/${names[$i]}-$rep"
    rm -rf "$d"
    # shellcheck disable=SC2086  # the command is a word list
    timeout 1800 "$larm" count --results "$results" --out "$d" -- ${commands[$i]} >"$d.count.log" 2>&1
    timeout 300 "$larm" place "$results" "$d/timed/regions.json" --counts "$d/counted/regions.json" \
      --out "$d.place.json" >"$d.place.log" 2>&1
    python3 - "$d.place.json" "${names[$i]}" "$rep" <<'PY'
import json, sys
for p in json.load(open(sys.argv[1]))["regions"]:
    bound = p["bound"] or {}
    word = {"memory": "memory-" + str(bound.get("placement"))}.get(p["kind"], p["kind"])
    if p["kind"] == "cache":
        word = bound.get("level")
    lines = (p["lines_in_flight"] or {}).get("value")
    print(sys.argv[2], sys.argv[3], p["region"], word, bound.get("name", "-").replace(" ", "_"),
          "%.0f%%" % (100 * p["share"]), "unstable" if p["time"]["unstable"] else "stable",
          "%.1f%%" % (100 * p["time"]["spread"]),
          "lines=%.2f" % lines if lines is not None else "lines=-",
          p["time"]["estimator"].replace(" ", "_"))
PY
  done
done
