#!/usr/bin/env bash
# verdict_stability.sh LARM RESULTS OUT REPS -- NAME COMMAND [-- NAME COMMAND ...]
# `larm count` then `larm place` of each command, REPS times; one line per region and repetition:
# name, repetition, region, bound kind, bound, stable/unstable, distance below, time spread,
# estimator. The verdicts of one region should agree in every repetition, or be marked unstable.
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
      --json "$d.place.json" >"$d.place.log" 2>&1
    python3 - "$d.place.json" "${names[$i]}" "$rep" <<'PY'
import json, sys
for p in json.load(open(sys.argv[1])):
    print(sys.argv[2], sys.argv[3], p["region"], p["bound_kind"], p["bound_by"],
          "unstable" if p["unstable"] else "stable", "%.0f%%" % p["distance_percent"],
          "%.1f%%" % (100 * (p["time_spread"] or 0)), p["time_estimator"])
PY
  done
done
