# The x86-64 part of larm_platform (platform/arch.h, platform/cpu_info.h): the TSC, cpuid and the
# x86-64 vendors' documented FP throughput.
target_sources(larm_platform PRIVATE x64/counter.cpp x64/cpu_identity.cpp
                                     x64/documented_throughput.cpp)
