// STREAM triad, instrumented: a[i] = b[i] + s * c[i].
// Per element: 2 FLOPs, 16 bytes loaded and 8 stored by the core (the write-allocate read of a
// happens in the caches, not at the core, and is not counted: Cache-Aware Roofline convention).
#include <cstdio>

#include "example_support.h"
#include "larm/region.h"

int main(int argc, char** argv) {
  const auto options = larm::examples::parse_options(argc, argv, 1 << 24, 20);  // 3 x 128 MiB
  LARM_INIT(nullptr);
  larm::examples::PlacedArray a(options.size, options.placement, 0.0);
  larm::examples::PlacedArray b(options.size, options.placement, 1.0);
  larm::examples::PlacedArray c(options.size, options.placement, 2.0);
  LARM_REGION_DATA("triad", a.data(), a.bytes());
  LARM_REGION_DATA("triad", b.data(), b.bytes());
  LARM_REGION_DATA("triad", c.data(), c.bytes());
  const double scalar = 3.0;
  for (int r = 0; r < options.repetitions; ++r) {
#pragma omp parallel
    {
      const auto [begin, end] = larm::examples::thread_share(options.size);
      LARM_REGION_BEGIN("triad");
      for (std::size_t i = begin; i < end; ++i) a[i] = b[i] + scalar * c[i];
      LARM_REGION_ADD_RW("triad", 2.0 * double(end - begin), 16.0 * double(end - begin),
                         8.0 * double(end - begin));
      LARM_REGION_END("triad");
    }
  }
  const bool correct = a[options.size / 2] == 7.0;
  std::printf("triad: a[n/2] = %g (expected 7)\n", a[options.size / 2]);
  LARM_FINALIZE();
  return correct ? 0 : 1;
}
