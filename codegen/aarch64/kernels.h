// The AArch64 generators of the kernel families (stream, flops, chase and the add-chain
// clock so far, NEON and SVE); each only implements generate().
#pragma once

#include "codegen/aarch64/generator.h"

namespace larm::codegen::aarch64 {

// load, store, store-nt, copy, 2ld1st over 1-3 streams (METHOD §2, §4).
class StreamKernel final : public Generator {
 public:
  explicit StreamKernel(const StreamSpec& spec) : Generator(spec), stream_(spec) {}

 private:
  void generate() override;
  void generate_neon();
  void generate_sve();
  StreamSpec stream_;
};

// add, mul or fma (FMLA) on independent accumulators, no memory traffic.
class FlopsKernel final : public Generator {
 public:
  explicit FlopsKernel(const FlopsSpec& spec) : Generator(spec), flops_(spec) {}

 private:
  void generate() override;
  FlopsSpec flops_;
};

// A pointer chase: each load's address is the previous load's value.
class ChaseKernel final : public Generator {
 public:
  explicit ChaseKernel(const ChaseSpec& spec) : Generator(spec), chase_(spec) {}

 private:
  void generate() override;
  ChaseSpec chase_;
};

// A dependent add chain, one link per core cycle, optionally beside an ISA's FP load.
class ClockKernel final : public Generator {
 public:
  explicit ClockKernel(const ClockSpec& spec) : Generator(spec), clock_(spec) {}

 private:
  void generate() override;
  ClockSpec clock_;
};

// The kernels of validate and the hybrid model (validation_kernels.cpp), NEON and SVE alike: whole
// vectors at offsets from each stream's pointer, the pointers advanced once an iteration.

// A stream access mix with fp_ops FP instructions spread over its accesses (METHOD §7).
class MixedKernel final : public Generator {
 public:
  explicit MixedKernel(const MixedSpec& spec) : Generator(spec), mixed_(spec) {}

 private:
  void generate() override;
  MixedSpec mixed_;
};

// A read stream and a write stream at a chosen byte ratio, each at its own pace (METHOD §8).
class ReadWriteKernel final : public Generator {
 public:
  explicit ReadWriteKernel(const ReadWriteSpec& spec) : Generator(spec), readwrite_(spec) {}

 private:
  void generate() override;
  ReadWriteSpec readwrite_;
};

// STREAM's copy, scale, add, triad and ddot, computing their results (METHOD §8).
class StreamBenchmarkKernel final : public Generator {
 public:
  explicit StreamBenchmarkKernel(const StreamBenchSpec& spec) : Generator(spec), benchmark_(spec) {}

 private:
  void generate() override;
  StreamBenchSpec benchmark_;
};

}  // namespace larm::codegen::aarch64
