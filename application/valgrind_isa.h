// Before a counting run under larm's Valgrind tool: the first instruction of the program's own
// code that Valgrind cannot run. Valgrind 3.19 decodes neither AVX-512 (EVEX) on x86-64 nor SVE
// on AArch64; a program built with -march=native on such a CPU dies on its first such
// instruction, after its native runs. objdump's listing of the executable says so before any run.
#pragma once

#include <string>

namespace larm::application {

// "vaddpd %zmm1,%zmm0,%zmm0 (AVX-512, EVEX) in triad at 0x401136", or "" when the executable's
// code has none, or objdump is absent or cannot read it (the run then finds out, as before).
// Instructions inside functions named as one instruction set's variant of a function chosen at
// run time (GCC's target_clones ".avx512f", ".arch_x86_64_v4"; glibc's "_evex", "_avx512") are
// not counted: under Valgrind's CPU another variant runs. objdump is bounded (60 s).
std::string valgrind_unrunnable_instruction(const std::string& program);

// The one-line refusal for `app` (as the user typed it) whose code has `instruction`.
std::string valgrind_unrunnable_refusal(const std::string& app, const std::string& instruction);

}  // namespace larm::application
