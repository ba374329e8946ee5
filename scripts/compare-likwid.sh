#!/usr/bin/env bash
# Benchmark: larm against likwid-bench (Debian package likwid) on this machine, same threads and
# working-set sizes, larm bench and likwid-bench paired roof by roof, PAIRS alternated rounds
# (default 3).
# Usage: scripts/compare-likwid.sh [PAIRS]
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
"$root/scripts/install-deps.sh"
cmake -S "$root" -B "$root/build/release" -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DLARM_BUILD_TESTS=OFF >/dev/null
cmake --build "$root/build/release" >/dev/null
isa=$("$root/build/release/tools/larm" kernels | awk '/^stream-load-/ {split($1, a, "-"); isa=a[3]} END {print isa}')
exec python3 "$root/scripts/compare_likwid.py" --larm "$root/build/release/tools/larm" \
  --pairs "${1:-3}" --isa "$isa"
