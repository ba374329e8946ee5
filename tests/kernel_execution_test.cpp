// Generated kernels do the work their metadata claims: loads see every byte once per sweep,
// stores write exactly their bytes, FLOP kernels compute the expected values. Run for every
// ISA usable on this machine (LARM_MAX_ISA lowers it).
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <numeric>
#include <vector>

#include "codegen/factory.h"
#include "kernels/drivers.h"

namespace larm::codegen {
namespace {

// 64-byte aligned storage with guard zones before and after the region a kernel may touch.
class GuardedBuffer {
 public:
  static constexpr std::size_t kGuard = 256;
  static constexpr unsigned char kSentinel = 0xAB;
  explicit GuardedBuffer(std::size_t bytes)
      : bytes_(bytes), storage_(bytes + 2 * kGuard + 64, kSentinel) {
    auto address = reinterpret_cast<std::uintptr_t>(storage_.data());
    base_ = storage_.data() + ((64 - address % 64) % 64);
  }
  unsigned char* data() { return base_ + kGuard; }
  bool guards_intact() const {
    for (std::size_t i = 0; i < kGuard; ++i) {
      if (base_[i] != kSentinel || base_[kGuard + bytes_ + i] != kSentinel) return false;
    }
    return true;
  }

 private:
  std::size_t bytes_;
  std::vector<unsigned char> storage_;
  unsigned char* base_;
};

class UsableIsa : public ::testing::TestWithParam<Isa> {
 protected:
  void SetUp() override {
    if (!usable(GetParam())) GTEST_SKIP() << unusable_reason(GetParam());
  }
};

alignas(64) const double kFill[8] = {2.5, 2.5, 2.5, 2.5, 2.5, 2.5, 2.5, 2.5};

TEST_P(UsableIsa, LoadChecksumSeesEveryElementOncePerSweep) {
  const StreamSpec spec{.isa = GetParam(), .access = Access::load, .checksum = true};
  const auto kernel = make_kernel(spec);
  const std::size_t bytes = 3 * stream_chunk_bytes(spec);
  GuardedBuffer src(bytes);
  auto* values = reinterpret_cast<double*>(src.data());
  double expected = 0;
  for (std::size_t i = 0; i < bytes / 8; ++i) {
    values[i] = static_cast<double>(i % 7 + 1);
    expected += values[i];
  }
  // Every vector register of the ISA (an SVE register is up to 256 bytes).
  std::vector<double> out(static_cast<std::size_t>(traits(spec.isa).register_count *
                                                   traits(spec.isa).vector_bytes / 8));
  KernelArgs args;
  args.src0 = src.data();
  args.bytes_per_stream = bytes;
  args.repetitions = 5;
  args.out = out.data();
  kernel->run(args);
  const int lanes = traits(spec.isa).vector_bytes / 8;
  double sum = 0;
  for (int r = 0; r < traits(spec.isa).register_count; ++r) {
    for (int l = 0; l < lanes; ++l) sum += out[r * lanes + l];
  }
  EXPECT_DOUBLE_EQ(sum, 5 * expected);
}

TEST_P(UsableIsa, StoreKernelsWriteExactlyTheirBytes) {
  for (Access access : {Access::store, Access::store_nt}) {
    const StreamSpec spec{.isa = GetParam(), .access = access};
    const auto kernel = make_kernel(spec);
    const std::size_t bytes = 2 * stream_chunk_bytes(spec);
    GuardedBuffer dst(bytes);
    KernelArgs args;
    args.dst = dst.data();
    args.bytes_per_stream = bytes;
    args.repetitions = 2;
    args.fill = kFill;
    kernel->run(args);
    const auto* written = reinterpret_cast<const double*>(dst.data());
    for (std::size_t i = 0; i < bytes / 8; ++i)
      ASSERT_EQ(written[i], 2.5) << name(access) << " " << i;
    EXPECT_TRUE(dst.guards_intact()) << name(access);
    // Bytes per sweep from the metadata are exactly the bytes the kernel wrote.
    EXPECT_EQ(kernel->metadata().bytes_stored * (bytes / stream_chunk_bytes(spec)), bytes);
  }
}

TEST_P(UsableIsa, CopyAndTwoLoadsOneStoreCopyTheirFirstStream) {
  for (Access access : {Access::copy, Access::ld2st1}) {
    const StreamSpec spec{.isa = GetParam(), .access = access};
    const auto kernel = make_kernel(spec);
    const std::size_t bytes = 2 * stream_chunk_bytes(spec);
    GuardedBuffer a(bytes), b(bytes), dst(bytes);
    auto* av = reinterpret_cast<double*>(a.data());
    auto* bv = reinterpret_cast<double*>(b.data());
    for (std::size_t i = 0; i < bytes / 8; ++i) {
      av[i] = static_cast<double>(i) + 0.5;
      bv[i] = -1;
    }
    KernelArgs args;
    args.src0 = a.data();
    args.src1 = b.data();
    args.dst = dst.data();
    args.bytes_per_stream = bytes;
    args.repetitions = 1;
    kernel->run(args);
    EXPECT_EQ(std::memcmp(a.data(), dst.data(), bytes), 0) << name(access);
    EXPECT_TRUE(dst.guards_intact() && a.guards_intact() && b.guards_intact()) << name(access);
  }
}

TEST_P(UsableIsa, FlopKernelsComputeTheExpectedValues) {
  for (Precision precision : {Precision::sp, Precision::dp}) {
    for (FlopOp op : {FlopOp::add, FlopOp::mul, FlopOp::fma}) {
      if (op == FlopOp::fma && !traits(GetParam()).has_fma) continue;
      const FlopsSpec spec{.isa = GetParam(), .op = op, .precision = precision};
      const auto kernel = make_kernel(spec);
      alignas(64) const double ones_dp[8] = {1, 1, 1, 1, 1, 1, 1, 1};
      alignas(64) const float ones_sp[16] = {1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1};
      std::vector<double> out_storage(static_cast<std::size_t>(traits(spec.isa).register_count *
                                                               traits(spec.isa).vector_bytes / 8));
      const auto* out = out_storage.data();
      KernelArgs args;
      args.fill = precision == Precision::dp ? static_cast<const void*>(ones_dp)
                                             : static_cast<const void*>(ones_sp);
      args.out = out_storage.data();
      args.repetitions = 100;
      kernel->run(args);
      const int accumulators = traits(spec.isa).register_count - 2;
      const int lanes = traits(spec.isa).vector_bytes / (precision == Precision::dp ? 8 : 4);
      double sum = 0;
      for (int i = 0; i < accumulators * lanes; ++i) {
        sum += precision == Precision::dp ? reinterpret_cast<const double*>(out)[i]
                                          : reinterpret_cast<const float*>(out)[i];
      }
      // add and fma on ones add one per lane per instruction; mul keeps every lane at one.
      const double expected = op == FlopOp::mul
                                  ? static_cast<double>(accumulators * lanes)
                                  : static_cast<double>(kernel->metadata().fp_instructions * 100 *
                                                        static_cast<std::uint64_t>(lanes));
      EXPECT_DOUBLE_EQ(sum, expected) << spec.name();
    }
  }
}

// A mixed kernel does its FP work (on ones: each add or fma adds one per lane) and its memory
// work (copy: the destination equals the source) in the same run.
TEST_P(UsableIsa, MixedKernelsDoBothTheirFlopsAndTheirAccesses) {
  if (!can_generate(MixedSpec{.isa = GetParam(), .fp_ops = 1}))
    GTEST_SKIP() << "not generated here";
  for (FlopOp op : {FlopOp::add, FlopOp::fma}) {
    if (op == FlopOp::fma && !traits(GetParam()).has_fma) continue;
    const auto spec =
        mixed_spec({.isa = GetParam(), .access = Access::copy, .op = op}, Intensity{3, 8});
    ASSERT_TRUE(spec);
    const auto kernel = make_kernel(*spec);
    const std::size_t bytes = 4 * stream_chunk_bytes(*spec);
    GuardedBuffer src(bytes), dst(bytes);
    for (std::size_t i = 0; i < bytes; ++i) src.data()[i] = static_cast<unsigned char>(i * 7);
    alignas(64) const double ones[8] = {1, 1, 1, 1, 1, 1, 1, 1};
    // Every vector register of the ISA (an SVE register is up to 256 bytes).
    std::vector<double> out_storage(static_cast<std::size_t>(traits(spec->isa).register_count *
                                                             traits(spec->isa).vector_bytes / 8));
    const auto* out = out_storage.data();
    KernelArgs args;
    args.src0 = src.data();
    args.dst = dst.data();
    args.bytes_per_stream = bytes;
    args.repetitions = 3;
    args.fill = ones;
    args.out = out_storage.data();
    kernel->run(args);
    EXPECT_EQ(std::memcmp(src.data(), dst.data(), bytes), 0) << spec->name();
    EXPECT_TRUE(dst.guards_intact()) << spec->name();
    const int lanes = traits(spec->isa).vector_bytes / 8;
    const int accumulators = traits(spec->isa).register_count - 6;
    double sum = 0;
    for (int i = 0; i < accumulators * lanes; ++i) sum += reinterpret_cast<const double*>(out)[i];
    const double iterations = 3.0 * 4;  // sweeps x iterations per sweep
    EXPECT_DOUBLE_EQ(sum, iterations * spec->fp_ops * lanes) << spec->name();
  }
}

// The read/write mix stores its fill over exactly its write stream (guards intact) and its
// loads stay inside the read stream, for every ratio of the sweep's grid.
TEST_P(UsableIsa, ReadWriteKernelsTouchExactlyTheirTwoStreams) {
  if (!can_generate(readwrite_spec(GetParam(), 0.5))) GTEST_SKIP() << "not generated here";
  for (double ratio_read : {0.0, 0.25, 0.5, 0.75, 1.0, 0.1}) {
    const ReadWriteSpec spec = readwrite_spec(GetParam(), ratio_read);
    const auto kernel = make_kernel(spec);
    const double measured =
        static_cast<double>(kernel->metadata().bytes_loaded) /
        static_cast<double>(kernel->metadata().bytes_loaded + kernel->metadata().bytes_stored);
    EXPECT_NEAR(measured, ratio_read, 1e-12) << spec.name();
    const std::size_t width = static_cast<std::size_t>(traits(GetParam()).vector_bytes);
    const std::uint64_t iterations = 3;
    const std::size_t read_bytes = iterations * static_cast<std::size_t>(spec.loads) * width;
    const std::size_t write_bytes = iterations * static_cast<std::size_t>(spec.stores) * width;
    GuardedBuffer src(read_bytes), dst(write_bytes);
    std::memset(src.data(), 0, read_bytes);
    KernelArgs args;
    args.src0 = read_bytes ? src.data() : nullptr;
    args.dst = write_bytes ? dst.data() : nullptr;
    args.iterations = iterations;
    args.repetitions = 2;
    args.fill = kFill;
    kernel->run(args);
    const auto* written = reinterpret_cast<const double*>(dst.data());
    for (std::size_t i = 0; i < write_bytes / 8; ++i) {
      ASSERT_EQ(written[i], 2.5) << spec.name() << " element " << i;
    }
    EXPECT_TRUE(src.guards_intact()) << spec.name();
    EXPECT_TRUE(dst.guards_intact()) << spec.name();
  }
}

// STREAM's kernels compute their results: c = a, b = s·c, c = a + b, a = b + s·c, Σ a·b.
TEST_P(UsableIsa, StreamBenchmarksComputeTheirResults) {
  if (!can_generate(StreamBenchSpec{.isa = GetParam()})) GTEST_SKIP() << "not generated here";
  for (StreamBenchmark benchmark : all_stream_benchmarks()) {
    const StreamBenchSpec spec{.isa = GetParam(), .benchmark = benchmark};
    const auto kernel = make_kernel(spec);
    const std::size_t bytes = 2 * stream_chunk_bytes(spec);
    const std::size_t n = bytes / 8;
    GuardedBuffer in0(bytes), in1(bytes), out(bytes);
    auto* x = reinterpret_cast<double*>(in0.data());
    auto* y = reinterpret_cast<double*>(in1.data());
    auto* z = reinterpret_cast<double*>(out.data());
    for (std::size_t i = 0; i < n; ++i) {
      x[i] = static_cast<double>(i % 5 + 1);
      y[i] = static_cast<double>(i % 3 + 1);
      z[i] = -1;
    }
    std::vector<double> sums(32 * 8, 0);
    KernelArgs args;
    args.src0 = x;
    args.src1 = y;
    args.dst = z;
    args.bytes_per_stream = bytes;
    args.repetitions = 1;
    args.fill = kFill;  // the scalar s = 2.5
    args.out = sums.data();
    kernel->run(args);
    double dot = 0, expected_dot = 0;
    for (std::size_t i = 0; i < n; ++i) {
      double expected = 0;
      switch (benchmark) {
        case StreamBenchmark::copy:
          expected = x[i];
          break;
        case StreamBenchmark::scale:
          expected = 2.5 * x[i];
          break;
        case StreamBenchmark::add:
          expected = x[i] + y[i];
          break;
        case StreamBenchmark::triad:
          expected = x[i] + 2.5 * y[i];
          break;
        case StreamBenchmark::ddot:
          expected = -1;
          expected_dot += x[i] * y[i];
          break;
      }
      ASSERT_EQ(z[i], expected) << spec.name() << " element " << i;
    }
    if (benchmark == StreamBenchmark::ddot) {
      for (double v : sums) dot += v;
      EXPECT_EQ(dot, expected_dot) << spec.name();
    }
    EXPECT_TRUE(out.guards_intact()) << spec.name();
  }
}

INSTANTIATE_TEST_SUITE_P(Isas, UsableIsa, ::testing::ValuesIn(codegen::isa_family()),
                         [](const auto& param_info) {
                           return std::string(name(param_info.param));
                         });

TEST(ClockKernel, CountsItsAdds) {
  const auto kernel = make_kernel(ClockSpec{});
  std::uint64_t out = 0;
  KernelArgs args;
  args.repetitions = 1000;
  args.out = &out;
  kernel->run(args);
  EXPECT_EQ(out, 1000 * kernel->metadata().chain_cycles);
}

// Under an ISA's load the chain still counts every link, and the FP instructions run beside it.
TEST(ClockKernel, KeepsItsChainUnderEachUsableIsaLoad) {
  alignas(64) static const double kOnes[8] = {1, 1, 1, 1, 1, 1, 1, 1};
  for (Isa isa : codegen::isa_family()) {
    if (!usable(isa)) continue;
    const auto kernel = make_kernel(ClockSpec{.load = isa});
    std::uint64_t out = 0;
    KernelArgs args;
    args.repetitions = 100;
    args.fill = kOnes;
    args.out = &out;
    kernel->run(args);
    EXPECT_EQ(out, 100 * kernel->metadata().chain_cycles) << kernel->name();
    EXPECT_EQ(kernel->metadata().fp_instructions, kernel->metadata().chain_cycles)
        << kernel->name();
  }
}

// 3^(links) mod 2^64, computed here with the same wrap-around.
TEST(ClockKernel, ImulChainMultipliesByThree) {
  if (!can_generate(ClockSpec{.chain = ClockChain::imul})) GTEST_SKIP() << "not generated here";
  const auto kernel = make_kernel(ClockSpec{.chain = ClockChain::imul, .unroll = 4});
  std::uint64_t out = 0;
  KernelArgs args;
  args.repetitions = 50;
  args.out = &out;
  kernel->run(args);
  std::uint64_t expected = 1;
  for (int i = 0; i < 200; ++i) expected *= 3;
  EXPECT_EQ(out, expected);
  EXPECT_EQ(kernel->metadata().chain_cycles, 4u * kImulLatencyCycles);
}

TEST(ChaseKernel, FollowsThePermutation) {
  const std::uint64_t lines = 1000;
  const std::vector<std::uint64_t> next = kernels::single_cycle_permutation(lines, 7);
  std::vector<void*> slots(lines * 8);  // one 64-byte line per element
  for (std::uint64_t i = 0; i < lines; ++i) slots[i * 8] = &slots[next[i] * 8];
  const auto kernel = make_kernel(ChaseSpec{});
  void* end = nullptr;
  KernelArgs args;
  args.src0 = &slots[0];
  args.repetitions = 3;
  args.out = &end;
  kernel->run(args);
  std::uint64_t expected = 0;
  for (std::uint64_t step = 0; step < 3 * kernel->metadata().dependent_loads; ++step) {
    expected = next[expected];
  }
  EXPECT_EQ(end, &slots[expected * 8]);
}

TEST(Permutation, IsOneCycleThroughEveryElement) {
  for (std::uint64_t n : {2ull, 3ull, 17ull, 4096ull}) {
    const std::vector<std::uint64_t> next = kernels::single_cycle_permutation(n, n);
    std::vector<bool> seen(n, false);
    std::uint64_t at = 0;
    for (std::uint64_t step = 0; step < n; ++step) {
      ASSERT_FALSE(seen[at]) << "short cycle for n=" << n;
      seen[at] = true;
      at = next[at];
    }
    EXPECT_EQ(at, 0u);
  }
}

}  // namespace
}  // namespace larm::codegen
