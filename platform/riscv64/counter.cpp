// The RISC-V counter: the time CSR, constant-rate by the privileged specification (it counts the
// platform's real-time clock, whose frequency the device tree's timebase-frequency gives); its
// reads are inline (platform/riscv64/arch_inline.h). The clock calibrates its rate against
// clock_gettime, as on the other architectures.
#include "platform/arch.h"

namespace larm::platform::arch {

bool has_invariant_counter() {
  return true;
}

}  // namespace larm::platform::arch
