// Reading LARM_COMPILER_SECTION out of an ELF file with <elf.h>'s structures: the header, the
// section headers and the section names, then the section's bytes. Only 64-bit ELF files of this
// machine's byte order are read (the programs larm runs here).
#include "application/compiler_build.h"

#include <elf.h>
#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <optional>
#include <set>
#include <sstream>
#include <vector>

#include "instrument/compiler_plugin/compiler_counts.h"
#include "results/printable_text.h"

namespace larm::application {
namespace {

constexpr std::size_t kMaxSectionBytes = 16u << 20;
constexpr std::size_t kMaxSymbolBytes = 256u << 20;  // a symbol table and its names

namespace fs = std::filesystem;

class File {
 public:
  explicit File(const std::string& path) : fd_(::open(path.c_str(), O_RDONLY | O_CLOEXEC)) {}
  ~File() {
    if (fd_ >= 0) ::close(fd_);
  }
  File(const File&) = delete;
  File& operator=(const File&) = delete;
  bool open() const { return fd_ >= 0; }
  bool read(void* into, std::size_t bytes, off_t at) const {
    auto* out = static_cast<char*>(into);
    while (bytes > 0) {
      const ssize_t got = ::pread(fd_, out, bytes, at);
      if (got <= 0) return false;
      out += got;
      bytes -= static_cast<std::size_t>(got);
      at += got;
    }
    return true;
  }

 private:
  int fd_;
};

// An ELF file's section headers and their names; empty when it is not a 64-bit ELF file.
struct Sections {
  std::vector<Elf64_Shdr> headers;
  std::string names;
  const Elf64_Shdr* find(const char* name) const {
    for (const Elf64_Shdr& section : headers) {
      if (section.sh_name < names.size() && std::strcmp(names.c_str() + section.sh_name, name) == 0)
        return &section;
    }
    return nullptr;
  }
};

Sections read_sections(const File& file) {
  Sections sections;
  Elf64_Ehdr header{};
  if (!file.read(&header, sizeof header, 0) || std::memcmp(header.e_ident, ELFMAG, SELFMAG) != 0 ||
      header.e_ident[EI_CLASS] != ELFCLASS64 || header.e_shentsize != sizeof(Elf64_Shdr) ||
      header.e_shnum == 0 || header.e_shstrndx >= header.e_shnum) {
    return sections;
  }
  std::vector<Elf64_Shdr> headers(header.e_shnum);
  if (!file.read(headers.data(), headers.size() * sizeof(Elf64_Shdr),
                 static_cast<off_t>(header.e_shoff))) {
    return sections;
  }
  const Elf64_Shdr& names = headers[header.e_shstrndx];
  if (names.sh_size > kMaxSectionBytes) return sections;
  sections.names.assign(names.sh_size, '\0');
  if (!file.read(sections.names.data(), sections.names.size(),
                 static_cast<off_t>(names.sh_offset))) {
    sections.names.clear();
    return sections;
  }
  sections.headers = std::move(headers);
  return sections;
}

// A section's bytes, or nothing (absent, without bytes in the file, larger than limit).
std::optional<std::string> bytes_of(const File& file, const Elf64_Shdr* section,
                                    std::size_t limit) {
  if (section == nullptr || section->sh_type == SHT_NOBITS || section->sh_size > limit)
    return std::nullopt;
  std::string bytes(section->sh_size, '\0');
  if (!file.read(bytes.data(), bytes.size(), static_cast<off_t>(section->sh_offset)))
    return std::nullopt;
  return bytes;
}

// The source files the symbol table names (STT_FILE: one per object that had local symbols),
// those of a compiled language only, less GCC's own start files.
std::vector<std::string> source_files(const File& file, const Sections& sections) {
  std::vector<std::string> sources;
  const Elf64_Shdr* symtab = sections.find(".symtab");
  if (symtab == nullptr || symtab->sh_link >= sections.headers.size()) return sources;
  const std::optional<std::string> symbols = bytes_of(file, symtab, kMaxSymbolBytes);
  const std::optional<std::string> strings =
      bytes_of(file, &sections.headers[symtab->sh_link], kMaxSymbolBytes);
  if (!symbols || !strings) return sources;
  for (std::size_t at = 0; at + sizeof(Elf64_Sym) <= symbols->size(); at += sizeof(Elf64_Sym)) {
    Elf64_Sym symbol;
    std::memcpy(&symbol, symbols->data() + at, sizeof symbol);
    if (ELF64_ST_TYPE(symbol.st_info) != STT_FILE || symbol.st_name >= strings->size()) continue;
    const std::string name = strings->c_str() + symbol.st_name;
    const std::string extension = fs::path(name).extension().string();
    static const std::set<std::string> compiled = {".c",   ".cc",  ".cpp", ".cxx", ".C",
                                                   ".f",   ".F",   ".f90", ".F90", ".f95",
                                                   ".f03", ".f08", ".for"};
    if (compiled.count(extension) == 0 || name == "crtstuff.c" || name == "offloadstuff.c")
      continue;
    sources.push_back(name);
  }
  return sources;
}

// One unit's line: "larm-gcc-plugin VERSION counts N COMPILER COMPILER_VERSION SOURCE", the
// source being the rest of the line (it may hold spaces).
struct Unit {
  std::string version, counts, compiler, source;
  unsigned long cache_sample = 0;  // cache-sample=N, when the unit has it
};

Unit parse_unit(const std::string& line) {
  std::istringstream words(line);
  std::string plugin, counts_word, compiler, compiler_version;
  Unit unit;
  words >> plugin >> unit.version >> counts_word >> unit.counts >> compiler >> compiler_version;
  unit.compiler = compiler + " " + compiler_version;
  std::getline(words >> std::ws, unit.source);
  const std::string token = LARM_CACHE_SAMPLE_TOKEN;
  if (unit.source.rfind(token, 0) == 0) {
    const std::size_t space = unit.source.find(' ');
    unit.cache_sample = std::strtoul(unit.source.c_str() + token.size(), nullptr, 10);
    unit.source = space == std::string::npos ? "" : unit.source.substr(space + 1);
  }
  return unit;
}

}  // namespace

std::string uninstrumented_note(const CompilerBuild& build, const std::string& app,
                                const std::string& command) {
  if (!build.instrumented || build.uninstrumented.empty()) return "";
  std::string names;
  for (std::size_t i = 0; i < build.uninstrumented.size() && i < 5; ++i)
    names += (i ? ", " : "") + build.uninstrumented[i];
  if (build.uninstrumented.size() > 5)
    names += " and " + std::to_string(build.uninstrumented.size() - 5) + " more";
  return command + ": " + std::to_string(build.uninstrumented.size()) + " source file(s) of " +
         app + " were compiled without larm's plugin (or hold no function): " + names +
         "; what their code does is not counted";
}

std::string cache_sample_flag(const CompilerBuild& build) {
  if (build.compiler.rfind("clang", 0) == 0) return "-mllvm -larm-cache-sample=64";
  return "-fplugin-arg-larm_gcc_plugin-cache-sample=64";
}

CompilerBuild compiler_build(const std::string& path) {
  CompilerBuild build;
  const File file(path);
  if (!file.open()) return build;
  const Sections sections = read_sections(file);
  build.function_symbols = sections.find(".symtab") != nullptr;
  const std::optional<std::string> bytes =
      bytes_of(file, sections.find(LARM_COMPILER_SECTION), kMaxSectionBytes);
  if (!bytes) return build;
  std::istringstream lines(*bytes);
  std::string line;
  const std::string expected_version = std::to_string(LARM_COMPILER_PLUGIN_VERSION);
  // The sources the units name, by file name (a unit names its source as the compiler was given
  // it); with -flto the units are the link's partitions, and no source can be told apart.
  std::set<std::string> instrumented;
  bool partitions = false;
  std::set<unsigned long> rates;  // of the units' sampled cache model (0: none)
  while (std::getline(lines, line)) {
    if (line.find_first_not_of(std::string("\0", 1)) == std::string::npos) continue;
    const Unit unit = parse_unit(line);
    build.units.push_back(results::printable(line));
    if (build.compiler.empty()) build.compiler = results::printable(unit.compiler);
    if (build.refused.empty() &&
        (unit.version != expected_version || unit.counts != std::to_string(LARM_COUNT_N))) {
      build.refused = "an object of it was built by larm's compiler plugin version " +
                      results::printable(unit.version) + " (" + results::printable(unit.counts) +
                      " counts); this larm reads version " + expected_version + " (" +
                      std::to_string(LARM_COUNT_N) + "): rebuild it with this larm's larm-cc";
    }
    partitions |= unit.source.find(".ltrans") != std::string::npos;
    rates.insert(unit.cache_sample);
    instrumented.insert(fs::path(unit.source).filename().string());
  }
  build.instrumented = !build.units.empty();
  if (rates.size() == 1) build.cache_sample = *rates.begin();
  build.cache_sample_mixed = rates.size() > 1;
  if (build.instrumented && !partitions) {
    for (const std::string& source : source_files(file, sections)) {
      if (instrumented.count(fs::path(source).filename().string()) == 0)
        build.uninstrumented.push_back(results::printable(source));
    }
  }
  return build;
}

}  // namespace larm::application
