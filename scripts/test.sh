#!/usr/bin/env bash
# Quick start, tests: install what is missing (apt), build with AddressSanitizer and
# UndefinedBehaviorSanitizer and run every test; then build with ThreadSanitizer and run the
# tests of the threaded code (thread team, drivers, an end-to-end characterization).
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
"$root/scripts/install-deps.sh"
jobs=$(nproc)

echo "== ASan + UBSan build, all tests"
cmake -S "$root" -B "$root/build/asan" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DLARM_SANITIZE=address,undefined >/dev/null
cmake --build "$root/build/asan" -j "$jobs"
(cd "$root/build/asan" && ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
  ctest --output-on-failure -j 1)

echo "== ThreadSanitizer build, threaded code"
cmake -S "$root" -B "$root/build/tsan" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DLARM_SANITIZE=thread >/dev/null
cmake --build "$root/build/tsan" -j "$jobs"
(cd "$root/build/tsan" && TSAN_OPTIONS="halt_on_error=1 second_deadlock_stack=1" \
  ctest --output-on-failure -j 1 -R 'ThreadTeam|Drivers|characterize_quick_end_to_end')
