#!/usr/bin/env bash
# Quick start, main job: install what is missing (apt), build Release, characterize this node.
# Results go to results/<host>-<date>/ (results.json, roofs.csv, sweep.csv, latency.csv) and a
# summary table is printed. Extra arguments go to `larm characterize` (e.g. --quick).
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
"$root/scripts/install-deps.sh"
cmake -S "$root" -B "$root/build/release" -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DLARM_BUILD_TESTS=OFF >/dev/null
cmake --build "$root/build/release"
cd "$root"
exec "$root/build/release/tools/larm" characterize "$@"
