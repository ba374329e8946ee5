// 7-point stencil (Jacobi sweep), instrumented: out = c0 * in + c1 * (sum of the 6 neighbours)
// on an n^3 grid, interior points only. Per point: 8 FLOPs (5 adds between the neighbours, 2
// multiplies, 1 add) and, at the core, 7 loads and 1 store: 64 bytes.
#include <cstdio>
#include <utility>

#include "example_support.h"
#include "larm/region.h"

int main(int argc, char** argv) {
  const auto options = larm::examples::parse_options(argc, argv, 256, 10);  // 2 x 128 MiB
  const std::size_t n = options.size;
  if (n < 3) return 2;
  LARM_INIT(nullptr);
  larm::examples::PlacedArray grid_a(n * n * n, options.placement, 1.0);
  larm::examples::PlacedArray grid_b(n * n * n, options.placement, 1.0);
  LARM_REGION_DATA("stencil", grid_a.data(), grid_a.bytes());
  LARM_REGION_DATA("stencil", grid_b.data(), grid_b.bytes());
  double* in = grid_a.data();
  double* out = grid_b.data();
  const double c0 = 0.4, c1 = 0.1;
  const std::size_t plane = n * n;
  for (int r = 0; r < options.repetitions; ++r) {
#pragma omp parallel
    {
      // Planes split between threads like the first touch split the arrays.
      const auto [first, last] = larm::examples::thread_share(n);
      const std::size_t z_begin = std::max<std::size_t>(first, 1);
      const std::size_t z_end = std::min(last, n - 1);
      LARM_REGION_BEGIN("stencil");
      for (std::size_t z = z_begin; z < z_end; ++z) {
        for (std::size_t y = 1; y < n - 1; ++y) {
          const std::size_t row = z * plane + y * n;
          for (std::size_t x = 1; x < n - 1; ++x) {
            const std::size_t i = row + x;
            out[i] = c0 * in[i] + c1 * (in[i - 1] + in[i + 1] + in[i - n] + in[i + n] +
                                        in[i - plane] + in[i + plane]);
          }
        }
      }
      const double points =
          z_end > z_begin ? double(z_end - z_begin) * double(n - 2) * double(n - 2) : 0.0;
      LARM_REGION_ADD_RW("stencil", 8.0 * points, 56.0 * points, 8.0 * points);
      LARM_REGION_END("stencil");
    }
    std::swap(in, out);
  }
  // On a grid of ones every interior point stays 0.4 + 0.6 = 1.
  std::printf("stencil: centre = %g (expected 1)\n", in[(n / 2) * plane + (n / 2) * n + n / 2]);
  LARM_FINALIZE();
  return in[(n / 2) * plane + (n / 2) * n + n / 2] == 1.0 ? 0 : 1;
}
