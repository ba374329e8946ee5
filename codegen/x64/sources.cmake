# The x86-64 generators (xbyak), added to larm_codegen by codegen/CMakeLists.txt.
target_sources(larm_codegen PRIVATE x64/isa.cpp x64/backend.cpp x64/instruction_forms.cpp
                                    x64/generator.cpp x64/stream_kernel.cpp x64/flops_kernel.cpp
                                    x64/chase_kernel.cpp x64/clock_kernel.cpp
                                    x64/readwrite_kernel.cpp x64/stream_benchmark_kernel.cpp)
target_include_directories(larm_codegen SYSTEM PUBLIC ${XBYAK_INCLUDE_DIR})
