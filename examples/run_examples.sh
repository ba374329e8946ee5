#!/usr/bin/env bash
# Runs every instrumented example (ddot, dgemm, triad, stencil) with first-touch, interleaved
# and single-memory data, then places their regions on the roofs of a results directory.
#
#   examples/run_examples.sh RESULTS_DIR [--out DIR] [--build DIR] [--small]
#
# RESULTS_DIR comes from `larm characterize` (scripts/run.sh). Each run writes
# OUT/<example>-<placement>/regions.json with the placement as its label (LARM_LABEL); the
# placements are printed and saved in OUT/placements.json. --small runs tiny problems (tests).
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
usage() { echo "usage: $0 RESULTS_DIR [--out DIR] [--build DIR] [--small]" >&2; exit 2; }
[[ $# -ge 1 ]] || usage
results=$1
shift
out="$root/results/examples-$(hostname)-$(date +%Y-%m-%d)"
build="$root/build/release"
small=0
while [[ $# -gt 0 ]]; do
  case $1 in
    --out) out=${2:?--out needs a directory}; shift 2 ;;
    --build) build=${2:?--build needs a directory}; shift 2 ;;
    --small) small=1; shift ;;
    *) usage ;;
  esac
done
[[ -f "$results/results.json" ]] || { echo "error: no results.json in $results" >&2; exit 2; }
if [[ ! -x "$build/examples/ddot" || ! -x "$build/tools/larm" ]]; then
  cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DLARM_BUILD_TESTS=OFF >/dev/null
  cmake --build "$build"
fi

# The memories to place data on: every NUMA node that has memory (single:N for each one).
nodes=$(ls -d /sys/devices/system/node/node[0-9]* 2>/dev/null | sed 's/.*node//' | sort -n || true)
placements="firsttouch interleave"
for n in ${nodes:-0}; do placements="$placements single:$n"; done

declare -A sizes=([ddot]="" [triad]="" [dgemm]="" [stencil]="")
if [[ $small == 1 ]]; then
  sizes=([ddot]="--size 200000 --repetitions 3" [triad]="--size 200000 --repetitions 3"
         [dgemm]="--size 128 --repetitions 1" [stencil]="--size 40 --repetitions 2")
fi

mkdir -p "$out"
for example in ddot dgemm triad stencil; do
  for placement in $placements; do
    label=${placement/:/}
    dir="$out/$example-$label"
    rm -rf "$dir" && mkdir -p "$dir"
    # shellcheck disable=SC2086  # sizes hold several words on purpose
    LARM_OUT="$dir" LARM_LABEL="$label" OMP_PROC_BIND=close OMP_PLACES=cores \
      "$build/examples/$example" --placement "$placement" ${sizes[$example]} >"$dir/stdout.txt"
  done
done
"$build/tools/larm" place "$results" "$out"/*/regions.json --out "$out/placements.json"
