# The RISC-V generators (instructions encoded by hand, rv_encoding.h), added to larm_codegen by
# codegen/CMakeLists.txt. Paths from this file's folder, so that the kernels-only cross build
# (tests/riscv64/) lists it too.
target_sources(larm_codegen PRIVATE ${CMAKE_CURRENT_LIST_DIR}/isa.cpp
                                    ${CMAKE_CURRENT_LIST_DIR}/backend.cpp
                                    ${CMAKE_CURRENT_LIST_DIR}/generator.cpp
                                    ${CMAKE_CURRENT_LIST_DIR}/stream_kernel.cpp
                                    ${CMAKE_CURRENT_LIST_DIR}/rv_encoding.cpp)
