// The kernel families; each only implements generate(). Built through make_kernel().
#pragma once

#include "codegen/kernel.h"

namespace larm::codegen {

// load, store, store-nt, copy, 2ld1st over 1–3 streams (METHOD §2, §4).
class StreamKernel final : public Kernel {
 public:
  using Kernel::Kernel;

 private:
  void generate() override;
};

// add, mul or fma on registers only, with independent accumulators.
class FlopsKernel final : public Kernel {
 public:
  using Kernel::Kernel;

 private:
  void generate() override;
};

// Pointer chase: each load's address is the value of the previous one.
class ChaseKernel final : public Kernel {
 public:
  using Kernel::Kernel;

 private:
  void generate() override;
};

// One chain of dependent integer adds: one add per core cycle, to measure the frequency.
class ClockKernel final : public Kernel {
 public:
  using Kernel::Kernel;

 private:
  void generate() override;
};

}  // namespace larm::codegen
