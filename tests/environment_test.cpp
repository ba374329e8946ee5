// The environment's words as a reader sees them.
#include <gtest/gtest.h>

#include "platform/environment.h"

namespace larm::platform {
namespace {

TEST(Environment, HypervisorSignaturesReadAsTheirNames) {
  EXPECT_EQ(hypervisor_name("KVMKVMKVM"), "KVM");
  EXPECT_EQ(hypervisor_name("KVMKVMKVM   "), "KVM");  // CPUID pads to 12 bytes
  EXPECT_EQ(hypervisor_name("Microsoft Hv"), "Hyper-V");
  EXPECT_EQ(hypervisor_name("bhyve bhyve "), "bhyve");
  EXPECT_EQ(hypervisor_name("NewVisor"), "NewVisor");  // unknown: as it is
}

}  // namespace
}  // namespace larm::platform
