# The AArch64 part of larm_platform (platform/arch.h, platform/cpu_info.h): the generic timer,
# the CPU's identity (MIDR_EL1 as Linux shows it) and Arm cores' documented FP throughput.
target_sources(larm_platform PRIVATE aarch64/counter.cpp aarch64/cpu_identity.cpp
                                     aarch64/documented_throughput.cpp)
