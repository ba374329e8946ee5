// ddot, instrumented: sum of x[i] * y[i] over two arrays much larger than the caches.
// Per element: 2 FLOPs (a multiply and an add, or one FMA) and 16 bytes loaded by the core.
#include <omp.h>

#include <cstdio>

#include "example_support.h"
#include "larm/region.h"

int main(int argc, char** argv) {
  const auto options = larm::examples::parse_options(argc, argv, 1 << 24, 20);  // 2 x 128 MiB
  LARM_INIT(nullptr);
  larm::examples::PlacedArray x(options.size, options.placement, 1.0);
  larm::examples::PlacedArray y(options.size, options.placement, 2.0);
  LARM_REGION_DATA("ddot", x.data(), x.bytes());
  LARM_REGION_DATA("ddot", y.data(), y.bytes());
  double result = 0;
  for (int r = 0; r < options.repetitions; ++r) {
    double sum = 0;
#pragma omp parallel reduction(+ : sum)
    {
      const auto [begin, end] = larm::examples::thread_share(options.size);
      LARM_REGION_BEGIN("ddot");
      for (std::size_t i = begin; i < end; ++i) sum += x[i] * y[i];
      LARM_REGION_ADD_RW("ddot", 2.0 * double(end - begin), 16.0 * double(end - begin), 0.0);
      LARM_REGION_END("ddot");
    }
    result = sum;
  }
  std::printf("ddot = %.0f (expected %.0f)\n", result, 2.0 * double(options.size));
  LARM_FINALIZE();
  return result == 2.0 * double(options.size) ? 0 : 1;
}
