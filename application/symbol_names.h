// A function's name as the toolchain writes it, and as larm shows it. perf (`perf script
// --no-demangle`) and larm's Valgrind tool (`--demangle=no`) both give the linker's symbol, so a
// function is matched by its mangled name: exact for C++ overloads, templates and namespaces,
// where demangled text differs between tools (parameter lists, return types, "[clone ...]").
#pragma once

#include <string>

namespace larm::application {

// The symbol with the suffixes of GCC's and Clang's clones and OpenMP outlined bodies removed:
// "_Z4ddotiPKdS0_PdRd._omp_fn.1" -> "_Z4ddotiPKdS0_PdRd", "resid.constprop.0" -> "resid",
// "f(int) [clone .cold]" -> "f(int)", "memcpy@@GLIBC_2.14" -> "memcpy".
std::string fold_function_name(std::string symbol);

// Whether the symbol is an OpenMP outlined body (GCC's "f._omp_fn.0", Clang's "f.omp_outlined"):
// the code of a parallel region, named for the function that holds the region.
bool outlined_body(const std::string& symbol);

// The C++ ABI's demangling of a folded symbol, with its parameter list; the symbol itself when it
// is not a mangled C++ name (C, Fortran, "[unknown]").
std::string demangled_name(const std::string& symbol);

// The demangled name without its parameter list, qualifiers after it, or a template's return
// type: "_ZN6miniFE6daxpbyINS_6VectorIdiiEEEEvRKT_..." -> "miniFE::daxpby<miniFE::Vector<double,
// int, int> >"; gfortran's module procedures as module::name ("__pdv_kernel_module_MOD_pdv_kernel"
// -> "pdv_kernel_module::pdv_kernel"). C names are returned as they are.
std::string short_function_name(const std::string& symbol);

}  // namespace larm::application
