// The x86-64 generators of the kernel families; each only implements generate(). Built through
// make_kernel().
#pragma once

#include "codegen/x64/generator.h"

namespace larm::codegen::x64 {

// What the stream-shaped kernels share: sweeps over 1–3 streams with one access mix.
class StreamGenerator : public Generator {
 protected:
  using Generator::Generator;
  // The sweeps over the streams, the access mix `unroll` times per iteration using the first
  // data_registers vector registers (accumulating loads when checksum); after_group(k) emits what
  // follows the k-th access.
  void generate_streams(Access access, int unroll, bool checksum, int data_registers,
                        const std::function<void(int)>& after_group);
};

// load, store, store-nt, copy, 2ld1st over 1–3 streams (METHOD §2, §4).
class StreamKernel final : public StreamGenerator {
 public:
  explicit StreamKernel(const StreamSpec& spec) : StreamGenerator(spec), stream_(spec) {}

 private:
  void generate() override;
  StreamSpec stream_;
};

// A stream kernel with fp_ops independent FP instructions spread among its accesses: their
// operands are constant registers and each writes its own accumulator, so nothing waits on
// memory and the arithmetic intensity is exact (METHOD §7).
class MixedKernel final : public StreamGenerator {
 public:
  explicit MixedKernel(const MixedSpec& spec) : StreamGenerator(spec), mixed_(spec) {}

 private:
  void generate() override;
  MixedSpec mixed_;
};

// Loads from src0 and stores to dst, unroll loads and `stores` stores per iteration, each stream
// advancing by its own bytes: a chosen read/write byte ratio (METHOD §8).
class ReadWriteKernel final : public Generator {
 public:
  explicit ReadWriteKernel(const ReadWriteSpec& spec) : Generator(spec), readwrite_(spec) {}

 private:
  void generate() override;
  ReadWriteSpec readwrite_;
};

// STREAM's copy c=a, scale b=s·c, add c=a+b, triad a=b+s·c and ddot Σ a·b over src0, src1 and
// dst (s: the first element of fill); ddot leaves its partial sums in out.
class StreamBenchmarkKernel final : public Generator {
 public:
  explicit StreamBenchmarkKernel(const StreamBenchSpec& spec) : Generator(spec), benchmark_(spec) {}

 private:
  void generate() override;
  StreamBenchSpec benchmark_;
};

// add, mul or fma on registers only, with independent accumulators.
class FlopsKernel final : public Generator {
 public:
  explicit FlopsKernel(const FlopsSpec& spec) : Generator(spec), flops_(spec) {}

 private:
  void generate() override;
  FlopsSpec flops_;
};

// Pointer chase: each load's address is the value of the previous one.
class ChaseKernel final : public Generator {
 public:
  explicit ChaseKernel(const ChaseSpec& spec) : Generator(spec), chase_(spec) {}

 private:
  void generate() override;
  ChaseSpec chase_;
};

// One chain of dependent integer adds or imuls of known latency, to measure the core clock,
// alone or under an ISA's FP load.
class ClockKernel final : public Generator {
 public:
  explicit ClockKernel(const ClockSpec& spec) : Generator(spec), clock_(spec) {}

 private:
  void generate() override;
  ClockSpec clock_;
};

}  // namespace larm::codegen::x64
