# Cross build for RISC-V (RV64) Linux from an x86-64 Debian 12: Debian's cross compiler
# (g++-riscv64-linux-gnu) and its sysroot, /usr/riscv64-linux-gnu. Debian 12 has no riscv64
# packages of hwloc or libnuma, so only the kernels-only build (tests/riscv64/) uses this file; its
# programs are linked statically and run under qemu-riscv64.
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR riscv64)
set(CMAKE_C_COMPILER riscv64-linux-gnu-gcc)
set(CMAKE_CXX_COMPILER riscv64-linux-gnu-g++)
set(CMAKE_FIND_ROOT_PATH /usr/riscv64-linux-gnu)
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)
