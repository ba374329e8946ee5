# The processor architecture this build is for, and the folder that implements it: every file
# that names an instruction lives in platform/<arch>/ or codegen/<arch>/ (tests/layout_test.py
# checks it), and a new architecture is new files there plus its line below.
if(CMAKE_SYSTEM_PROCESSOR MATCHES "^(x86_64|AMD64|amd64)$")
  set(LARM_ARCH x64)
  # The x86-64 kernels are generated with xbyak.
  find_path(XBYAK_INCLUDE_DIR xbyak/xbyak.h REQUIRED)
elseif(CMAKE_SYSTEM_PROCESSOR MATCHES "^(aarch64|arm64|ARM64)$")
  set(LARM_ARCH aarch64)
  # The AArch64 kernels are generated with asmjit's A64 assembler (Debian's libasmjit-dev).
  find_path(ASMJIT_INCLUDE_DIR asmjit/arm/a64assembler.h REQUIRED)
  find_library(ASMJIT_LIBRARY asmjit REQUIRED)
elseif(CMAKE_SYSTEM_PROCESSOR STREQUAL "riscv64")
  set(LARM_ARCH riscv64)  # instructions encoded by codegen/riscv64/rv_encoding.h
else()
  message(FATAL_ERROR "larm has no kernels for ${CMAKE_SYSTEM_PROCESSOR}: x86-64, AArch64 and RISC-V")
endif()
