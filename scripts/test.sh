#!/usr/bin/env bash
# Quick start, tests: install what is missing (apt), then
#  1. build with AddressSanitizer + UndefinedBehaviorSanitizer and run every test but the guest's,
#     then run each libFuzzer target for 30 s (scripts/fuzz.sh);
#  2. build with ThreadSanitizer and run the tests of the threaded code (pthreads);
#  3. build with clang, ThreadSanitizer and LLVM OpenMP, whose Archer tool makes OpenMP's
#     synchronization visible to TSan, and run the OpenMP programs that use the region API;
#  4. build Release and run the multi-NUMA test in a three-node QEMU guest.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
"$root/scripts/install-deps.sh"
jobs=$(nproc)

configure_and_build() {  # DIR BUILD_TYPE SANITIZERS [TARGET...]
  local dir=$1 type=$2 sanitizers=$3
  shift 3
  cmake -S "$root" -B "$root/build/$dir" -G Ninja -DCMAKE_BUILD_TYPE="$type" \
    -DLARM_SANITIZE="$sanitizers" -DLARM_BUILD_TESTS=ON >/dev/null
  if (($#)); then
    cmake --build "$root/build/$dir" -j "$jobs" --target "$@"
  else
    cmake --build "$root/build/$dir" -j "$jobs"
  fi
}

echo "== ASan + UBSan build, all tests but the multi-NUMA guest"
configure_and_build asan RelWithDebInfo address,undefined
(cd "$root/build/asan" && ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
  ctest --output-on-failure -j 1 -LE multinuma)

echo "== Fuzz smoke: each libFuzzer target 30 s (clang, ASan + UBSan)"
"$root/scripts/fuzz.sh" 30

echo "== ThreadSanitizer build, threaded code"
configure_and_build tsan RelWithDebInfo thread
(cd "$root/build/tsan" && TSAN_OPTIONS="halt_on_error=1 second_deadlock_stack=1" \
  ctest --output-on-failure -j 1 -R 'ThreadTeam|Drivers|characterize_quick_end_to_end|RegionTest|RegionAllocation')

echo "== ThreadSanitizer with LLVM OpenMP + Archer (clang), OpenMP programs using the region API"
CC=clang-14 CXX=clang++-14 configure_and_build tsan-openmp RelWithDebInfo thread \
  likwid_markers_program larm_example_ddot larm_example_dgemm larm_example_triad \
  larm_example_stencil
(cd "$root/build/tsan-openmp" && \
  TSAN_OPTIONS="halt_on_error=1 ignore_noninstrumented_modules=1" \
  ctest --output-on-failure -j 1 -R 'likwid_markers|examples_smoke')

echo "== Release build, the fork test (ASan's allocator is not fork-safe), multi-NUMA QEMU guest"
configure_and_build release-tests Release ""
(cd "$root/build/release-tests" && ctest --output-on-failure -j 1 -L 'multinuma|fork')
