// Every generated kernel's metadata equals what its emitted instructions do, counted
// independently from objdump's disassembly of the machine code.
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <memory>
#include <regex>
#include <sstream>
#include <string>

#include "codegen/factory.h"

namespace larm::codegen {
namespace {

struct Counted {
  std::uint64_t bytes_loaded = 0, bytes_stored = 0, flops = 0;
  std::uint64_t loads = 0, stores = 0, fp_instructions = 0, chase_loads = 0, chain_cycles = 0;
  std::set<int> vector_registers;
};

#if !defined(__aarch64__)
int width_of(const std::string& operand) {
  if (operand.find("zmm") != std::string::npos || operand.find("ZMMWORD") != std::string::npos)
    return 64;
  if (operand.find("ymm") != std::string::npos || operand.find("YMMWORD") != std::string::npos)
    return 32;
  return 16;
}
#endif

std::string run_objdump(const std::filesystem::path& bin) {
#if defined(__aarch64__)
  // The machine's objdump on an AArch64 host, the cross binutils' under qemu-aarch64.
  const std::string command = "{ aarch64-linux-gnu-objdump -D -b binary -maarch64 '" +
                              bin.string() + "' || objdump -D -b binary -maarch64 '" +
                              bin.string() + "'; } 2>/dev/null";
#else
  const std::string command =
      "objdump -D -b binary -mi386:x86-64 -M intel '" + bin.string() + "' 2>/dev/null";
#endif
  FILE* pipe = ::popen(command.c_str(), "r");
  if (pipe == nullptr) return "";
  std::string text;
  char buffer[512];
  while (std::fgets(buffer, sizeof buffer, pipe)) text += buffer;
  ::pclose(pipe);
  return text;
}

// Calls f(mnemonic, operands) for each instruction of objdump's listing.
template <typename F>
void for_each_instruction(const std::string& disassembly, F f) {
  const std::regex line_re(R"(^\s*[0-9a-f]+:\t[0-9a-f ]+\t(\S+)\s*(.*)$)");
  std::istringstream in(disassembly);
  std::string line;
  while (std::getline(in, line)) {
    std::smatch m;
    if (std::regex_match(line, m, line_re)) f(m[1].str(), m[2].str());
  }
}

#if defined(__aarch64__)
// AArch64 (codegen/aarch64/): the loop bodies address memory through the streams' moving pointers
// x9, x10 (loads) and x11 (stores): NEON with pairs of Q registers (ldp, stp, stnp) or one (ldr,
// str), SVE with whole Z registers (ldr, str, stnt1d; their length this thread's, sve_bytes); the
// chase loads through x7, the clock chain adds x8 to x7; vector register k is v(k) or z(k) below
// 8, v(k + 8) or z(k + 8) above (v8-v15 are callee-saved and never used).
Counted count(const std::string& disassembly, int sve_bytes) {
  Counted c;
  const std::regex reg_re(R"(\b[vqz](\d+)\b)");
  const std::regex stream_re(R"(\[x(9|10|11)(\], #\d+|, #-?\d+\]|, #-?\d+, mul vl\]|\]))");
  for_each_instruction(disassembly, [&](const std::string& mnemonic, const std::string& operands) {
    for (auto it = std::sregex_iterator(operands.begin(), operands.end(), reg_re);
         it != std::sregex_iterator(); ++it) {
      const int v = std::stoi((*it)[1]);
      c.vector_registers.insert(v < 8 ? v : v - 8);
    }
    static const std::regex z_re(R"(\bz\d+)");
    const bool sve = std::regex_search(operands, z_re);
    const auto width = static_cast<std::uint64_t>(sve ? sve_bytes : 16);
    std::smatch where;
    if (std::regex_search(operands, where, stream_re)) {
      const int vectors = mnemonic == "ldp" || mnemonic == "stp" || mnemonic == "stnp" ? 2 : 1;
      if (mnemonic == "ldp" || mnemonic == "ldr" || mnemonic == "ldur") {
        c.loads += vectors;
        c.bytes_loaded += width * static_cast<std::uint64_t>(vectors);
      } else if (mnemonic == "stp" || mnemonic == "stnp" || mnemonic == "str" ||
                 mnemonic == "stur" || mnemonic == "stnt1d") {
        c.stores += vectors;
        c.bytes_stored += width * static_cast<std::uint64_t>(vectors);
      }
    }
    if (mnemonic == "ldr" && operands == "x7, [x7]") {
      ++c.chase_loads;
      c.bytes_loaded += 8;
    }
    if (mnemonic == "add" && operands == "x7, x7, x8") ++c.chain_cycles;
    static const std::regex fp_re(R"(^f(add|mul|mla)$)");
    std::smatch fp;
    if (std::regex_match(mnemonic, fp, fp_re)) {
      // The lanes: NEON's arrangement (.2d, .4s), SVE's element size (.d, .s) in its length.
      int lanes = 0;
      if (operands.find(".2d") != std::string::npos) lanes = 2;
      if (operands.find(".4s") != std::string::npos) lanes = 4;
      if (sve && operands.find(".d") != std::string::npos) lanes = sve_bytes / 8;
      if (sve && operands.find(".s") != std::string::npos) lanes = sve_bytes / 4;
      if (lanes > 0) {
        ++c.fp_instructions;
        c.flops += static_cast<std::uint64_t>(lanes * (fp[1] == "mla" ? 2 : 1));
      }
    }
  });
  return c;
}
#else
// Counts what the disassembly does per loop iteration: the loop bodies address memory with
// the index register rax (stream), through the stream pointers r8 and r10 (readwrite), or load
// through rax (chase); set-up code does none of these.
Counted count(const std::string& disassembly, int /*sve_bytes: AArch64's*/) {
  Counted c;
  const std::regex reg_re(R"([xyz]mm(\d+))");
  for_each_instruction(disassembly, [&](const std::string& mnemonic, const std::string& operands) {
    for (auto it = std::sregex_iterator(operands.begin(), operands.end(), reg_re);
         it != std::sregex_iterator(); ++it) {
      c.vector_registers.insert(std::stoi((*it)[1]));
    }
    const auto comma = operands.find(',');
    const std::string first = operands.substr(0, comma);
    const std::string second = comma == std::string::npos ? "" : operands.substr(comma + 1);
    static const std::regex stream_pointer_re(R"(PTR \[r(8|10)(\+0x[0-9a-f]+)?\])");
    const bool indexed = operands.find("+rax*1") != std::string::npos ||
                         std::regex_search(operands, stream_pointer_re);
    if (indexed && first.find("PTR") != std::string::npos) {
      ++c.stores;
      c.bytes_stored += static_cast<std::uint64_t>(width_of(first));
    } else if (indexed && operands.find("PTR") != std::string::npos) {
      ++c.loads;
      c.bytes_loaded += static_cast<std::uint64_t>(width_of(operands));
    }
    if (mnemonic == "mov" && operands == "rax,QWORD PTR [rax]") {
      ++c.chase_loads;
      c.bytes_loaded += 8;
    }
    // The clock chain: rax with rcx; an imul link lasts its documented latency.
    if (mnemonic == "add" && operands == "rax,rcx") ++c.chain_cycles;
    if (mnemonic == "imul" && operands == "rax,rcx") c.chain_cycles += codegen::kImulLatencyCycles;
    static const std::regex fp_re(R"(^v?(add|mul|fmadd231)p([sd])$)");
    std::smatch fp;
    if (std::regex_match(mnemonic, fp, fp_re)) {
      ++c.fp_instructions;
      const int lanes = width_of(first) / (fp[2] == "d" ? 8 : 4);
      c.flops += static_cast<std::uint64_t>(lanes * (fp[1] == "fmadd231" ? 2 : 1));
    }
  });
  return c;
}
#endif

std::vector<KernelSpec> specs_under_test() {
  std::vector<KernelSpec> specs = kernel_catalog(codegen::isa_family());
  for (Isa isa : codegen::isa_family()) {
    specs.push_back(StreamSpec{.isa = isa, .access = Access::load, .checksum = true});
    for (int unroll : {1, 3, 8}) {
      for (Access access : larm::all<larm::Access>()) {
        specs.push_back(StreamSpec{.isa = isa, .access = access, .unroll = unroll});
      }
    }
    // Mixed kernels at the ends of the validation range and at an odd ratio.
    for (Access access : {Access::load, Access::copy, Access::ld2st1}) {
      for (FlopOp op : {FlopOp::add, FlopOp::fma}) {
        if (op == FlopOp::fma && !traits(isa).has_fma) continue;
        for (Intensity ai : {Intensity{1, 32}, Intensity{5, 4}, Intensity{16, 1}}) {
          if (auto spec = mixed_spec({.isa = isa, .access = access, .op = op}, ai)) {
            specs.push_back(*spec);
          }
        }
      }
    }
  }
  // The families this architecture generates (AArch64 has not every one yet).
  std::erase_if(specs, [](const KernelSpec& spec) { return !can_generate(spec); });
  return specs;
}

class KernelMetadata : public ::testing::TestWithParam<KernelSpec> {};

}  // namespace

// Test names and failure messages show the kernel's name, not its bytes.
void PrintTo(const KernelSpec& spec, std::ostream* out) {
  *out << kernel_name(spec);
}

namespace {

TEST_P(KernelMetadata, MatchesTheDisassembledInstructions) {
  const KernelSpec spec = GetParam();
  const auto kernel = make_kernel(spec);
  const std::filesystem::path dir =
      std::filesystem::temp_directory_path() / ("larm-meta-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  kernel->dump(dir);
  const std::string text = run_objdump(dir / (kernel->name() + ".bin"));
  std::filesystem::remove_all(dir);
  if (text.empty()) GTEST_SKIP() << "objdump is not available";

  const Counted c = count(text, codegen::scalable_vector_bytes().value_or(16));
  const codegen::KernelMetadata& meta = kernel->metadata();
  EXPECT_EQ(meta.bytes_loaded, c.bytes_loaded) << kernel->name();
  EXPECT_EQ(meta.bytes_stored, c.bytes_stored) << kernel->name();
  EXPECT_EQ(meta.flops, c.flops) << kernel->name();
  EXPECT_EQ(meta.fp_instructions, c.fp_instructions) << kernel->name();
  EXPECT_EQ(meta.vector_loads, c.loads) << kernel->name();
  EXPECT_EQ(meta.vector_stores, c.stores) << kernel->name();
  EXPECT_EQ(meta.dependent_loads, c.chase_loads) << kernel->name();
  EXPECT_EQ(meta.chain_cycles, c.chain_cycles) << kernel->name();
  EXPECT_EQ(meta.vector_registers, c.vector_registers) << kernel->name();
  // A generated kernel never uses a register its ISA does not have (METHOD §9).
  if (!c.vector_registers.empty()) {
    EXPECT_LT(*c.vector_registers.rbegin(), traits(isa_of(spec)).register_count);
  }
}

// Every AI of the validation grid (1/32 to 16 FLOP/byte, 4 points per octave) has a mixed
// kernel for every access mix, op, precision and ISA, whose FLOPs per byte are exactly the
// requested fraction, in the generator's metadata and in the disassembled instructions.
TEST(MixedKernel, ArithmeticIntensityIsExactlyTheRequestedOne) {
  const std::filesystem::path dir =
      std::filesystem::temp_directory_path() / ("larm-mixed-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  int checked = 0;
  for (Isa isa : codegen::isa_family()) {
    for (Access access : larm::all<larm::Access>()) {
      for (FlopOp op : {FlopOp::add, FlopOp::mul, FlopOp::fma}) {
        if (op == FlopOp::fma && !traits(isa).has_fma) continue;
        for (Precision precision : {Precision::sp, Precision::dp}) {
          for (long octave = -5; octave <= 4; ++octave) {
            for (long quarter : {4, 5, 6, 7}) {
              if (octave == 4 && quarter > 4) break;  // the grid ends at 16
              // 2^octave x quarter/4
              const Intensity ai =
                  octave >= 0 ? Intensity{quarter << octave, 4} : Intensity{quarter, 4L << -octave};
              const auto spec =
                  mixed_spec({.isa = isa, .access = access, .op = op, .precision = precision}, ai);
              ASSERT_TRUE(spec) << "no mixed kernel for AI " << ai.numerator << "/"
                                << ai.denominator << " " << name(access) << " " << name(op);
              // (AArch64 has no mixed kernel of non-temporal stores yet)
              if (!can_generate(*spec)) continue;
              const auto kernel = make_kernel(*spec);
              const auto& meta = kernel->metadata();
              const std::uint64_t bytes = meta.bytes_loaded + meta.bytes_stored;
              EXPECT_EQ(meta.flops * static_cast<std::uint64_t>(ai.denominator),
                        bytes * static_cast<std::uint64_t>(ai.numerator))
                  << kernel->name();
              // Recount from the machine code for one access mix per ISA and precision (objdump
              // is slow; the generator is the same for the others).
              if (access == Access::ld2st1 && octave % 3 == 0 && quarter == 5) {
                kernel->dump(dir);
                const std::string text = run_objdump(dir / (kernel->name() + ".bin"));
                if (text.empty()) continue;
                const Counted c = count(text, codegen::scalable_vector_bytes().value_or(16));
                EXPECT_EQ(
                    c.flops * static_cast<std::uint64_t>(ai.denominator),
                    (c.bytes_loaded + c.bytes_stored) * static_cast<std::uint64_t>(ai.numerator))
                    << kernel->name();
                ++checked;
              }
            }
          }
        }
      }
    }
  }
  std::filesystem::remove_all(dir);
  EXPECT_GT(checked, 0);
}

TEST(MixedKernel, UnrepresentableIntensityIsRefused) {
  if (!parse_isa("avx2")) GTEST_SKIP() << "an x86-64 case";
  // 1/3 FLOP/byte is no whole number of FP instructions per power-of-two group of loads.
  EXPECT_FALSE(mixed_spec({.isa = Isa::avx2, .access = Access::load, .op = FlopOp::fma}, {1, 3}));
  EXPECT_FALSE(mixed_spec({.isa = Isa::avx2, .access = Access::load, .op = FlopOp::fma}, {0, 1}));
  EXPECT_THROW(make_kernel(MixedSpec{.isa = Isa::avx2, .fp_ops = 0}), std::invalid_argument);
}

TEST(KernelSpec, DefaultUnrollKeepsLoopOverheadUnderFivePercent) {
  for (const KernelSpec& spec : kernel_catalog(codegen::isa_family())) {
    // But SVE's non-temporal store: STNT1D reaches 16 vectors from its pointer (its only offset
    // form), which advances by an ADDVL every 16 stores (1/17 of the instructions at least).
    const bool sve_nt = isa_of(spec) == Isa::sve && access_of(spec) == Access::store_nt;
    EXPECT_LT(make_kernel(spec)->metadata().loop_overhead_fraction(), sve_nt ? 0.08 : 0.05)
        << kernel_name(spec);
  }
}

std::string spec_name(const ::testing::TestParamInfo<KernelSpec>& info) {
  std::string name = kernel_name(info.param);
  for (char& ch : name) {
    if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
  }
  return name;
}

INSTANTIATE_TEST_SUITE_P(AllKernels, KernelMetadata, ::testing::ValuesIn(specs_under_test()),
                         spec_name);

TEST(KernelSpec, StreamBytesPerIterationFollowTheAccessMix) {
  for (Isa isa : codegen::isa_family()) {
    const int width = traits(isa).vector_bytes;
    for (Access access : larm::all<larm::Access>()) {
      const StreamSpec spec{.isa = isa, .access = access};
      const auto kernel = make_kernel(spec);
      const auto unroll = static_cast<std::uint64_t>(spec.effective_unroll());
      EXPECT_EQ(kernel->metadata().bytes_loaded,
                unroll * static_cast<std::uint64_t>(width * load_streams(access)));
      EXPECT_EQ(kernel->metadata().bytes_stored,
                unroll * static_cast<std::uint64_t>(width * store_streams(access)));
    }
  }
}

TEST(KernelSpec, FmaWithoutFma3IsRefused) {
  EXPECT_THROW(make_kernel(FlopsSpec{.isa = Isa::sse2, .op = FlopOp::fma}), std::invalid_argument);
  EXPECT_THROW(make_kernel(FlopsSpec{.isa = Isa::avx, .op = FlopOp::fma}), std::invalid_argument);
}

TEST(KernelSpec, ChecksumOnlyForLoads) {
  EXPECT_THROW(make_kernel(StreamSpec{.access = Access::copy, .checksum = true}),
               std::invalid_argument);
}

TEST(KernelSpec, DumpWritesCodeAndDisassembly) {
  const std::filesystem::path dir =
      std::filesystem::temp_directory_path() / ("larm-dump-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const auto kernel = make_kernel(FlopsSpec{.isa = widest_isa(), .op = FlopOp::fma});
  const auto files = kernel->dump(dir);
  ASSERT_FALSE(files.empty());
  EXPECT_EQ(std::filesystem::file_size(files[0]), kernel->code_bytes());
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace larm::codegen
