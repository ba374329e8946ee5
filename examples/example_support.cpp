// Placement of the examples' arrays with libnuma, first touch in parallel.
#include "example_support.h"

#include <numa.h>
#include <omp.h>
#include <sys/mman.h>

#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <string_view>

namespace larm::examples {
namespace {

[[noreturn]] void usage_error(const std::string& message) {
  std::fprintf(stderr,
               "error: %s (options: --placement firsttouch|interleave|single:N "
               "--size N --repetitions R)\n",
               message.c_str());
  std::exit(2);
}

std::size_t positive(const char* text, const char* what) {
  char* end = nullptr;
  const unsigned long long value = std::strtoull(text, &end, 10);
  if (end == text || *end != '\0' || value == 0) {
    usage_error(std::string(what) + " must be a positive integer, got \"" + text + "\"");
  }
  return static_cast<std::size_t>(value);
}

}  // namespace

Options parse_options(int argc, char** argv, std::size_t default_size, int default_repetitions) {
  Options options;
  options.size = default_size;
  options.repetitions = default_repetitions;
  for (int i = 1; i < argc; ++i) {
    const std::string_view arg = argv[i];
    if (i + 1 >= argc) usage_error("missing value after " + std::string(arg));
    const char* value = argv[++i];
    if (arg == "--placement") {
      options.placement = value;
    } else if (arg == "--size") {
      options.size = positive(value, "--size");
    } else if (arg == "--repetitions") {
      options.repetitions = static_cast<int>(positive(value, "--repetitions"));
    } else {
      usage_error("unknown option " + std::string(arg));
    }
  }
  const std::string& p = options.placement;
  if (p != "firsttouch" && p != "interleave" && p.rfind("single:", 0) != 0) {
    usage_error("unknown placement \"" + p + "\"");
  }
  if (p.rfind("single:", 0) == 0) {
    char* end = nullptr;
    const long node = std::strtol(p.c_str() + 7, &end, 10);
    if (end == p.c_str() + 7 || *end != '\0' || node < 0) {
      usage_error("single:N needs a memory node number, got \"" + p + "\"");
    }
  }
  return options;
}

PlacedArray::PlacedArray(std::size_t count, const std::string& placement, double value)
    : count_(count) {
  mapped_ = count * sizeof(double);
  void* memory =
      ::mmap(nullptr, mapped_, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (memory == MAP_FAILED) throw std::runtime_error("mmap failed");
  data_ = static_cast<double*>(memory);
  if (placement == "interleave") {
    if (numa_available() >= 0) numa_interleave_memory(memory, mapped_, numa_all_nodes_ptr);
  } else if (placement.rfind("single:", 0) == 0) {
    const int node = std::atoi(placement.c_str() + 7);
    if (numa_available() < 0 || node > numa_max_node()) {
      std::fprintf(stderr, "error: no memory node %d on this machine\n", node);
      std::exit(2);
    }
    numa_tonode_memory(memory, mapped_, node);
  }
#pragma omp parallel
  {
    const auto [begin, end] = thread_share(count);
    for (std::size_t i = begin; i < end; ++i) data_[i] = value;
  }
}

PlacedArray::~PlacedArray() {
  ::munmap(data_, mapped_);
}

std::pair<std::size_t, std::size_t> thread_share(std::size_t n) {
  const auto threads = static_cast<std::size_t>(omp_get_num_threads());
  const auto thread = static_cast<std::size_t>(omp_get_thread_num());
  return {n * thread / threads, n * (thread + 1) / threads};
}

}  // namespace larm::examples
