#include "codegen/riscv64/generator.h"

#include <sys/mman.h>
#include <unistd.h>

#include <cstring>
#include <stdexcept>
#include <system_error>

#include "codegen/code_dump.h"

namespace larm::codegen::riscv64 {

Generator::Generator(const KernelSpec& spec) : GeneratorBase(spec) {}

Generator::~Generator() {
  if (code_ != nullptr) munmap(code_, mapped_bytes_);
}

void Generator::make_executable() {
  const std::size_t page = static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
  const std::size_t bytes = code_bytes();
  mapped_bytes_ = (bytes + page - 1) / page * page;
  void* pages =
      mmap(nullptr, mapped_bytes_, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (pages == MAP_FAILED) throw std::system_error(errno, std::generic_category(), "mmap");
  code_ = pages;
  std::memcpy(code_, words_.data(), bytes);
  if (mprotect(code_, mapped_bytes_, PROT_READ | PROT_EXEC) != 0) {
    throw std::system_error(errno, std::generic_category(), "mprotect");
  }
  // The harts' instruction fetch does not see stores without a FENCE.I (or Linux's
  // riscv_flush_icache, which GCC's builtin calls for every hart of the process).
  char* begin = static_cast<char*>(code_);
  __builtin___clear_cache(begin, begin + bytes);
  function_ = reinterpret_cast<Function>(code_);
}

void Generator::emit(std::uint32_t word, bool overhead) {
  words_.push_back(word);
  if (!counting_) return;
  ++metadata_.instructions;
  if (overhead) ++metadata_.overhead_instructions;
}

void Generator::use_vector_registers(unsigned first_register, int registers) {
  for (int r = 0; r < registers; ++r) {
    metadata_.vector_registers.insert(static_cast<int>(first_register) + r);
  }
}

void Generator::emit_vector_load(std::uint32_t word, unsigned first_register, int registers) {
  emit(word);
  use_vector_registers(first_register, registers);
  if (!counting_) return;
  const auto n = static_cast<std::uint64_t>(registers);
  metadata_.vector_loads += n;
  metadata_.bytes_loaded += n * static_cast<std::uint64_t>(vector_bytes());
}

void Generator::emit_vector_store(std::uint32_t word, unsigned first_register, int registers) {
  emit(word);
  use_vector_registers(first_register, registers);
  if (!counting_) return;
  const auto n = static_cast<std::uint64_t>(registers);
  metadata_.vector_stores += n;
  metadata_.bytes_stored += n * static_cast<std::uint64_t>(vector_bytes());
}

void Generator::emit_fp(std::uint32_t word, unsigned first_register, int registers,
                        int element_bytes) {
  emit(word);
  use_vector_registers(first_register, registers);
  if (!counting_) return;
  ++metadata_.fp_instructions;
  metadata_.flops += static_cast<std::uint64_t>(registers * vector_bytes() / element_bytes);
}

std::vector<std::filesystem::path> Generator::dump(const std::filesystem::path& dir) const {
  // The machine's objdump on a RISC-V host; the cross binutils' beside a cross build.
  return dump_code(dir, name(), words_.data(), code_bytes(),
                   {{"riscv64-linux-gnu-objdump", "objdump"}, {"-mriscv:rv64"}});
}

}  // namespace larm::codegen::riscv64
