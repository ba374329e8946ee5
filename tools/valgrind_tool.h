// larm's Valgrind tool (larmcount) as larm count and larm profile run it: where it is, the
// directory Valgrind loads it from, what its log says about an instruction it cannot run.
#pragma once

#include <filesystem>
#include <string>

namespace larm::cli {

inline constexpr const char* kToolName = "larmcount";
inline constexpr const char* kToolFile = "larmcount-amd64-linux";

// Where larm's Valgrind tool is: $LARM_COUNT_TOOL_DIR, beside an installed larm
// (PREFIX/lib/larm/valgrind), else this build's tree. Throws UsageError naming `command` when
// it is not found.
std::filesystem::path tool_directory(const std::string& command);

// Valgrind loads a tool from the directory VALGRIND_LIB names, with its own preload libraries
// beside it: a private temporary directory of links to both, removed when done.
class ValgrindLibDir {
 public:
  explicit ValgrindLibDir(const std::filesystem::path& tool_dir);
  ~ValgrindLibDir();
  ValgrindLibDir(const ValgrindLibDir&) = delete;
  ValgrindLibDir& operator=(const ValgrindLibDir&) = delete;
  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
};

// Valgrind's line for an instruction it cannot translate, if the log has one.
std::string unhandled_instruction(const std::filesystem::path& log);

// The one-line error for it (AVX-512's EVEX prefix named), for `program` and its `log`.
std::string unhandled_instruction_error(const std::string& program, const std::string& bytes,
                                        const std::filesystem::path& log);

}  // namespace larm::cli
