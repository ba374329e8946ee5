# The AArch64 generators (asmjit's A64 assembler), added to larm_codegen by codegen/CMakeLists.txt.
target_sources(larm_codegen PRIVATE aarch64/isa.cpp aarch64/backend.cpp aarch64/generator.cpp
                                    aarch64/kernels.cpp aarch64/validation_kernels.cpp
                                    aarch64/sve_encoding.cpp)
target_include_directories(larm_codegen SYSTEM PUBLIC ${ASMJIT_INCLUDE_DIR})
target_link_libraries(larm_codegen PUBLIC ${ASMJIT_LIBRARY})
