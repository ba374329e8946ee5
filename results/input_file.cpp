// Bounded reads of regular files, and strict JSON.
#include "results/input_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstring>
#include <stdexcept>

#include "results/atomic_file.h"
#include "results/printable_text.h"

namespace larm::results {
namespace {

// The deepest nesting of arrays and objects in text, outside strings; stops counting past limit.
int nesting_depth(std::string_view text, int limit) {
  int depth = 0, deepest = 0;
  bool in_string = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (in_string) {
      if (c == '\\') {
        ++i;
      } else if (c == '"') {
        in_string = false;
      }
    } else if (c == '"') {
      in_string = true;
    } else if (c == '[' || c == '{') {
      deepest = std::max(deepest, ++depth);
      if (deepest > limit) return deepest;
    } else if (c == ']' || c == '}') {
      --depth;
    }
  }
  return deepest;
}

class FileDescriptor {
 public:
  explicit FileDescriptor(int fd) : fd_(fd) {}
  ~FileDescriptor() {
    if (fd_ >= 0) ::close(fd_);
  }
  FileDescriptor(const FileDescriptor&) = delete;
  FileDescriptor& operator=(const FileDescriptor&) = delete;
  int get() const { return fd_; }

 private:
  int fd_;
};

// Whether every number of document is in range; when one is not, *where gets its JSON Pointer
// and value ("/roofs/0/roof: 1e+308"), built only then, on the way back up.
bool numbers_in_range(const nlohmann::json& document, std::string* where) {
  if (document.is_number()) {
    if (is_in_range(document.get<double>())) return true;
    *where = ": " + document.dump();
    return false;
  }
  if (document.is_array()) {
    for (std::size_t i = 0; i < document.size(); ++i) {
      if (!numbers_in_range(document[i], where)) {
        *where = "/" + std::to_string(i) + *where;
        return false;
      }
    }
  } else if (document.is_object()) {
    for (const auto& [key, value] : document.items()) {
      if (!numbers_in_range(value, where)) {
        *where = "/" + key + *where;
        return false;
      }
    }
  }
  return true;
}

// The content of fd from offset, at most max_bytes of it: fd must name a regular file.
std::string read_regular(int fd, const std::string& name, std::uint64_t max_bytes, bool tail) {
  auto fail = [&](const std::string& why) {
    throw std::runtime_error("cannot read " + name + ": " + why);
  };
  struct stat info {};
  if (::fstat(fd, &info) != 0) fail(std::strerror(errno));
  if (!S_ISREG(info.st_mode)) fail("not a regular file");
  const auto size = static_cast<std::uint64_t>(info.st_size);
  if (size > max_bytes && !tail) {
    fail("larger than " + std::to_string(max_bytes >> 20) + " MiB");
  }
  const std::uint64_t offset = size > max_bytes ? size - max_bytes : 0;
  std::string content(static_cast<std::size_t>(size - offset), '\0');
  std::size_t done = 0;
  while (done < content.size()) {
    const ssize_t n = ::pread(fd, content.data() + done, content.size() - done,
                              static_cast<off_t>(offset + done));
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) fail(std::strerror(errno));
    if (n == 0) break;  // the file shrank while read
    done += static_cast<std::size_t>(n);
  }
  content.resize(done);
  return content;
}

// file opened for reading without waiting: O_NONBLOCK, so that opening a FIFO does not wait
// for a writer (it is refused as no regular file).
int open_for_input(const std::filesystem::path& file) {
  const int fd = ::open(file.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0)
    throw std::runtime_error("cannot read " + file.string() + ": " + std::strerror(errno));
  return fd;
}

}  // namespace

std::string read_input_file(const std::filesystem::path& file, std::uint64_t max_bytes) {
  const FileDescriptor fd(open_for_input(file));
  return read_regular(fd.get(), file.string(), max_bytes, false);
}

std::string read_input_descriptor(int fd, const std::string& name, std::uint64_t max_bytes) {
  return read_regular(fd, name, max_bytes, false);
}

std::string read_own_output(const std::filesystem::path& file, std::uint64_t max_bytes) {
  const int own = open_own_output(file);
  if (own < 0) throw std::runtime_error(file.string() + " is not a regular file larm wrote");
  const FileDescriptor fd(own);
  return read_regular(fd.get(), file.string(), max_bytes, false);
}

std::string read_input_tail(const std::filesystem::path& file, std::uint64_t max_bytes) {
  const FileDescriptor fd(open_for_input(file));
  return read_regular(fd.get(), file.string(), max_bytes, true);
}

nlohmann::json parse_json_document(std::string_view text, const std::string& name) {
  if (nesting_depth(text, kMaxJsonDepth) > kMaxJsonDepth) {
    throw std::runtime_error(name + " is not valid JSON for larm: nested deeper than " +
                             std::to_string(kMaxJsonDepth) + " levels");
  }
  try {
    // strict: trailing data is an error. Every string made printable once here, so that no name,
    // label or provenance entry of a file reaches a terminal or a page with control characters.
    nlohmann::json document = nlohmann::json::parse(text);
    make_printable(document);
    if (std::string bad; !numbers_in_range(document, &bad)) {
      throw std::runtime_error(name + ": " + (bad.front() == ':' ? "/" : "") + bad +
                               " is out of larm's range (finite, at most 1e18 in magnitude)");
    }
    return document;
  } catch (const nlohmann::json::exception& e) {
    throw std::runtime_error(name + " is not valid JSON: " + e.what());
  }
}

std::string number_out_of_range(const nlohmann::json& document) {
  std::string where;
  if (numbers_in_range(document, &where)) return "";
  return (where.front() == ':' ? "/" : "") + where;
}

unsigned parse_index(std::string_view text, const std::string& what, unsigned max) {
  unsigned value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || error != std::errc{} || end != text.data() + text.size() || value > max) {
    throw std::runtime_error("bad " + what + " '" + std::string(text) + "'");
  }
  return value;
}

std::string text_member(const nlohmann::json& object, const char* key) {
  if (!object.is_object()) return "";
  const auto found = object.find(key);
  return found != object.end() && found->is_string() ? found->get<std::string>() : "";
}

nlohmann::json read_json_file(const std::filesystem::path& file) {
  return parse_json_document(read_input_file(file), file.string());
}

}  // namespace larm::results
