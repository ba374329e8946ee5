// ISA traits, parsing, detection and the LARM_MAX_ISA cap.
#include <gtest/gtest.h>

#include <cstdlib>
#include <stdexcept>

#include "codegen/isa.h"

namespace larm::codegen {
namespace {

class ScopedEnv {
 public:
  ScopedEnv(const char* name, const char* value) : name_(name) {
    if (const char* old = std::getenv(name)) old_ = old, had_ = true;
    ::setenv(name, value, 1);
  }
  ~ScopedEnv() { had_ ? ::setenv(name_, old_.c_str(), 1) : ::unsetenv(name_); }

 private:
  const char* name_;
  std::string old_;
  bool had_ = false;
};

TEST(Isa, ParsesEveryNameBack) {
  for (Isa isa : larm::all<larm::Isa>()) EXPECT_EQ(larm::parse<larm::Isa>(name(isa)), isa);
  EXPECT_FALSE(larm::parse<larm::Isa>("avx512f").has_value());
  EXPECT_FALSE(larm::parse<larm::Isa>("").has_value());
}

TEST(Isa, TraitsMatchTheArchitecture) {
  if (!parse_isa("avx2")) GTEST_SKIP() << "x86-64's ISAs";
  EXPECT_EQ(traits(Isa::sse2).vector_bytes, 16);
  EXPECT_EQ(traits(Isa::avx2).vector_bytes, 32);
  EXPECT_EQ(traits(Isa::avx512).vector_bytes, 64);
  EXPECT_EQ(traits(Isa::avx2).register_count, 16);
  EXPECT_EQ(traits(Isa::avx512).register_count, 32);
  EXPECT_FALSE(traits(Isa::avx).has_fma);
  EXPECT_TRUE(traits(Isa::avx2).has_fma);
}

// The architecture's family: a covers b exactly when b's features are a subset of a's; the
// baseline is covered by every member, the widest covers every member, nothing else is implied.
TEST(Isa, CoversIsASubsetOfFeatures) {
  if (!parse_isa("avx2")) GTEST_SKIP() << "x86-64's ISAs";
  const std::vector<Isa>& family = isa_family();
  ASSERT_FALSE(family.empty());
  EXPECT_EQ(widest_isa(), family.back());
  for (Isa a : family) {
    EXPECT_TRUE(covers(a, a));
    EXPECT_TRUE(covers(a, baseline_isa())) << name(a);
    EXPECT_TRUE(covers(widest_isa(), a)) << name(a);
    for (Isa b : family) {
      const unsigned fa = traits(a).features, fb = traits(b).features;
      EXPECT_EQ(covers(a, b), (fa & fb) == fb) << name(a) << " " << name(b);
    }
  }
  EXPECT_TRUE(covers(Isa::avx512, Isa::avx2));
  EXPECT_FALSE(covers(Isa::avx, Isa::avx2));  // no FMA3 in avx
  EXPECT_FALSE(covers(Isa::sse2, Isa::avx));
  EXPECT_EQ(isa_names(), "sse2, avx, avx2, avx512");
  EXPECT_EQ(parse_isa("avx2"), Isa::avx2);
  EXPECT_FALSE(parse_isa("avx512f").has_value());
}

TEST(Isa, Sse2IsAlwaysUsableOnX86_64) {
  if (!parse_isa("avx2")) GTEST_SKIP() << "x86-64's ISAs";
  EXPECT_TRUE(cpu_supports(Isa::sse2));
  EXPECT_TRUE(usable(Isa::sse2));
}

TEST(Isa, WiderIsaImpliesNarrowerOnes) {
  const std::vector<Isa> isas = usable_isas();
  ASSERT_FALSE(isas.empty());
  for (std::size_t i = 0; i < isas.size(); ++i) EXPECT_EQ(isas[i], isa_family()[i]);
  EXPECT_EQ(widest_usable_isa(), isas.back());
}

TEST(Isa, CapRefusesWiderIsasWithAReason) {
  if (!parse_isa("avx2")) GTEST_SKIP() << "x86-64's ISAs";
  ScopedEnv cap("LARM_MAX_ISA", "sse2");
  EXPECT_FALSE(usable(Isa::avx));
  EXPECT_FALSE(usable(Isa::avx512));
  EXPECT_EQ(widest_usable_isa(), Isa::sse2);
  if (cpu_supports(Isa::avx)) {
    EXPECT_NE(unusable_reason(Isa::avx).find("LARM_MAX_ISA"), std::string::npos);
  } else {
    EXPECT_NE(unusable_reason(Isa::avx).find("not supported"), std::string::npos);
  }
  EXPECT_EQ(unusable_reason(Isa::sse2), "");
}

TEST(Isa, BadCapIsAnError) {
  ScopedEnv cap("LARM_MAX_ISA", "avx1024");
  EXPECT_THROW(isa_cap(), std::invalid_argument);
}

// A saved topology's CPU (vendor, family, model number): the ISAs it has for certain, none where
// the family and model do not say (a plan then prices the widest this build generates).
TEST(Isa, TheIsasOfADeclaredCpuAreKnownOnlyForCertain) {
  if (!parse_isa("avx2")) {
    EXPECT_FALSE(widest_isa_of_cpu("AuthenticAMD", 15, 33).has_value());  // x86-64's, not ours
    return;
  }
  EXPECT_EQ(widest_isa_of_cpu("AuthenticAMD", 15, 33), Isa::sse2);              // Opteron 865 (K8)
  EXPECT_EQ(widest_isa_of_cpu("AuthenticAMD", 0x10, std::nullopt), Isa::sse2);  // K10
  EXPECT_EQ(widest_isa_of_cpu("AuthenticAMD", 0x15, 0x02), Isa::avx);           // Piledriver
  EXPECT_EQ(widest_isa_of_cpu("AuthenticAMD", 0x15, 0x65), Isa::avx2);          // Excavator
  EXPECT_FALSE(widest_isa_of_cpu("AuthenticAMD", 0x15, std::nullopt).has_value());
  EXPECT_EQ(widest_isa_of_cpu("AuthenticAMD", 25, 1), Isa::avx2);       // Zen 3 (Milan)
  EXPECT_EQ(widest_isa_of_cpu("AuthenticAMD", 25, 0x11), Isa::avx512);  // Zen 4 (Genoa)
  EXPECT_FALSE(widest_isa_of_cpu("AuthenticAMD", 25, 0x90).has_value());
  EXPECT_EQ(widest_isa_of_cpu("AuthenticAMD", 26, 2), Isa::avx512);  // Zen 5
  EXPECT_EQ(widest_isa_of_cpu("GenuineIntel", 15, 107), Isa::sse2);  // NetBurst, QEMU's CPU
  EXPECT_EQ(widest_isa_of_cpu("GenuineIntel", 6, 45), Isa::avx);     // Sandy Bridge-EP
  EXPECT_EQ(widest_isa_of_cpu("GenuineIntel", 6, 79), Isa::avx2);    // Broadwell-EP
  EXPECT_EQ(widest_isa_of_cpu("GenuineIntel", 6, 85), Isa::avx512);  // Cascade Lake
  EXPECT_EQ(widest_isa_of_cpu("GenuineIntel", 6, 87), Isa::avx512);  // Knights Landing
  EXPECT_FALSE(widest_isa_of_cpu("GenuineIntel", 6, 0xFF).has_value());
  EXPECT_FALSE(widest_isa_of_cpu("GenuineIntel", 6, std::nullopt).has_value());
  EXPECT_FALSE(widest_isa_of_cpu("", 6, 85).has_value());
  EXPECT_FALSE(widest_isa_of_cpu("AuthenticAMD", std::nullopt, 1).has_value());
}

// AArch64: NEON is every ARMv8-A core's, 16 bytes and 24 registers the kernels may
// clobber; detection through the kernel's hardware capabilities.
TEST(Isa, NeonIsTheAArch64Baseline) {
  if (!parse_isa("neon")) GTEST_SKIP() << "AArch64's ISAs";
  EXPECT_EQ(baseline_isa(), Isa::neon);
  EXPECT_EQ(traits(Isa::neon).vector_bytes, 16);
  EXPECT_EQ(traits(Isa::neon).register_count, 24);
  EXPECT_TRUE(traits(Isa::neon).has_fma);
  EXPECT_TRUE(cpu_supports(Isa::neon));
  EXPECT_TRUE(usable(Isa::neon));
  EXPECT_FALSE(cpu_supports(Isa::avx2));  // another architecture's
  EXPECT_THROW(traits(Isa::avx512), std::invalid_argument);
}

}  // namespace
}  // namespace larm::codegen
