// Writes a generated kernel's machine code for inspection (LARM_JIT_DUMP, `larm kernels --dump`):
// NAME.bin, and NAME.asm where a disassembler for it is on PATH. Shared by the architectures'
// generators; each names its objdump and machine.
#pragma once

#include <cstddef>
#include <filesystem>
#include <string>
#include <vector>

namespace larm::codegen {

struct Disassembler {
  std::vector<std::string> programs;  // tried in order on PATH: "objdump"
  std::vector<std::string> options;   // after -D -b binary: "-mi386:x86-64", "-M", "intel"
};

// Returns the files written.
std::vector<std::filesystem::path> dump_code(const std::filesystem::path& dir,
                                             const std::string& name, const void* code,
                                             std::size_t bytes, const Disassembler& disassembler);

}  // namespace larm::codegen
