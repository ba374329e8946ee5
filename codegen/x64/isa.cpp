// The x86-64 ISAs: their traits and their detection (cpuid, and xgetbv for the registers the OS
// saves, through xbyak).
#include "codegen/isa.h"

#include <algorithm>
#include <stdexcept>
#include <utility>
#include <vector>

#include <xbyak/xbyak_util.h>

namespace larm::codegen {
namespace {

enum Feature : unsigned { kSse2 = 1, kAvx = 2, kAvx2 = 4, kFma3 = 8, kAvx512f = 16 };

struct Member {
  Isa isa;
  IsaTraits traits;
};
const Member kFamily[] = {
    {Isa::sse2, {*fixed_vector_bytes(Isa::sse2), 16, false, kSse2}},
    {Isa::avx, {*fixed_vector_bytes(Isa::avx), 16, false, kSse2 | kAvx}},
    {Isa::avx2, {*fixed_vector_bytes(Isa::avx2), 16, true, kSse2 | kAvx | kAvx2 | kFma3}},
    {Isa::avx512,
     {*fixed_vector_bytes(Isa::avx512), 32, true, kSse2 | kAvx | kAvx2 | kFma3 | kAvx512f}},
};

const Xbyak::util::Cpu& cpu() {
  static const Xbyak::util::Cpu detected;
  return detected;
}

}  // namespace

const std::vector<Isa>& isa_family() {
  static const std::vector<Isa> family = [] {
    std::vector<Isa> isas;
    for (const Member& m : kFamily) isas.push_back(m.isa);
    return isas;
  }();
  return family;
}

Isa baseline_isa() {
  return Isa::sse2;
}

const IsaTraits& traits(Isa isa) {
  for (const Member& m : kFamily) {
    if (m.isa == isa) return m.traits;
  }
  throw std::invalid_argument(std::string("ISA ") + name(isa) + " is not an x86-64 ISA");
}

std::optional<int> scalable_vector_bytes() {
  return std::nullopt;  // every x86-64 ISA has a fixed width
}

bool cpu_supports(Isa isa) {
  using Xbyak::util::Cpu;
  // xbyak sets the AVX and AVX-512 bits only when XCR0 says the OS saves those registers.
  switch (isa) {
    case Isa::sse2:
      return cpu().has(Cpu::tSSE2);
    case Isa::avx:
      return cpu().has(Cpu::tAVX);
    case Isa::avx2:
      return cpu().has(Cpu::tAVX2) && cpu().has(Cpu::tFMA);
    case Isa::avx512:
      return cpu().has(Cpu::tAVX512F);
    default:  // another architecture's
      return false;
  }
}

namespace {

struct ModelRange {
  int first, last;
  Isa isa;
};

std::optional<Isa> in_ranges(std::optional<int> model, std::initializer_list<ModelRange> ranges) {
  if (!model) return std::nullopt;
  for (const ModelRange& r : ranges) {
    if (*model >= r.first && *model <= r.last) return r.isa;
  }
  return std::nullopt;
}

// Intel family 6 by model number (Intel's SDM, the DisplayModel values).
const std::pair<Isa, std::vector<int>> kIntelFamily6[] = {
    // Core 2, Nehalem, Westmere; Atoms from Bonnell to Tremont: no AVX.
    {Isa::sse2, {0x0F, 0x16, 0x17, 0x1D, 0x1A, 0x1E, 0x1F, 0x2E, 0x25, 0x2C, 0x2F, 0x1C, 0x26,
                 0x36, 0x37, 0x4A, 0x4C, 0x4D, 0x5A, 0x5C, 0x5F, 0x7A, 0x86, 0x96, 0x9C}},
    // Sandy Bridge, Ivy Bridge.
    {Isa::avx, {0x2A, 0x2D, 0x3A, 0x3E}},
    // Haswell, Broadwell, Skylake to Comet Lake (clients), Alder and Raptor Lake.
    {Isa::avx2,
     {0x3C, 0x3F, 0x45, 0x46, 0x3D, 0x47, 0x4F, 0x56, 0x4E, 0x5E, 0x8E, 0x9E, 0xA5, 0xA6, 0x97,
      0x9A, 0xB7, 0xBA, 0xBF}},
    // Xeon Phi (Knights Landing, Mill); Skylake-SP to Granite Rapids; Cannon, Ice, Tiger, Rocket
    // Lake.
    {Isa::avx512,
     {0x57, 0x85, 0x55, 0x6A, 0x6C, 0x8F, 0xCF, 0xAD, 0xAE, 0x66, 0x7D, 0x7E, 0x8C, 0x8D, 0xA7}},
};

}  // namespace

// AMD by family (AMD's BIOS and Kernel Developer's Guides and Processor Programming References):
// K8 (0Fh), K10 (10h), 11h, Llano (12h) and Bobcat (14h) have no AVX; Bulldozer to Steamroller
// (15h, models 00h-5Fh) AVX, Excavator (15h, 60h-7Fh) AVX2; Jaguar (16h) AVX; Zen to Zen 2 (17h)
// and Hygon's Dhyana (18h) AVX2; in 19h Zen 3 (00h-0Fh, 20h-5Fh) AVX2 and Zen 4 (10h-1Fh, 60h-7Fh,
// A0h-AFh) AVX-512; Zen 5 (1Ah) AVX-512. Intel: NetBurst (family 15) SSE2; family 6 by model
// (kIntelFamily6). A family or model not named here: none.
std::optional<Isa> widest_isa_of_cpu(std::string_view vendor, std::optional<int> family,
                                     std::optional<int> model) {
  if (!family) return std::nullopt;
  if (vendor == "AuthenticAMD" || vendor == "HygonGenuine") {
    switch (*family) {
      case 0x0F:
      case 0x10:
      case 0x11:
      case 0x12:
      case 0x14:
        return Isa::sse2;
      case 0x15:
        return in_ranges(model, {{0x00, 0x5F, Isa::avx}, {0x60, 0x7F, Isa::avx2}});
      case 0x16:
        return Isa::avx;
      case 0x17:
      case 0x18:
        return Isa::avx2;
      case 0x19:
        return in_ranges(model, {{0x00, 0x0F, Isa::avx2},
                                 {0x10, 0x1F, Isa::avx512},
                                 {0x20, 0x5F, Isa::avx2},
                                 {0x60, 0x7F, Isa::avx512},
                                 {0xA0, 0xAF, Isa::avx512}});
      case 0x1A:
        return Isa::avx512;
      default:
        return std::nullopt;
    }
  }
  if (vendor == "GenuineIntel") {
    if (*family == 15) return Isa::sse2;
    if (*family != 6 || !model) return std::nullopt;
    for (const auto& [isa, models] : kIntelFamily6) {
      if (std::find(models.begin(), models.end(), *model) != models.end()) return isa;
    }
    return std::nullopt;
  }
  return std::nullopt;
}

}  // namespace larm::codegen
