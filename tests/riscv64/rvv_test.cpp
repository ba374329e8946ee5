// The RISC-V proof: the instruction words against the GNU assembler's, the ISA detection against
// what QEMU was told, the generated RVV stream kernels' bytes (moved, stored, summed) against the
// buffers and their metadata, and the time counter against clock_gettime. Run under
// qemu-riscv64 by tests/riscv64/run.sh at several VLENs and once without V; no GoogleTest
// (Debian has no riscv64 packages).
//   rvv_test --vlen BITS    V present with VLEN = BITS
//   rvv_test --no-v         V absent: detection says so, and the factory refuses the kernels
#include <time.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <string>
#include <vector>

#include "codegen/factory.h"
#include "codegen/isa.h"
#include "codegen/riscv64/rv_encoding.h"
#include "platform/clock.h"
#include "platform/cpu_info.h"

namespace {

using namespace larm;
using namespace larm::codegen;

int failures = 0;

void check(bool ok, const std::string& what) {
  std::printf("%s %s\n", ok ? "ok  " : "FAIL", what.c_str());
  if (!ok) ++failures;
}

std::string hex(std::uint32_t word) {
  char text[16];
  std::snprintf(text, sizeof text, "%08x", word);
  return text;
}

// The words GNU as 2.40 (binutils-riscv64-linux-gnu, -march=rv64gv, .option norvc) gives for the
// same instructions.
void check_encodings() {
  namespace rv = riscv64::rv;
  using namespace rv;
  const struct {
    std::uint32_t ours, gnu;
    const char* text;
  } words[] = {
      {ld(a1, a0, 8), 0x00853583, "ld a1, 8(a0)"},
      {ld(a6, t2, -2048), 0x8003b803, "ld a6, -2048(t2)"},
      {addi(a7, zero, 32), 0x02000893, "addi a7, zero, 32"},
      {addi(a5, a5, -1), 0xfff78793, "addi a5, a5, -1"},
      {add(t2, t2, t1), 0x006383b3, "add t2, t2, t1"},
      {sub(t5, t5, t6), 0x41ff0f33, "sub t5, t5, t6"},
      {mul(t6, t1, a7), 0x03130fb3, "mul t6, t1, a7"},
      {slli(t1, t1, 3), 0x00331313, "slli t1, t1, 3"},
      {beq(a5, zero, 12), 0x00078663, "beq a5, zero, +12"},
      {bne(t5, zero, -12), 0xfe0f1ae3, "bne t5, zero, -12"},
      {ret(), 0x00008067, "ret"},
      {csrr(t1, kCsrVlenb), 0xc2202373, "csrr t1, vlenb"},
      {vsetvli(t0, zero, vtype(64, 8)), 0x0db072d7, "vsetvli t0, zero, e64, m8, ta, ma"},
      {vle(64, 8, t2), 0x0203f407, "vle64.v v8, (t2)"},
      {vle(32, 0, a1), 0x0205e007, "vle32.v v0, (a1)"},
      {vse(64, 24, t4), 0x020efc27, "vse64.v v24, (t4)"},
      {vlse(64, 16, a6, zero), 0x0a087807, "vlse64.v v16, (a6), zero"},
      {vfadd_vv(16, 16, 8), 0x03041857, "vfadd.vv v16, v16, v8"},
      {vmv_v_i(24, 0), 0x5e003c57, "vmv.v.i v24, 0"},
      {vmv_v_i(24, -16), 0x5e083c57, "vmv.v.i v24, -16"},
  };
  for (const auto& w : words) {
    check(w.ours == w.gnu, std::string("encoding ") + w.text + ": " + hex(w.ours) +
                               (w.ours == w.gnu ? "" : " (GNU as: " + hex(w.gnu) + ")"));
  }
  bool refused = false;
  try {
    rv::addi(rv::a0, rv::a0, 4096);
  } catch (const std::logic_error&) {
    refused = true;
  }
  check(refused, "an immediate out of its field is refused");
}

// One kernel of `access` over `chunks` chunks per stream, `sweeps` times; every stream has a
// guard chunk after it that nothing may touch.
void check_stream(Access access, bool checksum) {
  const StreamSpec spec{.isa = Isa::rvv, .access = access, .checksum = checksum};
  const auto kernel = make_kernel(spec);
  const std::size_t chunk = stream_chunk_bytes(spec);
  const std::size_t chunks = 5, sweeps = 3, bytes = chunk * chunks;
  const std::size_t elements = bytes / sizeof(double), guard = chunk / sizeof(double);
  std::vector<double> src0(elements + guard), src1(elements + guard), dst(elements + guard, -1.0);
  for (std::size_t i = 0; i < src0.size(); ++i) {
    src0[i] = static_cast<double>(i % 7);
    src1[i] = static_cast<double>(i % 5) + 100;
  }
  std::vector<double> fill(8, 42.0), out(32 * 64 / sizeof(double), 0.0);
  KernelArgs args;
  args.src0 = src0.data();
  args.src1 = src1.data();
  args.dst = dst.data();
  args.bytes_per_stream = bytes;
  args.repetitions = sweeps;
  args.fill = fill.data();
  args.out = out.data();
  kernel->run(args);

  const KernelMetadata& m = kernel->metadata();
  const std::string name = kernel->name();
  const std::uint64_t iterations = chunks * sweeps;
  check(m.bytes_loaded * iterations ==
            sweeps * bytes * static_cast<std::size_t>(load_streams(access)),
        name + ": metadata's bytes loaded x iterations = the streams read");
  check(m.bytes_stored * iterations ==
            sweeps * bytes * static_cast<std::size_t>(store_streams(access)),
        name + ": metadata's bytes stored x iterations = the stream written");
  check(m.overhead_instructions < m.instructions, name + ": loop overhead " +
                                                      std::to_string(m.overhead_instructions) +
                                                      " of " + std::to_string(m.instructions));
  bool untouched_guard = true;
  for (std::size_t i = elements; i < dst.size(); ++i) untouched_guard &= dst[i] == -1.0;
  check(untouched_guard, name + ": nothing written past the stream");
  switch (access) {
    case Access::copy:
    case Access::ld2st1:
      check(std::memcmp(dst.data(), src0.data(), bytes) == 0, name + ": dst holds src0");
      break;
    case Access::store: {
      bool all = true;
      for (std::size_t i = 0; i < elements; ++i) all &= dst[i] == 42.0;
      check(all, name + ": every element stored is fill's first");
      break;
    }
    case Access::load: {
      if (!checksum) break;
      double expected = 0, sum = 0;
      for (std::size_t i = 0; i < elements; ++i) expected += src0[i];
      expected *= static_cast<double>(sweeps);
      for (double v : out) sum += v;  // the accumulators' lanes, and zeros after them
      check(sum == expected, name + ": the accumulators sum " + std::to_string(sum) +
                                 ", the data " + std::to_string(expected));
      break;
    }
    case Access::store_nt:
      break;
  }
}

void check_clock() {
  const platform::Clock clock = platform::Clock::calibrate(0.05);
  const std::uint64_t begin = clock.begin();
  const timespec nap{0, 20'000'000};
  nanosleep(&nap, nullptr);
  const double seconds = clock.seconds(clock.end() - begin);
  // The emulator's time is the host's: a 20 ms sleep lasts 20 ms and more, never under.
  check(seconds >= 0.015 && seconds < 2.0,
        "the counter (" + clock.source() + ", " + std::to_string(clock.ticks_per_second()) +
            " Hz) times a 20 ms sleep as " + std::to_string(seconds * 1e3) + " ms");
}

}  // namespace

int main(int argc, char** argv) {
  const std::string mode = argc > 1 ? argv[1] : "";
  const bool no_v = mode == "--no-v";
  if (!no_v && (mode != "--vlen" || argc != 3)) {
    std::fprintf(stderr, "usage: rvv_test --vlen BITS | --no-v\n");
    return 2;
  }
  try {
    check_encodings();
    const platform::CpuInfo cpu = platform::read_cpu_info();
    std::printf("cpu: %s; emulator: %s\n", cpu.model_name.c_str(),
                cpu.emulator.empty() ? "none" : cpu.emulator.c_str());
    check(isa_family() == std::vector<Isa>{Isa::rvv}, "the family is rvv");
    if (no_v) {
      check(!cpu_supports(Isa::rvv) && !scalable_vector_bytes(), "no V detected");
      check(!unusable_reason(Isa::rvv).empty(), "rvv unusable: " + unusable_reason(Isa::rvv));
    } else {
      const int bits = std::atoi(argv[2]);
      check(cpu_supports(Isa::rvv) && usable(Isa::rvv), "V detected");
      check(scalable_vector_bytes() == bits / 8,
            "VLEN " + std::to_string(scalable_vector_bytes().value_or(0) * 8) + " bits, asked " +
                std::to_string(bits));
      check(traits(Isa::rvv).vector_bytes == bits / 8, "rvv's vector bytes are VLEN's");
      check(!can_generate(StreamSpec{.isa = Isa::rvv, .access = Access::store_nt}) &&
                !can_generate(FlopsSpec{.isa = Isa::rvv}) && !can_generate(ChaseSpec{}),
            "the families not generated yet are said so");
      check_stream(Access::load, true);
      check_stream(Access::load, false);
      check_stream(Access::store, false);
      check_stream(Access::copy, false);
      check_stream(Access::ld2st1, false);
    }
    check_clock();
  } catch (const std::exception& e) {
    std::printf("FAIL %s\n", e.what());
    return 1;
  }
  std::printf("%s: %d failures\n", failures ? "FAILED" : "passed", failures);
  return failures ? 1 : 0;
}
