#!/usr/bin/env bash
# Time and peak memory of `larm topology` and `larm plan` on a synthetic topology of 65 536 PUs in
# 512 domains (512 packages of one NUMA node, one L3, 64 cores of 2 PUs; 224 MB of XML), beside
# hwloc's own load of it (hwloc-calc), the floor no hwloc user goes under:
#   bench/large_topology.sh [LARM] [RUNS]      (default build/dev/tools/larm, 3 runs; medians)
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
larm=${1:-$root/build/dev/tools/larm}
runs=${2:-3}
xml=${TMPDIR:-/tmp}/larm-65536pu.xml
if [[ ! -s $xml ]]; then
  echo "generating $xml (lstopo, ~40 s)" >&2
  lstopo-no-graphics --input "pack:512 numa:1 l3:1 core:64 pu:2" --force "$xml"
fi
measure() {  # NAME COMMAND...: median seconds and peak RSS over the runs
  local name=$1 seconds=() kbytes=()
  shift
  for ((i = 0; i < runs; ++i)); do
    local out
    /usr/bin/time -o "$xml.time" -f '%e %M' "$@" >/dev/null 2>&1
    out=$(tail -n 1 "$xml.time")
    seconds+=("${out% *}")
    kbytes+=("${out#* }")
  done
  local s m
  s=$(printf '%s\n' "${seconds[@]}" | sort -g | sed -n "$(((runs + 1) / 2))p")
  m=$(printf '%s\n' "${kbytes[@]}" | sort -g | sed -n "$(((runs + 1) / 2))p")
  printf '%-28s %8.2f s %8.0f MB   (runs: %s s)\n' "$name" "$s" "$((m / 1024))" "${seconds[*]}"
}
echo "65 536 PUs, 512 domains, $runs runs, medians:"
measure "hwloc-calc (hwloc alone)" env HWLOC_LIBXML_IMPORT=0 hwloc-calc --input "$xml" all --number-of pu
measure "larm topology" "$larm" topology --topology "$xml"
measure "larm plan" "$larm" plan --topology "$xml"
rm -f "$xml.time"
