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
  std::uint64_t loads = 0, stores = 0, fp_instructions = 0, chase_loads = 0, chain_adds = 0;
  std::set<int> vector_registers;
};

int width_of(const std::string& operand) {
  if (operand.find("zmm") != std::string::npos || operand.find("ZMMWORD") != std::string::npos)
    return 64;
  if (operand.find("ymm") != std::string::npos || operand.find("YMMWORD") != std::string::npos)
    return 32;
  return 16;
}

std::string run_objdump(const std::filesystem::path& bin) {
  const std::string command =
      "objdump -D -b binary -mi386:x86-64 -M intel '" + bin.string() + "' 2>/dev/null";
  FILE* pipe = ::popen(command.c_str(), "r");
  if (pipe == nullptr) return "";
  std::string text;
  char buffer[512];
  while (std::fgets(buffer, sizeof buffer, pipe)) text += buffer;
  ::pclose(pipe);
  return text;
}

// Counts what the disassembly does per loop iteration: the loop bodies address memory with
// the index register rax (stream) or load through rax (chase); set-up code does neither.
Counted count(const std::string& disassembly) {
  Counted c;
  const std::regex line_re(R"(^\s*[0-9a-f]+:\t[0-9a-f ]+\t(\S+)\s*(.*)$)");
  const std::regex reg_re(R"([xyz]mm(\d+))");
  std::istringstream in(disassembly);
  std::string line;
  while (std::getline(in, line)) {
    std::smatch m;
    if (!std::regex_match(line, m, line_re)) continue;
    const std::string mnemonic = m[1], operands = m[2];
    for (auto it = std::sregex_iterator(operands.begin(), operands.end(), reg_re);
         it != std::sregex_iterator(); ++it) {
      c.vector_registers.insert(std::stoi((*it)[1]));
    }
    const auto comma = operands.find(',');
    const std::string first = operands.substr(0, comma);
    const std::string second = comma == std::string::npos ? "" : operands.substr(comma + 1);
    const bool indexed = operands.find("+rax*1") != std::string::npos;
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
    if (mnemonic == "add" && operands == "rax,0x1") ++c.chain_adds;
    static const std::regex fp_re(R"(^v?(add|mul|fmadd231)p([sd])$)");
    std::smatch fp;
    if (std::regex_match(mnemonic, fp, fp_re)) {
      ++c.fp_instructions;
      const int lanes = width_of(first) / (fp[2] == "d" ? 8 : 4);
      c.flops += static_cast<std::uint64_t>(lanes * (fp[1] == "fmadd231" ? 2 : 1));
    }
  }
  return c;
}

std::vector<KernelSpec> specs_under_test() {
  std::vector<KernelSpec> specs = kernel_catalog(all_isas());
  for (Isa isa : all_isas()) {
    specs.push_back(
        {.family = Family::stream, .isa = isa, .access = Access::load, .checksum = true});
    for (int unroll : {1, 3, 8}) {
      for (Access access : all_accesses()) {
        specs.push_back({.family = Family::stream, .isa = isa, .access = access, .unroll = unroll});
      }
    }
  }
  return specs;
}

class KernelMetadata : public ::testing::TestWithParam<KernelSpec> {};

}  // namespace

// Test names and failure messages show the kernel's name, not its bytes.
void PrintTo(const KernelSpec& spec, std::ostream* out) {
  *out << spec.name();
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

  const Counted c = count(text);
  const codegen::KernelMetadata& meta = kernel->metadata();
  EXPECT_EQ(meta.bytes_loaded, c.bytes_loaded) << kernel->name();
  EXPECT_EQ(meta.bytes_stored, c.bytes_stored) << kernel->name();
  EXPECT_EQ(meta.flops, c.flops) << kernel->name();
  EXPECT_EQ(meta.fp_instructions, c.fp_instructions) << kernel->name();
  EXPECT_EQ(meta.vector_loads, c.loads) << kernel->name();
  EXPECT_EQ(meta.vector_stores, c.stores) << kernel->name();
  EXPECT_EQ(meta.dependent_loads, c.chase_loads) << kernel->name();
  EXPECT_EQ(meta.dependent_adds, c.chain_adds) << kernel->name();
  EXPECT_EQ(meta.vector_registers, c.vector_registers) << kernel->name();
  // A generated kernel never uses a register its ISA does not have (METHOD §9).
  if (!c.vector_registers.empty()) {
    EXPECT_LT(*c.vector_registers.rbegin(), traits(spec.isa).register_count);
  }
}

TEST(KernelSpec, DefaultUnrollKeepsLoopOverheadUnderFivePercent) {
  for (const KernelSpec& spec : kernel_catalog(all_isas())) {
    EXPECT_LT(make_kernel(spec)->metadata().loop_overhead_fraction(), 0.05) << spec.name();
  }
}

std::string spec_name(const ::testing::TestParamInfo<KernelSpec>& info) {
  std::string name = info.param.name();
  for (char& ch : name) {
    if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
  }
  return name;
}

INSTANTIATE_TEST_SUITE_P(AllKernels, KernelMetadata, ::testing::ValuesIn(specs_under_test()),
                         spec_name);

TEST(KernelSpec, StreamBytesPerIterationFollowTheAccessMix) {
  for (Isa isa : all_isas()) {
    const int width = traits(isa).vector_bytes;
    for (Access access : all_accesses()) {
      const KernelSpec spec{.family = Family::stream, .isa = isa, .access = access};
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
  EXPECT_THROW(make_kernel({.family = Family::flops, .isa = Isa::sse2, .op = FlopOp::fma}),
               std::invalid_argument);
  EXPECT_THROW(make_kernel({.family = Family::flops, .isa = Isa::avx, .op = FlopOp::fma}),
               std::invalid_argument);
}

TEST(KernelSpec, ChecksumOnlyForLoads) {
  EXPECT_THROW(make_kernel({.family = Family::stream, .access = Access::copy, .checksum = true}),
               std::invalid_argument);
}

TEST(KernelSpec, DumpWritesCodeAndDisassembly) {
  const std::filesystem::path dir =
      std::filesystem::temp_directory_path() / ("larm-dump-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const auto kernel = make_kernel({.family = Family::flops, .isa = Isa::avx2, .op = FlopOp::fma});
  const auto files = kernel->dump(dir);
  ASSERT_FALSE(files.empty());
  EXPECT_EQ(std::filesystem::file_size(files[0]), kernel->getSize());
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace larm::codegen
