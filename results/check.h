// A broken internal invariant stops the operation with the file, the line and the condition
// (google/benchmark's CHECK): LARM_CHECK(index < count) << "register " << index;
// It throws std::logic_error, which the CLI reports as an internal error (exit 1) and liblarm's C
// functions turn into their -1; a limit of the environment is never a CHECK (it is a measurement
// skipped with its reason).
#pragma once

#include <sstream>
#include <stdexcept>
#include <string>
#include <string_view>

namespace larm::detail {

class CheckFailure {
 public:
  CheckFailure(std::string_view file, int line, std::string_view condition) {
    // The file's folder and name (codegen/x64/generator.cpp -> x64/generator.cpp): enough to
    // find it, without the build machine's path.
    const auto last = file.rfind('/');
    const auto folder = last == std::string_view::npos || last == 0 ? std::string_view::npos
                                                                    : file.rfind('/', last - 1);
    if (folder != std::string_view::npos) file.remove_prefix(folder + 1);
    message_ << "internal error at " << file << ":" << line << ": " << condition << " failed";
  }
  template <typename T>
  CheckFailure& operator<<(const T& value) {
    if (!detailed_) message_ << ": ";
    detailed_ = true;
    message_ << value;
    return *this;
  }
  std::string message() const { return message_.str(); }

 private:
  std::ostringstream message_;
  bool detailed_ = false;
};

// Ends the expression: throws once the message is complete (glog's voidify, so that the macro is
// one expression, safe in an unbraced if-else).
struct CheckThrow {
  [[noreturn]] void operator&(const CheckFailure& failure) const {
    throw std::logic_error(failure.message());
  }
};

}  // namespace larm::detail

#define LARM_CHECK(condition)                  \
  (condition) ? static_cast<void>(0)           \
              : ::larm::detail::CheckThrow() & \
                    ::larm::detail::CheckFailure(__FILE__, __LINE__, #condition)
