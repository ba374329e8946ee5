# The RISC-V part of larm_platform (platform/arch.h, platform/cpu_info.h): the time counter, the
# CPU's identity (the machine ID registers as Linux shows them) and no documented FP throughput
# yet. Paths from this file's folder, so that the kernels-only cross build (tests/riscv64/) lists
# it too.
target_sources(larm_platform PRIVATE ${CMAKE_CURRENT_LIST_DIR}/counter.cpp
                                     ${CMAKE_CURRENT_LIST_DIR}/cpu_identity.cpp
                                     ${CMAKE_CURRENT_LIST_DIR}/documented_throughput.cpp)
