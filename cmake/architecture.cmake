# The processor architecture this build is for, and the folder that implements it: every file
# that names an instruction lives in platform/<arch>/ or codegen/<arch>/ (tests/layout_test.py
# checks it), and a new architecture is new files there plus its line below.
if(CMAKE_SYSTEM_PROCESSOR MATCHES "^(x86_64|AMD64|amd64)$")
  set(LARM_ARCH x64)
  # The x86-64 kernels are generated with xbyak.
  find_path(XBYAK_INCLUDE_DIR xbyak/xbyak.h REQUIRED)
else()
  message(FATAL_ERROR "larm has no kernels for ${CMAKE_SYSTEM_PROCESSOR} yet: x86-64 only "
                      "(AArch64 is issue 31)")
endif()
