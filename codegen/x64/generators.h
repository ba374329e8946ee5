// The x86-64 generators of the kernel families; each only implements generate(). Built through
// make_kernel().
#pragma once

#include "codegen/x64/generator.h"

namespace larm::codegen::x64 {

// load, store, store-nt, copy, 2ld1st over 1–3 streams (METHOD §2, §4).
class StreamKernel : public Generator {
 public:
  using Generator::Generator;

 protected:
  // The sweeps over the streams, the spec's access mix `unroll` times per iteration using the
  // first data_registers vector registers; after_group(k) emits what follows the k-th access.
  void generate_streams(int data_registers, const std::function<void(int)>& after_group);

 private:
  void generate() override;
};

// A stream kernel with fp_ops independent FP instructions spread among its accesses: their
// operands are constant registers and each writes its own accumulator, so nothing waits on
// memory and the arithmetic intensity is exact (METHOD §7).
class MixedKernel final : public StreamKernel {
 public:
  using StreamKernel::StreamKernel;

 private:
  void generate() override;
};

// Loads from src0 and stores to dst, unroll loads and `stores` stores per iteration, each stream
// advancing by its own bytes: a chosen read/write byte ratio (METHOD §8).
class ReadWriteKernel final : public Generator {
 public:
  using Generator::Generator;

 private:
  void generate() override;
};

// STREAM's copy c=a, scale b=s·c, add c=a+b, triad a=b+s·c and ddot Σ a·b over src0, src1 and
// dst (s: the first element of fill); ddot leaves its partial sums in out.
class StreamBenchmarkKernel final : public Generator {
 public:
  using Generator::Generator;

 private:
  void generate() override;
};

// add, mul or fma on registers only, with independent accumulators.
class FlopsKernel final : public Generator {
 public:
  using Generator::Generator;

 private:
  void generate() override;
};

// Pointer chase: each load's address is the value of the previous one.
class ChaseKernel final : public Generator {
 public:
  using Generator::Generator;

 private:
  void generate() override;
};

// One chain of dependent integer adds: one add per core cycle, to measure the frequency.
class ClockKernel final : public Generator {
 public:
  using Generator::Generator;

 private:
  void generate() override;
};

}  // namespace larm::codegen::x64
