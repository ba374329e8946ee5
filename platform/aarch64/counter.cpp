// The AArch64 counter: the generic timer's virtual count, constant-rate by the architecture
// (ARMv8-A: CNTFRQ_EL0 holds its frequency, set by firmware); its reads are inline
// (platform/aarch64/arch_inline.h). The clock still calibrates its rate against
// clock_gettime, as on x86-64, rather than trust CNTFRQ_EL0 (firmware has set it wrong).
#include "platform/arch.h"

namespace larm::platform::arch {

bool has_invariant_counter() {
  return true;
}

}  // namespace larm::platform::arch
