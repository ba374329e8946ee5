#!/usr/bin/env bash
# Every instrumented example, tiny, with every placement: exits 0, prints no larm message, and
# writes its regions. Run under ThreadSanitizer with LLVM OpenMP + Archer by scripts/test.sh.
set -euo pipefail
examples=$1
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
declare -A sizes=([ddot]="--size 100000 --repetitions 2" [triad]="--size 100000 --repetitions 2"
                  [dgemm]="--size 64 --repetitions 1" [stencil]="--size 24 --repetitions 2")
status=0
for example in ddot dgemm triad stencil; do
  for placement in firsttouch interleave single:0; do
    dir="$out/$example-${placement/:/}"
    mkdir -p "$dir"
    # shellcheck disable=SC2086
    if ! LARM_OUT="$dir" OMP_NUM_THREADS=2 "$examples/$example" --placement "$placement" \
        ${sizes[$example]} >"$dir/stdout" 2>"$dir/stderr"; then
      echo "FAIL: $example $placement exits non-zero: $(cat "$dir/stderr")"; status=1
    fi
    if grep -v "ignore_noninstrumented_modules" "$dir/stderr" | grep -q .; then
      echo "FAIL: $example $placement wrote to stderr: $(cat "$dir/stderr")"; status=1
    fi
    [[ -s "$dir/regions.json" ]] || { echo "FAIL: $example $placement: no regions.json"; status=1; }
  done
done
[[ $status == 0 ]] && echo "12 example runs passed"
exit $status
