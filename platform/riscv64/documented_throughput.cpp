// RISC-V cores' documented FP throughput: none in larm's table yet, so a RISC-V CPU's FLOP
// ceilings are measured only, never compared with a vendor's figure.
#include "platform/cpu_info.h"

namespace larm::platform {

std::optional<DocumentedThroughput> documented_throughput(const CpuInfo& /*cpu*/, larm::Isa /*isa*/,
                                                          larm::FlopOp /*op*/) {
  return std::nullopt;
}

}  // namespace larm::platform
