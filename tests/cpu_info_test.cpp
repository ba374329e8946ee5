// The documented FP throughput table: the vendors' figures for the parts it names, and nothing
// for the parts it does not know.
#include <gtest/gtest.h>

#include "platform/cpu_info.h"

namespace larm::platform {
namespace {

CpuInfo cpu(CpuVendor vendor, unsigned family, unsigned model, std::string name = "") {
  CpuInfo info;
  info.vendor_id = vendor;
  info.family = family;
  info.model = model;
  info.model_name = std::move(name);
  return info;
}

double ipc(const CpuInfo& info, Isa isa, FlopOp op = FlopOp::fma) {
  const auto documented = documented_throughput(info, isa, op);
  return documented ? documented->instructions_per_cycle : -1;
}

#if defined(__x86_64__)
TEST(DocumentedThroughput, IntelServerFamilies) {
  EXPECT_EQ(ipc(cpu(CpuVendor::intel, 6, 0x8f), Isa::avx512), 2);             // Sapphire Rapids
  EXPECT_EQ(ipc(cpu(CpuVendor::intel, 6, 0xcf), Isa::avx512), 2);             // Emerald Rapids
  EXPECT_EQ(ipc(cpu(CpuVendor::intel, 6, 0xad), Isa::avx2), 2);               // Granite Rapids
  EXPECT_EQ(ipc(cpu(CpuVendor::intel, 6, 0x6a), Isa::avx512), 2);             // Ice Lake-SP
  EXPECT_EQ(ipc(cpu(CpuVendor::intel, 6, 0x4f), Isa::avx2, FlopOp::add), 1);  // Broadwell
  EXPECT_EQ(ipc(cpu(CpuVendor::intel, 6, 0x4f), Isa::avx512), -1);
}

TEST(DocumentedThroughput, SkylakeSpAvx512DependsOnTheSku) {
  EXPECT_EQ(ipc(cpu(CpuVendor::intel, 6, 0x55, "Intel(R) Xeon(R) Platinum 8180 CPU"), Isa::avx512),
            2);
  EXPECT_EQ(ipc(cpu(CpuVendor::intel, 6, 0x55, "Intel(R) Xeon(R) Gold 6148 CPU"), Isa::avx512), 2);
  EXPECT_EQ(ipc(cpu(CpuVendor::intel, 6, 0x55, "Intel(R) Xeon(R) Gold 5118 CPU"), Isa::avx512), 1);
  EXPECT_EQ(ipc(cpu(CpuVendor::intel, 6, 0x55, "Intel(R) Xeon(R) Gold 5122 CPU"), Isa::avx512), 2);
  EXPECT_EQ(ipc(cpu(CpuVendor::intel, 6, 0x55, "Intel(R) Xeon(R) Silver 4114 CPU"), Isa::avx512),
            1);
  // A name that does not say: no number rather than a guess.
  EXPECT_EQ(ipc(cpu(CpuVendor::intel, 6, 0x55, "Intel Xeon Processor (Skylake)"), Isa::avx512), -1);
  EXPECT_EQ(ipc(cpu(CpuVendor::intel, 6, 0x55, "Intel Xeon Processor (Skylake)"), Isa::avx2), 2);
}

TEST(DocumentedThroughput, AmdFamilies) {
  EXPECT_EQ(ipc(cpu(CpuVendor::amd, 0x17, 0x01), Isa::avx2), 1);    // Zen 1
  EXPECT_EQ(ipc(cpu(CpuVendor::amd, 0x17, 0x31), Isa::avx2), 2);    // Zen 2
  EXPECT_EQ(ipc(cpu(CpuVendor::amd, 0x19, 0x11), Isa::avx512), 1);  // Zen 4
  EXPECT_EQ(ipc(cpu(CpuVendor::amd, 0x1a, 0x02), Isa::avx512), 2);  // Zen 5 server
  EXPECT_EQ(ipc(cpu(CpuVendor::amd, 0x1a, 0x24), Isa::avx512), 1);  // Zen 5 mobile
  EXPECT_EQ(ipc(cpu(CpuVendor::other, 6, 0x8f), Isa::avx2), -1);
}
#endif

#if defined(__aarch64__)
// On AArch64 the "family" is MIDR's implementer and the model its part number.
TEST(DocumentedThroughput, NeoverseAndA64fx) {
  EXPECT_EQ(ipc(cpu(CpuVendor::other, 0x41, 0xd0c), Isa::neon), 2);   // Neoverse N1
  EXPECT_EQ(ipc(cpu(CpuVendor::other, 0x41, 0xd0c), Isa::sve), -1);   // N1 has no SVE
  EXPECT_EQ(ipc(cpu(CpuVendor::other, 0x41, 0xd40), Isa::neon), 4);   // Neoverse V1
  EXPECT_EQ(ipc(cpu(CpuVendor::other, 0x41, 0xd40), Isa::sve), 2);    // 256-bit SVE, pipes paired
  EXPECT_EQ(ipc(cpu(CpuVendor::other, 0x46, 0x001), Isa::sve), 2);    // A64FX
  EXPECT_EQ(ipc(cpu(CpuVendor::other, 0x41, 0xd08), Isa::neon), -1);  // Cortex-A72: not known
  EXPECT_EQ(ipc(cpu(CpuVendor::other, 0x41, 0xd0c), Isa::avx2), -1);  // not an AArch64 ISA
}
#endif

}  // namespace
}  // namespace larm::platform
