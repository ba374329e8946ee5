// The FP throughput the vendors of x86-64 CPUs document, per microarchitecture, ISA and
// operation (instructions per cycle per core), with the document it comes from.
#include "platform/cpu_info.h"

#include <utility>

namespace larm::platform {
namespace {

// Skylake-SP and Cascade Lake Xeons have one or two 512-bit FMA units by SKU (Intel Xeon Scalable
// Processor product briefs and ark.intel.com "# of AVX-512 FMA Units"): Platinum and Gold 6xxx
// two, Silver, Bronze and Gold 5xxx one, except the Gold 5122 (two). 0: the name does not say.
int skylake_sp_fma_units(const std::string& model_name) {
  if (model_name.find("Platinum") != std::string::npos) return 2;
  if (model_name.find("Silver") != std::string::npos ||
      model_name.find("Bronze") != std::string::npos) {
    return 1;
  }
  if (const auto gold = model_name.find("Gold "); gold != std::string::npos) {
    const std::string number = model_name.substr(gold + 5, 4);
    if (number == "5122") return 2;
    if (!number.empty() && number[0] == '5') return 1;
    if (!number.empty() && number[0] == '6') return 2;
  }
  return 0;
}

}  // namespace

std::optional<DocumentedThroughput> documented_throughput(const CpuInfo& cpu, larm::Isa isa,
                                                          larm::FlopOp op) {
  using larm::FlopOp;
  using larm::Isa;
  // Vector instructions per cycle per core. AMD: Software Optimization Guides for family 17h
  // (pub. 55723), 19h (pub. 56665, 57647) and 1Ah (pub. 58455); Intel: the thesis' table 4.1
  // for Broadwell and the Intel 64 and IA-32 Architectures Optimization Reference Manual
  // (order 248966; its per-microarchitecture chapters give the FP ports: from Skylake on, add,
  // mul and fma all run on the two FMA ports 0 and 1, and 512-bit operations on ports 0+1 fused
  // and port 5 where the part has the second FMA unit).
  if (cpu.vendor_id == CpuVendor::amd) {
    // The figures below are per operation; adds and multiplies together (addmul) use both the
    // ADD pipes and the FMA/MUL pipes, twice the figure.
    const auto amd = [&](double ipc, const char* microarchitecture, std::string source) {
      return DocumentedThroughput{op == FlopOp::addmul ? 2 * ipc : ipc, microarchitecture,
                                  std::move(source)};
    };
    if (cpu.family == 0x17 && cpu.model < 0x30) {
      // Zen 1: four 128-bit pipes, two of them FMA/MUL, two ADD; 256-bit ops take two slots.
      const double ipc = isa == Isa::sse2 ? 2 : 1;
      return amd(ipc, "Zen", "AMD Software Optimization Guide, family 17h");
    }
    if (cpu.family == 0x17 || (cpu.family == 0x19 && isa != Isa::avx512)) {
      // Zen 2, Zen 3, Zen 4 up to 256 bits: two FMA/MUL pipes and two ADD pipes.
      return amd(2, cpu.family == 0x17 ? "Zen 2" : "Zen 3/Zen 4",
                 "AMD Software Optimization Guide, family 17h/19h");
    }
    if (cpu.family == 0x19 && isa == Isa::avx512) {
      // Zen 4 runs 512-bit operations on its 256-bit pipes in two passes.
      return amd(1, "Zen 4", "AMD Software Optimization Guide for family 19h (pub. 57647)");
    }
    if (cpu.family == 0x1a) {
      // Zen 5: two FMA/MUL and two ADD pipes. Server (models 00h-1Fh) and desktop (40h-4Fh) parts
      // have them 512 bits wide; the mobile parts run 512-bit operations in two 256-bit passes.
      const bool full_width = cpu.model < 0x20 || (cpu.model >= 0x40 && cpu.model < 0x50);
      if (isa == Isa::avx512 && !full_width) {
        return amd(1, "Zen 5 (256-bit datapath)",
                   "AMD Software Optimization Guide for family 1Ah (pub. 58455)");
      }
      return amd(2, "Zen 5", "AMD Software Optimization Guide for family 1Ah (pub. 58455)");
    }
  }
  if (cpu.vendor_id == CpuVendor::intel && cpu.family == 6) {
    const char* const manual = "Intel Optimization Reference Manual (order 248966)";
    switch (cpu.model) {
      case 0x3c:
      case 0x3f:
      case 0x45:
      case 0x46:  // Haswell
      case 0x3d:
      case 0x47:
      case 0x4f:
      case 0x56:  // Broadwell
        if (isa == Isa::avx512) return std::nullopt;
        // Thesis table 4.1 (Broadwell): add 1, mul 2, fma 2 per cycle; adds (port 1) and
        // multiplies (ports 0 and 1) together 2. From Skylake on, every operation and any mix
        // of them shares the FMA ports: one figure for all.
        return DocumentedThroughput{op == FlopOp::add ? 1.0 : 2.0, "Haswell/Broadwell",
                                    "thesis table 4.1; Intel Optimization Reference Manual"};
      case 0x55: {  // Skylake-SP, Cascade Lake, Cooper Lake
        if (isa != Isa::avx512) return DocumentedThroughput{2, "Skylake-SP", manual};
        const int units = skylake_sp_fma_units(cpu.model_name);
        if (units == 0) return std::nullopt;
        return DocumentedThroughput{static_cast<double>(units), "Skylake-SP",
                                    std::string(manual) + "; AVX-512 FMA units per SKU: ark"};
      }
      case 0x6a:
      case 0x6c:  // Ice Lake-SP
        return DocumentedThroughput{2, "Ice Lake-SP", manual};
      case 0x8f:  // Sapphire Rapids
      case 0xcf:  // Emerald Rapids
        return DocumentedThroughput{2, "Sapphire/Emerald Rapids (Golden/Raptor Cove)", manual};
      case 0xad:
      case 0xae:  // Granite Rapids
        return DocumentedThroughput{2, "Granite Rapids (Redwood Cove)", manual};
      default:
        break;
    }
  }
  return std::nullopt;
}

}  // namespace larm::platform
