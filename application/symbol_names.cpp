// Folding, demangling and shortening a function's symbol.
#include "application/symbol_names.h"

#include <cxxabi.h>

#include <cstdlib>
#include <memory>
#include <regex>

namespace larm::application {

std::string fold_function_name(std::string symbol) {
  // GCC: resid._omp_fn.0, f.constprop.0, f.isra.0, f.part.0, f.cold, f.lto_priv.0; Clang:
  // f.omp_outlined, f.omp_outlined_debug__; symbol versions: memcpy@@GLIBC_2.14, f@plt; a
  // demangler's rendering of a clone: "f(int) [clone .constprop.0]".
  static const std::regex suffix(
      R"(([.](_omp_fn|constprop|isra|part|cold|lto_priv|clone|omp_outlined[_a-z]*)([.][0-9]+)?|@.*| \[clone [^\]]*\])$)");
  // glibc's string functions by instruction set, chosen at load (IFUNC): Valgrind's CPU differs
  // from the machine's, so the counted run takes another variant of the same function.
  static const std::regex variant(
      R"(^(__[a-z0-9]+)_(sse2|ssse3|sse4_1|sse4_2|avx|avx2|avx512|evex|evex512)(_[a-z0-9_]*)?$)");
  for (;;) {
    std::smatch m;
    if (!std::regex_search(symbol, m, suffix) || m.position(0) == 0) break;
    symbol.erase(static_cast<std::size_t>(m.position(0)));
  }
  std::smatch m;
  if (std::regex_match(symbol, m, variant)) return m[1].str();
  return symbol;
}

bool outlined_body(const std::string& symbol) {
  return symbol.find("._omp_fn.") != std::string::npos ||
         symbol.find(".omp_outlined") != std::string::npos;
}

std::string demangled_name(const std::string& symbol) {
  if (symbol.rfind("_Z", 0) != 0) return symbol;
  int status = 0;
  const std::unique_ptr<char, decltype(&std::free)> text(
      abi::__cxa_demangle(symbol.c_str(), nullptr, nullptr, &status), &std::free);
  return status == 0 && text ? std::string(text.get()) : symbol;
}

std::string short_function_name(const std::string& symbol) {
  // gfortran's module procedures: "__advec_cell_kernel_module_MOD_advec_cell_kernel".
  if (symbol.rfind("__", 0) == 0) {
    const auto mod = symbol.find("_MOD_");
    if (mod != std::string::npos && mod > 2 && mod + 5 < symbol.size())
      return symbol.substr(2, mod - 2) + "::" + symbol.substr(mod + 5);
  }
  const std::string full = demangled_name(symbol);
  if (full == symbol) return symbol;
  // The parameter list: the last ')' and the '(' that opens it ("operator()" keeps its own pair,
  // which comes before the list).
  const auto close = full.rfind(')');
  if (close == std::string::npos) return full;
  int depth = 0;
  std::size_t open = std::string::npos;
  for (std::size_t i = close + 1; i-- > 0;) {
    if (full[i] == ')') ++depth;
    if (full[i] == '(' && --depth == 0) {
      open = i;
      break;
    }
  }
  if (open == std::string::npos || open == 0) return full;
  std::string name = full.substr(0, open);
  // Only a template function's demangling starts with its return type: "void ns::f<int>".
  if (name.empty() || name.back() != '>' || name.find("operator") != std::string::npos) return name;
  depth = 0;
  std::size_t args = std::string::npos;
  for (std::size_t i = name.size(); i-- > 0;) {
    if (name[i] == '>') ++depth;
    if (name[i] == '<' && --depth == 0) {
      args = i;
      break;
    }
  }
  if (args == std::string::npos) return name;
  depth = 0;
  for (std::size_t i = args; i-- > 0;) {
    const char c = name[i];
    if (c == '>' || c == ')') ++depth;
    if (c == '<' || c == '(') --depth;
    if (c == ' ' && depth == 0) return name.substr(i + 1);
  }
  return name;
}

}  // namespace larm::application
