#!/usr/bin/env bash
# Quick start, main job: install what is missing (apt), build Release, characterize this node,
# then measure and fit the hybrid fast/slow memory model (not applicable on a one-memory node,
# which it says), then draw the figures and write the report. Results go to
# runs/<host>-<date>/ (results.json, roofs.csv, sweep.csv, latency.csv, hybrid.json,
# hybrid.csv, plots/, report.html, report.md) and summary tables are printed. Extra arguments go to
# `larm characterize` (e.g. --quick, which also makes the hybrid sweep quick; --out DIR). The
# figures are checked last (larm plot --check).
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
"$root/scripts/install-deps.sh"
# uPlot, for the report's interactive roofline (npm registry); without it the report keeps its
# static figures and says so.
"$root/scripts/install-web.sh" --run ||
  echo "run.sh: uPlot could not be installed from the npm registry: the report will have no interactive roofline" >&2
cd "$root"
cmake --preset release >/dev/null  # build/release (CMakePresets.json)
cmake --build --preset release
larm="$root/build/release/tools/larm"

out="runs/$(hostname)-$(date -u +%Y%m%d-%H%M%S)"
quick=()
args=("$@")
for ((i = 0; i < ${#args[@]}; i++)); do
  case ${args[i]} in
    --out) out=${args[i + 1]:-$out} ;;
    --out=*) out=${args[i]#--out=} ;;
    --quick) quick=(--quick) ;;
  esac
done
has_out=0
for a in "$@"; do [[ $a == --out || $a == --out=* ]] && has_out=1; done
if ((has_out)); then
  "$larm" characterize "$@"
else
  "$larm" characterize --out "$out" "$@"
fi
"$larm" hybrid sweep --out "$out" "${quick[@]}"
"$larm" report "$out"
# The figures read back and checked (text outside the canvas, overlapping labels, a roof missing
# from its key): a defect fails the run, after the results and the report are written.
"$larm" plot "$out" --check --quiet
