// After the first call of a region on a thread, begin and end do not allocate (cost).
// This executable replaces the global operator new to count allocations, so it stands alone.
#include <gtest/gtest.h>

#include <atomic>
#include <cstdlib>
#include <filesystem>
#include <new>
#include <string>
#include <thread>

#include "instrument/recorder.h"
#include "larm/region.h"

// GCC 12 sees the replaced operator delete call free() on memory from operator new and warns,
// not knowing that the replaced operator new takes it from malloc().
#pragma GCC diagnostic ignored "-Wmismatched-new-delete"

namespace {
std::atomic<bool> g_counting{false};
std::atomic<long> g_allocations{0};
}  // namespace

void* operator new(std::size_t size) {
  if (g_counting.load(std::memory_order_relaxed)) g_allocations.fetch_add(1);
  if (void* p = std::malloc(size == 0 ? 1 : size)) return p;
  throw std::bad_alloc();
}
void operator delete(void* p) noexcept {
  std::free(p);
}
void operator delete(void* p, std::size_t) noexcept {
  std::free(p);
}

namespace {

long allocations_during(void (*work)()) {
  g_allocations.store(0);
  g_counting.store(true);
  work();
  g_counting.store(false);
  return g_allocations.load();
}

void nested_calls() {
  for (int i = 0; i < 1000; ++i) {
    larm_region_begin("outer");
    larm_region_begin("inner");
    larm_region_add("inner", 1.0, 8.0);
    larm_region_end("inner");
    larm_region_begin("other");
    larm_region_end("other");
    larm_region_end("outer");
  }
}

TEST(RegionAllocation, BeginAndEndDoNotAllocateAfterTheFirstCall) {
  larm::instrument::process_recorder().reset_for_testing();
  const auto dir = std::filesystem::temp_directory_path() / "larm-region-allocation-test";
  ASSERT_EQ(larm_init(dir.c_str()), 0);
  EXPECT_GT(allocations_during(nested_calls), 0);  // first calls create the records
  EXPECT_EQ(allocations_during(nested_calls), 0);
  // The same on a thread of its own.
  long on_thread = -1;
  std::thread([&] {
    nested_calls();
    on_thread = allocations_during(nested_calls);
  }).join();
  EXPECT_EQ(on_thread, 0);
  ASSERT_EQ(larm_finalize(), 0);
  std::filesystem::remove_all(dir);
}

}  // namespace
