#!/usr/bin/env bash
# Fuzzes larm's readers and option parsing with libFuzzer (clang-14, ASan + UBSan):
#   scripts/fuzz.sh [--build DIR] [SECONDS] [TARGET...]
# runs each target (default: all) for SECONDS (default 30: the smoke scripts/test.sh runs) from
# its corpus (tests/fuzz/corpus/TARGET, plus the reference results, fixtures and topologies as
# seeds) and fails on the first crash, leak, sanitizer report, uncaught exception or input that
# takes over 10 s, printing the input. New inputs go to a temporary directory, never the
# repository; to keep those that add coverage: -merge=1 into the corpus (docs/commands.md, "Fuzzing").
# The targets run as many at a time as there are CPUs. The build is build/fuzz, configured here,
# or --build DIR: a build configured with clang and -DLARM_FUZZ=ON (scripts/test.sh passes its
# ASan one), where only the fuzz targets are brought up to date.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=""
if [[ ${1:-} == --build ]]; then
  build=${2:?fuzz: --build needs a directory}
  shift 2
fi
seconds=${1:-30}
shift || true
targets=("$@")
((${#targets[@]})) || targets=(results regions hybrid samples_csv topology_xml cli affinity_csv advice fleet)
[[ $seconds =~ ^[0-9]+$ && $seconds -gt 0 ]] || { echo "fuzz: SECONDS must be a positive whole number" >&2; exit 2; }

"$root/scripts/install-deps.sh"
if [[ -z $build ]]; then
  build="$root/build/fuzz"
  CC=clang-14 CXX=clang++-14 cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DLARM_SANITIZE=address,undefined -DLARM_FUZZ=ON -DLARM_BUILD_TESTS=OFF >/dev/null
elif ! grep -qx 'LARM_FUZZ:BOOL=ON' "$build/CMakeCache.txt" 2>/dev/null; then
  echo "fuzz: $build is not a build configured with -DLARM_FUZZ=ON" >&2
  exit 2
fi
cmake --build "$build" -j "$(nproc)" --target "${targets[@]/#/fuzz_}"

# Seeds beside the corpus: the files larm itself wrote, kept elsewhere in the repository.
seeds_of() {
  case $1 in
    results) echo "$root"/results/reference/*/results.json "$root"/tests/fixtures/*/results.json ;;
    regions) echo "$root"/results/reference/*/regions-*/regions.json "$root"/tests/fixtures/*/regions-*.json ;;
    hybrid) echo "$root"/tests/fixtures/*/hybrid.json ;;
    samples_csv) echo "$root"/tests/fixtures/*.csv "$root"/tests/fixtures/*/samples.csv ;;
    topology_xml) echo "$root"/tests/fixtures/topologies/*.xml ;;
    cli) ;;
    affinity_csv | advice | fleet) ;;  # their corpora hold larm's own outputs
    *) echo "fuzz: unknown target $1" >&2; exit 2 ;;
  esac
}

work=$(mktemp -d /tmp/larm-fuzz.XXXXXX)
trap 'rm -rf "$work"' EXIT

# One target: its status file says pass or fail; the report is printed once all have run.
fuzz_one() {  # TARGET
  local target=$1
  mkdir -p "$work/$target/new" "$work/$target/seeds"
  for seed in $(seeds_of "$target"); do cp "$seed" "$work/$target/seeds/"; done
  # -seed fixed: the same inputs in the same order on every run, so a smoke that passed here
  # explores the same ground in CI. ASan's leak check stays on (libFuzzer reports leaks).
  if ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
    "$build/tests/fuzz/fuzz_$target" -seed=1 -max_total_time="$seconds" -timeout=10 \
    -rss_limit_mb=2048 -max_len=300000 -print_final_stats=1 \
    -artifact_prefix="$work/$target/" "$work/$target/new" "$root/tests/fuzz/corpus/$target" \
    "$work/$target/seeds" >"$work/$target/log" 2>&1; then
    echo pass >"$work/$target/status"
  else
    echo fail >"$work/$target/status"
  fi
}

report() {  # TARGET
  local target=$1
  echo "== fuzz_$target: $seconds s"
  if [[ $(cat "$work/$target/status" 2>/dev/null) == pass ]]; then
    grep -E '^stat::number_of_executed_units|^stat::new_units_added|^#[0-9]+.*DONE' \
      "$work/$target/log" | tr '\n' ' '
    echo
    return 0
  fi
  tail -n 60 "$work/$target/log"
  for artifact in "$work/$target"/crash-* "$work/$target"/leak-* "$work/$target"/timeout-* \
    "$work/$target"/oom-*; do
    [[ -e $artifact ]] || continue
    echo "-- input $(basename "$artifact") (base64):"
    base64 "$artifact" | head -c 4000
    echo
  done
  return 1
}

for target in "${targets[@]}"; do seeds_of "$target" >/dev/null; done  # unknown names first
running=0
for target in "${targets[@]}"; do
  if ((running >= $(nproc))); then
    wait -n || true
    running=$((running - 1))
  fi
  fuzz_one "$target" &
  running=$((running + 1))
done
wait
failed=()
for target in "${targets[@]}"; do report "$target" || failed+=("$target"); done
if ((${#failed[@]})); then
  echo "fuzz: FAILED: ${failed[*]}" >&2
  exit 1
fi
echo "fuzz: ${#targets[@]} target(s), $seconds s each, no crash"
