// The AArch64 kernel families generated so far: the stream accesses, the FLOP ceilings, the
// pointer chase and the add-chain clock, NEON and SVE.
#include "codegen/aarch64/generator.h"

#include <algorithm>
#include <stdexcept>
#include <string>
#include <vector>

#include "results/check.h"

namespace larm::codegen::aarch64 {
namespace {
namespace a64 = asmjit::a64;
}  // namespace

namespace {

// Vectors per block: a block's accesses are addressed from its stream pointer with immediate
// offsets (ldp/stp: up to 1008 bytes), and its last access writes the pointer back past the block
// (post-index), so that the streams advance with no instruction of their own.
constexpr int kBlockVectors = 32;

}  // namespace

void Generator::generate_family(const StreamSpec& stream) {
  if (stream.checksum && stream.access != Access::load) {
    throw std::invalid_argument("only the load kernel has a checksum variant");
  }
  if (sve()) {
    generate_sve_stream(stream);
  } else {
    generate_neon_stream(stream);
  }
}

// Vector accesses `unroll` per stream per iteration: pairs of Q registers (ldp, stp, stnp: one
// instruction per 32 bytes), a last single one when unroll is odd. The checksum variant loads into
// temporaries and adds them to accumulators.
void Generator::generate_neon_stream(const StreamSpec& stream) {
  const Access access = stream.access;
  const int unroll = stream.effective_unroll();
  const int width = vector_bytes();
  const int registers = register_count();
  // Checksum: the first half temporaries, the second half accumulators (dp lanes).
  const int data = stream.checksum ? registers / 2 : registers;

  if (access == Access::store || access == Access::store_nt) {
    a().ldr(reg_scratch(), arg(offsetof(KernelArgs, fill)));
    for (int r = 0; r < data; ++r) a().ldr(vreg(r), a64::ptr(reg_scratch(), 0));
  }
  if (stream.checksum) {
    for (int r = data; r < registers; ++r) a().movi(vreg(r).d2(), 0);
  }
  const auto reg = [&](int k) { return vreg(k % data); };

  // The address of the access to vector k of a stream (a pair's first). A block's first access
  // writes the pointer past the block (post-index: imm7 x 16 for a pair, imm9 for one register);
  // the block's later accesses are at negative offsets from there (ldp/stp, ldur/stur).
  const auto address = [&](const Gp& base, int k) -> Mem {
    const int block_start = k / kBlockVectors * kBlockVectors;
    const int vectors = std::min(kBlockVectors, unroll - block_start);
    const int bytes = vectors * width;
    // 32 NEON vectors are 512 bytes; wider vectors need addressing of their own.
    LARM_CHECK(bytes <= (vectors >= 2 ? 1008 : 255))
        << "a " << bytes << "-byte block is out of post-index reach";
    if (k == block_start) return a64::ptr_post(base, bytes);
    return a64::ptr(base, (k - block_start) * width - bytes);  // a lone last vector: -16
  };

  // store-nt: reg_pd sits nt_bias bytes into the iteration, so that STNP's offsets (-1024 to
  // 1008) reach every vector of an iteration of up to 2 KiB with one add.
  const int nt_bias = unroll * width > 1008 ? 1024 : 0;
  if (access == Access::store_nt && unroll * width - nt_bias > 1024) {
    throw std::invalid_argument("a store-nt kernel covers at most 2 KiB per iteration on AArch64");
  }
  const auto body = [&] {
    for (int k = 0; k < unroll; k += 2) {
      const int n = k + 1 < unroll ? 2 : 1;
      // The pair's second register; a lone last vector names its first twice (not used).
      const auto second = [&](int j) { return n == 2 ? reg(j + 1) : reg(j); };
      const auto load = [&](const Gp& base, const Vec& v0, const Vec& v1) {
        if (n == 2) {
          emit_load_pair(v0, v1, address(base, k));
        } else {
          emit_load(v0, address(base, k));
        }
      };
      const auto store = [&](const Gp& base, const Vec& v0, const Vec& v1, bool nt) {
        // STNP has no writeback form: around the biased pointer, advanced once an iteration.
        const Mem at = nt ? a64::ptr(base, k * width - nt_bias) : address(base, k);
        if (n == 2 && nt) {
          emit_store_pair_nt(at, v0, v1);
        } else if (n == 2) {
          emit_store_pair(at, v0, v1);
        } else {
          emit_store(at, v0);  // STNP has no single-register form
        }
      };
      switch (access) {
        case Access::load:
          load(reg_p0(), reg(k), second(k));
          if (stream.checksum) {
            for (int j = k; j < k + n; ++j) {
              emit_flop(FlopOp::add, vreg(data + j % (registers - data)), reg(j), reg(j));
            }
          }
          break;
        case Access::store:
        case Access::store_nt:
          store(reg_pd(), reg(k), second(k), access == Access::store_nt);
          break;
        case Access::copy:
          load(reg_p0(), reg(k), second(k));
          store(reg_pd(), reg(k), second(k), false);
          break;
        case Access::ld2st1: {
          // a from src0, b from src1, a stored.
          const Vec a0 = vreg((2 * k) % data), b0 = vreg((2 * k + 1) % data);
          // (the second pair's registers only where there is a pair: metadata lists what is used)
          const Vec a1 = n == 2 ? vreg((2 * k + 2) % data) : a0;
          const Vec b1 = n == 2 ? vreg((2 * k + 3) % data) : b0;
          load(reg_p0(), a0, a1);
          load(reg_p1(), b0, b1);
          store(reg_pd(), a0, a1, false);
          break;
        }
      }
    }
    if (access == Access::store_nt)
      emit_advance(reg_pd(), static_cast<std::uint32_t>(unroll * width));
  };
  emit_stream_sweeps(unroll, body, access == Access::store_nt ? nt_bias / width : 0);
  // Non-temporal stores are weakly ordered: completed once, before the call returns and its end
  // is timed (as the x86-64 kernel's one sfence).
  if (access == Access::store_nt) a().dsb(asmjit::Imm(0xb));  // dsb ish
  if (stream.checksum) {
    a().ldr(reg_scratch(), arg(offsetof(KernelArgs, out)));
    for (int r = data; r < registers; ++r) {
      a().str(vreg(r), a64::ptr(reg_scratch(), (r - data) * width));
    }
  }
  epilogue();
}

// One whole vector per access: LDR and STR (vector) at offsets 0 to unroll - 1 from the stream's
// pointer (up to 256 vectors), each pointer advanced once an iteration; the non-temporal stores
// (STNT1D, 16 vectors from their pointer) around a pointer biased 8 vectors in, advanced by ADDVL
// every 16.
void Generator::generate_sve_stream(const StreamSpec& stream) {
  const Access access = stream.access;
  const int unroll = stream.effective_unroll();
  if (unroll > 256) throw std::invalid_argument("an SVE stream kernel moves at most 256 vectors");
  const int registers = register_count();
  const int data = stream.checksum ? registers / 2 : registers;
  constexpr int kNtReach = 16, kNtBias = 8;
  const bool nt = access == Access::store_nt;

  emit_sve_prologue();
  if (access == Access::store || nt) {
    a().ldr(reg_scratch(), arg(offsetof(KernelArgs, fill)));
    for (int r = 0; r < data; ++r) emit_broadcast(vreg(r), reg_scratch());
  }
  if (stream.checksum) {
    for (int r = data; r < registers; ++r) emit_zero(vreg(r));
  }
  const auto body = [&] {
    for (int k = 0; k < unroll; ++k) {
      if (!nt) {
        emit_stream_access(access, k, data);
      } else {
        const int block = k / kNtReach * kNtReach;
        emit_sve_store_nt(vreg(k % data), reg_pd(), k - block - kNtBias);
        if (k + 1 == unroll || (k + 1) % kNtReach == 0) emit_sve_advance(reg_pd(), k + 1 - block);
      }
      if (stream.checksum) {
        emit_flop(FlopOp::add, vreg(data + k % (registers - data)), vreg(k % data), vreg(k % data));
      }
    }
    emit_advance_streams(load_streams(access), store_streams(access) > 0 && !nt);
  };
  emit_stream_sweeps(unroll, body, nt ? kNtBias : 0);
  if (nt) a().dsb(asmjit::Imm(0xb));  // dsb ish: as the NEON kernel's
  if (stream.checksum) {
    a().ldr(reg_scratch(), arg(offsetof(KernelArgs, out)));
    for (int r = data; r < registers; ++r) emit_store_out(vreg(r), reg_scratch(), r - data);
  }
  epilogue();
}

void Generator::generate_family(const FlopsSpec& flops) {
  const FlopOp op = flops.op;
  const int unroll = flops.effective_unroll();
  // Every register but the two operands accumulates, to cover the FP pipes' latency.
  const int accumulators = register_count() - 2;
  const Vec x = vreg(accumulators);
  const Vec y = vreg(accumulators + 1);
  // addmul: adds on the even accumulators, multiplies on the odd ones.
  const auto op_of = [&](int r) {
    return op != FlopOp::addmul ? op : r % 2 == 0 ? FlopOp::add : FlopOp::mul;
  };
  emit_ones_operands(op, x, y, 0, accumulators);
  emit_repetitions_loop([&] {
    for (int k = 0; k < unroll; ++k) {
      emit_flop(op_of(k % accumulators), vreg(k % accumulators), x, y);
    }
  });
  a().ldr(reg_scratch(), arg(offsetof(KernelArgs, out)));
  for (int r = 0; r < accumulators; ++r) emit_store_out(vreg(r), reg_scratch(), r);
  epilogue();
}

void Generator::generate_family(const ChaseSpec& chase) {
  const Gp pointer = reg_chain();
  a().ldr(pointer, arg(offsetof(KernelArgs, src0)));
  emit_repetitions_loop([&] {
    for (int k = 0; k < chase.effective_unroll(); ++k) emit_dependent_load(pointer);
  });
  // Where the chase ended: keeps it observable and lets a test follow it.
  a().ldr(reg_scratch(), arg(offsetof(KernelArgs, out)));
  a().str(pointer, a64::ptr(reg_scratch(), 0));
  epilogue();
}

// One chain of dependent register-register adds (one per core cycle), alone or beside one FP
// instruction of an ISA per link on independent accumulators.
void Generator::generate_family(const ClockSpec& clock) {
  if (clock.chain != ClockChain::add) {
    throw std::invalid_argument("the AArch64 clock kernel has the add chain only");
  }
  const Gp chain = reg_chain(), operand = reg_operand();
  a().mov(chain, 0);
  a().mov(operand, 1);
  const int accumulators = clock.load ? register_count() - 2 : 0;
  if (clock.load) {
    if (sve()) emit_sve_prologue();
    a().ldr(reg_scratch(), arg(offsetof(KernelArgs, fill)));
    for (int r = 0; r < accumulators + 2; ++r) emit_broadcast(vreg(r), reg_scratch());
  }
  emit_repetitions_loop([&] {
    for (int k = 0; k < clock.effective_unroll(); ++k) {
      emit_chain_add(chain, operand);
      if (clock.load) {
        emit_flop(FlopOp::fma, vreg(k % accumulators), vreg(accumulators), vreg(accumulators + 1));
      }
    }
  });
  a().ldr(reg_scratch(), arg(offsetof(KernelArgs, out)));
  a().str(chain, a64::ptr(reg_scratch(), 0));  // the chain's count of links: a test checks it
  epilogue();
}

}  // namespace larm::codegen::aarch64
