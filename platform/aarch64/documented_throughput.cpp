// The FP throughput Arm core vendors document, per core, ISA and operation (vector instructions
// per cycle per core), with the document it comes from. FADD, FMUL and FMLA issue to the same
// FP/ASIMD pipes on these cores, so one figure holds for all three operations. Cross-checked
// against LLVM's scheduling models, written from those guides
// (llvm/lib/Target/AArch64/AArch64SchedNeoverse{V1,V2,N2}.td): on V1, ASIMD FMLA issues to
// FP/ASIMD pipes V0-V3 (V1Wr_FPMA) and SVE FMLA, FADD, FMUL to V0/V1 (V1Wr_ZFMA,
// V1Write_2c_1V01); on V2 both to V0-V3 (V2Wr_VFMA, V2Wr_ZFMA); N2 has two FP/ASIMD pipes, V0
// and V1. N1 and A64FX are not cross-checked yet.
#include "platform/cpu_info.h"

namespace larm::platform {

std::optional<DocumentedThroughput> documented_throughput(const CpuInfo& cpu, larm::Isa isa,
                                                          larm::FlopOp /*op*/) {
  using larm::Isa;
  if (isa != Isa::neon && isa != Isa::sve) return std::nullopt;
  const bool sve = isa == Isa::sve;
  if (cpu.family == 0x41) {  // Arm Ltd
    switch (cpu.model) {
      case 0xd0c:  // two 128-bit FP/ASIMD pipes (V0, V1), no SVE
        if (sve) return std::nullopt;
        return DocumentedThroughput{2, "Neoverse N1",
                                    "Arm Neoverse N1 Software Optimization Guide"};
      case 0xd49:  // two 128-bit pipes; SVE2 at 128 bits
        return DocumentedThroughput{2, "Neoverse N2",
                                    "Arm Neoverse N2 Software Optimization Guide"};
      case 0xd40:  // four 128-bit pipes for ASIMD; SVE at 256 bits on them paired
        return DocumentedThroughput{sve ? 2.0 : 4.0, "Neoverse V1",
                                    "Arm Neoverse V1 Software Optimization Guide"};
      case 0xd4f:  // four 128-bit pipes; SVE2 at 128 bits
        return DocumentedThroughput{4, "Neoverse V2",
                                    "Arm Neoverse V2 Software Optimization Guide"};
      default:
        return std::nullopt;
    }
  }
  if (cpu.family == 0x46 && cpu.model == 0x001) {
    // Two 512-bit FMA pipes (FLA, FLB); ASIMD runs on them at 128 bits.
    return DocumentedThroughput{2, "A64FX", "Fujitsu A64FX Microarchitecture Manual"};
  }
  return std::nullopt;
}

}  // namespace larm::platform
