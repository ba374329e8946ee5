// Blocked dgemm, instrumented: C += A * B, n x n, blocks of 64 x 64 (about 96 KiB of A, B and C
// blocks: they stay in L2). Per multiply-add the inner loop loads B[k][j] and C[i][j] and
// stores C[i][j] (A[i][k] stays in a register): 2 FLOPs and 24 bytes at the core.
#include <algorithm>
#include <cstdio>

#include "example_support.h"
#include "larm/region.h"

int main(int argc, char** argv) {
  const auto options = larm::examples::parse_options(argc, argv, 1024, 3);
  const std::size_t n = options.size;
  constexpr std::size_t kBlock = 64;
  LARM_INIT(nullptr);
  larm::examples::PlacedArray a(n * n, options.placement, 1.0);
  larm::examples::PlacedArray b(n * n, options.placement, 2.0);
  larm::examples::PlacedArray c(n * n, options.placement, 0.0);
  LARM_REGION_DATA("dgemm", a.data(), a.bytes());
  LARM_REGION_DATA("dgemm", b.data(), b.bytes());
  LARM_REGION_DATA("dgemm", c.data(), c.bytes());
  for (int r = 0; r < options.repetitions; ++r) {
#pragma omp parallel
    {
      // Each thread owns a band of rows of C: no two threads write the same element.
      const auto [row_begin, row_end] = larm::examples::thread_share(n);
      LARM_REGION_BEGIN("dgemm");
      for (std::size_t ii = row_begin; ii < row_end; ii += kBlock) {
        for (std::size_t kk = 0; kk < n; kk += kBlock) {
          for (std::size_t jj = 0; jj < n; jj += kBlock) {
            for (std::size_t i = ii; i < std::min(ii + kBlock, row_end); ++i) {
              for (std::size_t k = kk; k < std::min(kk + kBlock, n); ++k) {
                const double aik = a[i * n + k];
                double* c_row = c.data() + i * n;
                const double* b_row = b.data() + k * n;
                for (std::size_t j = jj; j < std::min(jj + kBlock, n); ++j)
                  c_row[j] += aik * b_row[j];
              }
            }
          }
        }
      }
      const double updates = double(row_end - row_begin) * double(n) * double(n);
      LARM_REGION_ADD_RW("dgemm", 2.0 * updates, 16.0 * updates, 8.0 * updates);
      LARM_REGION_END("dgemm");
    }
  }
  const double expected = 2.0 * double(n) * options.repetitions;
  std::printf("dgemm: c[0] = %g (expected %g)\n", c[0], expected);
  LARM_FINALIZE();
  return c[0] == expected ? 0 : 1;
}
