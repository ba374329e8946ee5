#!/usr/bin/env bash
# The RISC-V proof (tests/riscv64/CMakeLists.txt): cross-builds larm's codegen and platform parts
# for riscv64 and runs rvv_test under qemu-riscv64 at VLEN 128, 256 and 1024 bits, then once on a
# CPU without V. Needs scripts/install-deps.sh cross-riscv64.
#   tests/riscv64/run.sh [BUILD_DIR]     (default: build/riscv64)
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
build=${1:-$root/build/riscv64}
cmake -S "$root/tests/riscv64" -B "$build" -G Ninja \
  -DCMAKE_TOOLCHAIN_FILE="$root/cmake/toolchains/riscv64-linux-gnu.cmake" >/dev/null
cmake --build "$build" -j "$(nproc)"
for vlen in 128 256 1024; do
  echo "-- rvv_test at VLEN $vlen"
  timeout 300 qemu-riscv64 -cpu "rv64,v=true,vlen=$vlen,vext_spec=v1.0" "$build/rvv_test" --vlen "$vlen"
done
echo "-- rvv_test without V"
timeout 300 qemu-riscv64 -cpu rv64 "$build/rvv_test" --no-v
