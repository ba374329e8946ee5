// The first n values of a list shared between measurements. The machine-wide measurements of a
// plan (contention, congestion, the contention curve's points) each name up to every core of the
// node in the order of their memory's distance: on 32 768 cores, copies took 2 GB and most of
// `larm plan`'s time; a curve's points are prefixes of one list.
#pragma once

#include <algorithm>
#include <cstddef>
#include <memory>
#include <vector>

namespace larm::characterize {

template <typename T>
class SharedPrefix {
 public:
  SharedPrefix() = default;
  // A list of its own (implicit: a domain's cores are assigned as they are).
  SharedPrefix(std::vector<T> values)  // NOLINT(google-explicit-constructor)
      : all_(std::make_shared<const std::vector<T>>(std::move(values))), size_(all_->size()) {}
  // The first n values of all.
  SharedPrefix(std::shared_ptr<const std::vector<T>> all, std::size_t n)
      : all_(std::move(all)), size_(std::min(n, all_ ? all_->size() : 0)) {}

  std::size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  const T* begin() const { return all_ ? all_->data() : nullptr; }
  const T* end() const { return begin() + size_; }
  const T& operator[](std::size_t i) const { return (*all_)[i]; }
  std::vector<T> to_vector() const { return {begin(), end()}; }

  friend bool operator==(const SharedPrefix& a, const std::vector<T>& b) {
    return std::equal(a.begin(), a.end(), b.begin(), b.end());
  }

 private:
  std::shared_ptr<const std::vector<T>> all_;
  std::size_t size_ = 0;
};

}  // namespace larm::characterize
