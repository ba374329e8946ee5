#!/usr/bin/env bash
# Installs, from Debian 12 packages only, what larm needs to build and run, or to test (clang-14
# and libomp-14-dev: the OpenMP tests run under ThreadSanitizer with LLVM OpenMP and Archer;
# chromium: the report is checked in a headless browser; valgrind: larm count's tool is built
# against its core; linux-perf: larm profile samples where a program's time goes; help2man: the
# man pages; OpenBLAS and FFTW: libraries larm count is tested on;
# slurmctld, slurmd, slurm-client and munge: only for the test that runs larm fleet under a
# one-host Slurm cluster, tests/slurm/slurm_test.py, which starts and stops its own daemons — on a
# machine with systemd, Debian's packages also enable their services, which fail harmlessly
# without a /etc/slurm/slurm.conf; lintian: the Debian package's check; gcc-12-plugin-dev and
# llvm-14-dev: larm's compiler plugins, built against GCC's and LLVM's headers).
# Idempotent: packages already present are not reinstalled; apt is only called when one is missing.
set -euo pipefail

# Three sets, each a superset of what its command needs:
#   run            what scripts/run.sh needs: build larm and run a characterization with its
#                  figures and report (compiler, CMake, Ninja, hwloc, libnuma, xbyak or asmjit,
#                  nlohmann-json, CLI11, Eigen, PAPI, gnuplot; valgrind: liblarm's valgrind.h);
#   test           everything scripts/test.sh needs (the run set and the rest, listed above);
#   cross-aarch64  the AArch64 cross build and its tests under QEMU;
#   cross-riscv64  the RISC-V cross build of the codegen and platform parts (tests/riscv64/) and
#                  its test under QEMU.
#   scripts/install-deps.sh [run|test|cross-aarch64|cross-riscv64]   install the set (default: test)
#   scripts/install-deps.sh --print [SET]   list it, install nothing
#   scripts/install-deps.sh --packages P...  install these packages (another script's own needs)
print=0
if [[ ${1:-} == --print ]]; then print=1; shift; fi
set_name=${1:-test}
[[ $set_name == --cross-aarch64 ]] && set_name=cross-aarch64
case $set_name in
  run | test | cross-aarch64 | cross-riscv64 | --packages) ;;
  *) echo "install-deps: unknown set '$set_name' (sets: run, test, cross-aarch64, cross-riscv64)" >&2; exit 2 ;;
esac

run_packages=(
  build-essential cmake ninja-build pkg-config binutils
  libhwloc-dev hwloc libnuma-dev numactl libxbyak-dev nlohmann-json3-dev libcli11-dev libeigen3-dev
  libpapi-dev gnuplot-nox valgrind
)
test_packages=(
  libgtest-dev googletest openmpi-bin libopenmpi-dev likwid python3 python3-jsonschema
  clang-14 libomp-14-dev chromium
  linux-perf help2man libopenblas-dev libfftw3-dev
  slurmctld slurmd slurm-client munge
  lintian ccache gcc-12-plugin-dev llvm-14-dev
)
packages=("${run_packages[@]}")
[[ $set_name == test ]] && packages+=("${test_packages[@]}")
# On an arm64 Debian the kernels are generated with asmjit, not xbyak, and Debian has no arm64
# likwid (the likwid comparisons are x86-only).
if [[ $(dpkg --print-architecture) == arm64 ]]; then
  packages=("${packages[@]/libxbyak-dev/libasmjit-dev}")
  packages=("${packages[@]/likwid/}")
fi
# What the AArch64 cross build and its tests under QEMU need on x86-64: the cross compilers and
# binutils, qemu-user, and the arm64 -dev packages of multiarch. The programs run on multiarch's
# arm64 runtime (libc6:arm64, libstdc++6:arm64), never the cross toolchain's: see
# cmake/toolchains/aarch64-linux-gnu.cmake.
if [[ $set_name == cross-aarch64 ]]; then
  packages=(g++-aarch64-linux-gnu binutils-aarch64-linux-gnu gcc-12-plugin-dev-aarch64-linux-gnu
            qemu-user cmake ninja-build pkg-config
            nlohmann-json3-dev libcli11-dev libeigen3-dev libhwloc-dev:arm64 libnuma-dev:arm64
            libasmjit-dev:arm64 libpapi-dev:arm64 libgtest-dev:arm64 libgmock-dev:arm64
            libstdc++6:arm64 valgrind python3)
fi
# Debian 12 has no riscv64 architecture to add: the cross compiler's own sysroot (libc, libstdc++)
# is all the RISC-V build links, statically; nlohmann-json is header-only.
if [[ $set_name == cross-riscv64 ]]; then
  packages=(g++-riscv64-linux-gnu binutils-riscv64-linux-gnu qemu-user cmake ninja-build
            nlohmann-json3-dev)
fi
if [[ $set_name == --packages ]]; then
  shift
  packages=("$@")
fi
if ((print)); then printf '%s\n' "${packages[@]}"; exit 0; fi
if [[ $set_name == cross-aarch64 ]] && ! dpkg --print-foreign-architectures | grep -qx arm64; then
  if [[ $(id -u) -ne 0 ]]; then sudo dpkg --add-architecture arm64; else dpkg --add-architecture arm64; fi
fi

# A package counts as present only in the architecture asked for (the name's :arch, else this
# machine's) or as arch-independent: after --cross-aarch64, an unqualified query of libhwloc-dev
# answers "installed" for the arm64 one alone, and the native build found no hwloc.
native=$(dpkg --print-architecture)
missing=()
for p in "${packages[@]}"; do
  [[ -n $p ]] || continue
  arch=$native
  [[ $p == *:* ]] && arch=${p##*:}
  dpkg-query -W -f='${db:Status-Abbrev}${Architecture}\n' "${p%%:*}" 2>/dev/null |
    grep -Eqx "ii ($arch|all)" || missing+=("$p")
done
((${#missing[@]} == 0)) && exit 0

sudo=""
if [[ $(id -u) -ne 0 ]]; then
  command -v sudo >/dev/null || { echo "install-deps: need root or sudo to install: ${missing[*]}" >&2; exit 1; }
  sudo=sudo
fi
echo "install-deps: installing ${missing[*]}" >&2
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
