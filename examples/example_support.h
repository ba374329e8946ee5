// What the examples share: command-line options, arrays placed by first touch, interleaving or
// on one memory, and each OpenMP thread's static share of a loop.
#pragma once

#include <cstddef>
#include <string>
#include <utility>

namespace larm::examples {

struct Options {
  std::string placement = "firsttouch";  // firsttouch, interleave, single:N
  std::size_t size = 0;                  // problem size (elements, matrix order, grid edge)
  int repetitions = 0;
};

// --placement P --size N --repetitions R; exits with a one-line message on bad input.
Options parse_options(int argc, char** argv, std::size_t default_size, int default_repetitions);

// An array of doubles whose pages follow the placement, then first-touched in parallel with the
// same static schedule as the compute loops (so first touch puts each part near its thread).
class PlacedArray {
 public:
  PlacedArray(std::size_t count, const std::string& placement, double value);
  ~PlacedArray();
  PlacedArray(const PlacedArray&) = delete;
  PlacedArray& operator=(const PlacedArray&) = delete;
  double* data() { return data_; }
  const double* data() const { return data_; }
  std::size_t bytes() const { return count_ * sizeof(double); }
  double& operator[](std::size_t i) { return data_[i]; }

 private:
  double* data_ = nullptr;
  std::size_t count_ = 0;
  std::size_t mapped_ = 0;
};

// [begin, end) of the calling OpenMP thread's static share of n iterations.
std::pair<std::size_t, std::size_t> thread_share(std::size_t n);

}  // namespace larm::examples
