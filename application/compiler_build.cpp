// Reading LARM_COMPILER_SECTION out of an ELF file with <elf.h>'s structures: the header, the
// section headers and the section names, then the section's bytes. Only 64-bit ELF files of this
// machine's byte order are read (the programs larm runs here).
#include "application/compiler_build.h"

#include <elf.h>
#include <fcntl.h>
#include <unistd.h>

#include <cstring>
#include <optional>
#include <sstream>
#include <vector>

#include "instrument/compiler_plugin/compiler_counts.h"
#include "results/printable_text.h"

namespace larm::application {
namespace {

constexpr std::size_t kMaxSectionBytes = 16u << 20;

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

// The section's bytes, or nothing (no such section, not an ELF file we read, too large).
std::optional<std::string> section_bytes(const File& file, const char* name) {
  Elf64_Ehdr header{};
  if (!file.read(&header, sizeof header, 0) || std::memcmp(header.e_ident, ELFMAG, SELFMAG) != 0 ||
      header.e_ident[EI_CLASS] != ELFCLASS64 || header.e_shentsize != sizeof(Elf64_Shdr) ||
      header.e_shnum == 0 || header.e_shstrndx >= header.e_shnum) {
    return std::nullopt;
  }
  std::vector<Elf64_Shdr> sections(header.e_shnum);
  if (!file.read(sections.data(), sections.size() * sizeof(Elf64_Shdr),
                 static_cast<off_t>(header.e_shoff))) {
    return std::nullopt;
  }
  const Elf64_Shdr& names = sections[header.e_shstrndx];
  if (names.sh_size > kMaxSectionBytes) return std::nullopt;
  std::string table(names.sh_size, '\0');
  if (!file.read(table.data(), table.size(), static_cast<off_t>(names.sh_offset)))
    return std::nullopt;
  for (const Elf64_Shdr& section : sections) {
    if (section.sh_name >= table.size() || std::strcmp(table.c_str() + section.sh_name, name) != 0)
      continue;
    if (section.sh_type == SHT_NOBITS || section.sh_size > kMaxSectionBytes) return std::nullopt;
    std::string bytes(section.sh_size, '\0');
    if (!file.read(bytes.data(), bytes.size(), static_cast<off_t>(section.sh_offset)))
      return std::nullopt;
    return bytes;
  }
  return std::nullopt;
}

}  // namespace

CompilerBuild compiler_build(const std::string& path) {
  CompilerBuild build;
  const File file(path);
  if (!file.open()) return build;
  const std::optional<std::string> bytes = section_bytes(file, LARM_COMPILER_SECTION);
  if (!bytes) return build;
  std::istringstream lines(*bytes);
  std::string line;
  std::string first_version;
  while (std::getline(lines, line)) {
    if (line.find_first_not_of(std::string("\0", 1)) == std::string::npos) continue;
    build.units.push_back(results::printable(line));
    // "larm-gcc-plugin VERSION counts N COMPILER VERSION SOURCE"
    std::istringstream words(line);
    std::string plugin, version, counts_word, counts, compiler, compiler_version;
    words >> plugin >> version >> counts_word >> counts >> compiler >> compiler_version;
    const std::string expected_version = std::to_string(LARM_COMPILER_PLUGIN_VERSION);
    if (build.compiler.empty()) build.compiler = compiler + " " + compiler_version;
    if (build.refused.empty() &&
        (version != expected_version || counts != std::to_string(LARM_COUNT_N))) {
      build.refused = "an object of it was built by larm's compiler plugin version " +
                      results::printable(version) + " (" + results::printable(counts) +
                      " counts); this larm reads version " + expected_version + " (" +
                      std::to_string(LARM_COUNT_N) + "): rebuild it with this larm's larm-cc";
    }
  }
  build.instrumented = !build.units.empty();
  return build;
}

}  // namespace larm::application
