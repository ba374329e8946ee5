#!/usr/bin/env bash
# Quick start, tests: install what is missing (apt), then
#  1. build with AddressSanitizer + UndefinedBehaviorSanitizer and run every test but the guest's;
#  2. build with ThreadSanitizer and run the tests of the threaded code;
#  3. build Release and run the multi-NUMA test in a three-node QEMU guest.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
"$root/scripts/install-deps.sh"
jobs=$(nproc)

configure_and_build() {  # DIR BUILD_TYPE SANITIZERS
  cmake -S "$root" -B "$root/build/$1" -G Ninja -DCMAKE_BUILD_TYPE="$2" -DLARM_SANITIZE="$3" \
    -DLARM_BUILD_TESTS=ON >/dev/null
  cmake --build "$root/build/$1" -j "$jobs"
}

echo "== ASan + UBSan build, all tests but the multi-NUMA guest"
configure_and_build asan RelWithDebInfo address,undefined
(cd "$root/build/asan" && ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
  ctest --output-on-failure -j 1 -LE multinuma)

echo "== ThreadSanitizer build, threaded code"
configure_and_build tsan RelWithDebInfo thread
(cd "$root/build/tsan" && TSAN_OPTIONS="halt_on_error=1 second_deadlock_stack=1" \
  ctest --output-on-failure -j 1 -R 'ThreadTeam|Drivers|characterize_quick_end_to_end')

echo "== Release build, multi-NUMA QEMU guest"
configure_and_build release-tests Release ""
(cd "$root/build/release-tests" && ctest --output-on-failure -j 1 -L multinuma)
