// Bad input: what a command refuses before any work, printed as one line "larm: error: ..." with
// exit status 2. In the lowest layer, so that every layer that reads input (the CLI, the engine
// that runs and counts applications) throws the one type the program's main catches.
#pragma once

#include <stdexcept>

namespace larm {

class UsageError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace larm
