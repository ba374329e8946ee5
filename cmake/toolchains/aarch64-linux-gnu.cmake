# Cross build for AArch64 Linux from an x86-64 Debian 12: Debian's cross compilers
# (g++-aarch64-linux-gnu) and the arm64 -dev packages of multiarch (scripts/install-deps.sh
# --cross-aarch64).
# The programs built run under qemu-aarch64 (CMAKE_CROSSCOMPILING_EMULATOR), so ctest runs them.
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)
set(CMAKE_C_COMPILER aarch64-linux-gnu-gcc)
set(CMAKE_CXX_COMPILER aarch64-linux-gnu-g++)
set(CMAKE_LIBRARY_ARCHITECTURE aarch64-linux-gnu)
# Headers and libraries of the arm64 packages live beside the host's (/usr/include,
# /usr/lib/aarch64-linux-gnu); programs (cmake's own helpers) are the host's.
set(CMAKE_FIND_ROOT_PATH /usr/aarch64-linux-gnu)
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(ENV{PKG_CONFIG_LIBDIR} /usr/lib/aarch64-linux-gnu/pkgconfig:/usr/share/pkgconfig)
# The programs run on multiarch's arm64 runtime, as on an arm64 Debian: the loader and libc of
# libc6:arm64 (/lib/ld-linux-aarch64.so.1), which the arm64 hwloc and numa packages depend on.
# With `-L /usr/aarch64-linux-gnu` the loader was the cross package's (libc6-arm64-cross
# 2.36-8cross1) and libc.so.6 multiarch's (2.36-9+deb12u14), found first on its search path: two
# builds whose private interface differs, and every pthread_create spun forever in libc.
set(CMAKE_CROSSCOMPILING_EMULATOR qemu-aarch64;-L;/)
