#!/usr/bin/env bash
# Quick start, tests: install what is missing (apt), then five stages, each built and tested:
#  1. asan: clang-14 with AddressSanitizer, UndefinedBehaviorSanitizer and libFuzzer's coverage;
#     every test but the multi-NUMA guest's (the fork test skips itself: see its source), two at a
#     time where they measure nothing, then each libFuzzer target for 20 s from the same build
#     (scripts/fuzz.sh);
#  2. tsan: clang-14 with ThreadSanitizer and LLVM OpenMP, whose Archer tool makes OpenMP's
#     synchronization visible to TSan: the threaded code (label "threads": the thread teams and
#     drivers, the region API, a characterization of the threaded measurements, the OpenMP
#     programs that use the region API);
#  3. release: GCC, Release, one file at a time, what scripts/run.sh builds: the fork test, the
#     multi-NUMA test in a three-node QEMU guest, larm count under Valgrind (label "count": a
#     program under Valgrind cannot carry a sanitizer's runtime), the installation ("install")
#     and larm fleet under a one-host Slurm cluster ("slurm": the daemons run the release build);
#  4. aarch64: the AArch64 cross build (scripts/install-deps.sh cross-aarch64), its unit
#     and measuring tests under qemu-aarch64 (the kernel metadata against aarch64 objdump, the
#     kernels' results), and a quick characterization under it at SVE vector lengths of 128, 256,
#     512 and 2048 bits (tests/aarch64_emulated_test.py; the timings are the emulator's), and
#     larm's GCC plugin for the cross compiler: NEON and SVE builds counting the same FLOPs at
#     every vector length (tests/aarch64_plugin_test.py);
#  5. riscv64: the RISC-V cross build of the codegen and platform parts that need no hwloc
#     (scripts/install-deps.sh cross-riscv64), its instruction words against GNU as's and its RVV
#     stream kernels under qemu-riscv64 at VLEN 128, 256 and 1024 bits, and without V
#     (tests/riscv64/run.sh).
# The sanitizer builds are unity builds (CMAKE_UNITY_BUILD) at -O1 -g1: on CI's 2-core machine the
# template-heavy sources (nlohmann::json, CLI11) compiled one by one took 19 min with GCC's ASan
# and 8.8 min with clang's, 4.2-4.7 min batched (docs/development.md, "Tests"). The release build is not batched:
# it is the build users make, and it shows that every source compiles on its own.
# Each step's time is printed as it ends, and all of them at the end.
#   scripts/test.sh [STAGE...]    STAGE: asan, tsan, release, aarch64 or riscv64 (default: the five,
#                                 in this order)
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
jobs=$(nproc)
# The tests' characterizations stay out of this machine's run history (results/run_history.h):
# the tests that check it give their own.
export LARM_HISTORY=off
stages=("$@")
((${#stages[@]})) || stages=(asan tsan release aarch64 riscv64)
for stage in "${stages[@]}"; do
  [[ $stage == asan || $stage == tsan || $stage == release || $stage == aarch64 || $stage == riscv64 ]] ||
    { echo "test.sh: unknown stage '$stage' (stages: asan, tsan, release, aarch64, riscv64)" >&2; exit 2; }
done
wanted() { [[ " ${stages[*]} " == *" $1 "* ]]; }

STEP_TIMES_EACH=1
# shellcheck source=step-times.sh
source "$root/scripts/step-times.sh"

"$root/scripts/install-deps.sh" test
# uPlot (inlined into the report) and puppeteer-core (its browser test), from the npm registry.
"$root/scripts/install-web.sh"
step_done "install-deps"

# The builds are CMakePresets.json's (asan, tsan, release-tests): one place for their flags, the
# same builds as `cmake --preset NAME` by hand (docs/development.md).
# Compiled through ccache: a clean clone's five builds are the same objects as the last run's
# (22 of CI's 40 minutes were compiling). Paths under the clone are hashed relative to it, so a
# clone elsewhere hits the same entries; ccache compiles again whatever differs.
export CCACHE_BASEDIR="$root" CCACHE_NOHASHDIR=1 CCACHE_MAXSIZE=${CCACHE_MAXSIZE:-8G}
launcher=()
command -v ccache >/dev/null &&
  launcher=(-DCMAKE_C_COMPILER_LAUNCHER=ccache -DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
configure() {  # PRESET
  (cd "$root" && cmake --preset "$1" "${launcher[@]}" >/dev/null)
}

if wanted asan; then
  echo "== 1. asan: clang-14, ASan + UBSan (+ libFuzzer coverage), all tests but the multi-NUMA guest"
  configure asan
  cmake --build "$root/build/asan" -j "$jobs"
  step_done "asan build"
  (cd "$root" && ctest --preset asan -j "$jobs")
  step_done "asan tests"
  "$root/scripts/fuzz.sh" --build "$root/build/asan" 20
  step_done "asan fuzz smoke"
fi

if wanted tsan; then
  echo "== 2. tsan: clang-14, ThreadSanitizer, LLVM OpenMP + Archer: the threaded code"
  configure tsan
  cmake --build "$root/build/tsan" -j "$jobs" --target larm larm_measuring_tests \
    larm_region_tests likwid_markers_program larm_example_ddot larm_example_dgemm \
    larm_example_triad larm_example_stencil larm_example_thread_groups monitor_api_misuse
  step_done "tsan build"
  (cd "$root" && ctest --preset tsan)
  step_done "tsan tests"
fi

if wanted release; then
  echo "== 3. release: GCC, what scripts/run.sh builds; the fork test, the multi-NUMA QEMU guest"
  configure release-tests
  # Every top-level folder but tests/ (what run.sh's LARM_BUILD_TESTS=OFF builds), the fork
  # test's program and the multi-NUMA test's page mover.
  user_targets=$(cd "$root/build/release-tests" && ninja -t targets all |
    sed -n 's#^\([^/: ]*/all\): phony$#\1#p' | grep -v '^tests/')
  # The programs larm count's test runs, where Valgrind's tool libraries let them be built.
  count_programs=$(cd "$root/build/release-tests" && ninja -t targets all |
    sed -n 's#^\(count_programs\): phony$#\1#p')
  # shellcheck disable=SC2086  # one target per word
  cmake --build "$root/build/release-tests" -j "$jobs" --target $user_targets \
    fork_during_init_program monitor_api_misuse multinuma_page_mover multinuma_page_census larm_static_merged larm_man_pages larm_changelog \
    $count_programs
  step_done "release build"
  (cd "$root" && ctest --preset release-tests)
  step_done "release tests"
fi

if wanted aarch64; then
  echo "== 4. aarch64: the cross build, its tests and a quick characterization under qemu-aarch64"
  "$root/scripts/install-deps.sh" cross-aarch64
  step_done "aarch64 install-deps"
  configure aarch64
  cmake --build "$root/build/aarch64" -j "$jobs" --target larm larm_unit_tests larm_measuring_tests \
    larm_shared larm_gcc_plugin larm_plugin_runtime
  step_done "aarch64 build"
  # The programs run on multiarch's arm64 runtime, as ctest's emulator (the toolchain file); a
  # bound on each (30 s here) so that an emulator that hangs (a mismatched loader and libc did
  # once) fails the stage instead of holding CI.
  for suite in larm_unit_tests larm_measuring_tests; do
    timeout 600 qemu-aarch64 -L / "$root/build/aarch64/tests/$suite" --gtest_brief=1
  done
  step_done "aarch64 tests"
  python3 "$root/tests/aarch64_emulated_test.py" "$root/build/aarch64/tools/larm"
  step_done "aarch64 characterize"
  timeout 900 python3 "$root/tests/aarch64_plugin_test.py" "$root/build/aarch64" "$root"
  step_done "aarch64 compiler plugin"
fi

if wanted riscv64; then
  echo "== 5. riscv64: the codegen and platform cross build, its kernels under qemu-riscv64"
  "$root/scripts/install-deps.sh" cross-riscv64
  step_done "riscv64 install-deps"
  "$root/tests/riscv64/run.sh" "$root/build/riscv64"
  step_done "riscv64 build and tests"
fi
