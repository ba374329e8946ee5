# Cross build for AArch64 Linux from an x86-64 Debian 12 (issue 31): Debian's cross compilers
# (g++-aarch64-linux-gnu) and the arm64 -dev packages of multiarch (scripts/install-cross.sh).
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
set(CMAKE_CROSSCOMPILING_EMULATOR qemu-aarch64;-L;/usr/aarch64-linux-gnu)
