#!/usr/bin/env bash
# Quick start, main job: install what is missing (apt), build Release, characterize this node,
# then measure and fit the hybrid fast/slow memory model (not applicable on a one-memory node,
# which it says), then draw the figures and write the report. Results go to
# runs/<host>-<date>/ (results.json, roofs.csv, sweep.csv, latency.csv, hybrid.json,
# hybrid.csv, plots/, report.html, report.md) and summary tables are printed. Extra arguments go to
# `larm characterize` (e.g. --quick, which also makes the hybrid sweep quick; --out DIR). The
# figures are checked last (larm plot --check). It installs only the packages of the run
# (scripts/install-deps.sh --print run), builds only the larm binary, and ends with each step's time.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
export STEP_TIMES_ONE_LINE=1  # step-times.sh: all the steps' times in one line at the end
# shellcheck source=step-times.sh
source "$root/scripts/step-times.sh"

"$root/scripts/install-deps.sh" run
# uPlot, for the report's interactive roofline (npm registry); without it the report keeps its
# static figures and says so.
"$root/scripts/install-web.sh" --run ||
  echo "run.sh: uPlot could not be installed from the npm registry: the report will have no interactive roofline" >&2
step_done "install"
cd "$root"
cmake --preset release >/dev/null  # build/release (CMakePresets.json)
cmake --build --preset release --target larm
larm="$root/build/release/tools/larm"
step_done "build"

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
step_done "characterize"
"$larm" hybrid sweep --out "$out" "${quick[@]}"
step_done "hybrid sweep"
"$larm" report "$out"
step_done "report"
# The figures read back and checked (text outside the canvas, overlapping labels, a roof missing
# from its key): a defect fails the run, after the results and the report are written.
"$larm" plot "$out" --check --quiet
step_done "figure check"
