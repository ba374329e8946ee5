// An unmodified C++ OpenMP program for larm profile, named as C++ names its functions: a function
// template, two overloads of one name, a namespace; each kernel's parallel region is an outlined
// body of its own. It times every kernel's calls with a wall clock, as HPCCG and miniFE do, and
// prints "timer NAME SECONDS" lines for the test to set against larm's times.
//    profile_program_cxx
// axpy<double>: y += a x, 2 FLOPs per element; sum(double) and sum(float): 1 add per element;
// lopsided: x = x * s + t, 2 FLOPs per element, three quarters of them on the team's second
// thread while the first waits at the region's end.
#include <omp.h>

#include <cstdio>
#include <vector>

namespace kernels {

constexpr long kElements = 1 << 21;
constexpr int kCalls = 150;

template <typename T>
__attribute__((noinline)) void axpy(T a, const std::vector<T>& x, std::vector<T>& y) {
  const long n = static_cast<long>(x.size());
#pragma omp parallel for schedule(static)
  for (long i = 0; i < n; ++i) y[i] += a * x[i];
}

__attribute__((noinline)) double sum(const std::vector<double>& x) {
  double total = 0;
  const long n = static_cast<long>(x.size());
#pragma omp parallel for schedule(static) reduction(+ : total)
  for (long i = 0; i < n; ++i) total += x[i];
  return total;
}

__attribute__((noinline)) float sum(const std::vector<float>& x) {
  float total = 0;
  const long n = static_cast<long>(x.size());
#pragma omp parallel for schedule(static) reduction(+ : total)
  for (long i = 0; i < n; ++i) total += x[i];
  return total;
}

__attribute__((noinline)) void lopsided(std::vector<double>& x) {
  const long n = static_cast<long>(x.size());
#pragma omp parallel
  {
    const int threads = omp_get_num_threads();
    const int me = omp_get_thread_num();
    // With 2 threads: the first quarter for thread 0, the rest for thread 1.
    const long first = threads == 1 ? 0 : (me == 0 ? 0 : n / 4);
    const long last = threads == 1 ? n : (me == 0 ? n / 4 : (me == 1 ? n : n / 4));
    for (long i = first; i < last; ++i) x[i] = x[i] * 0.999999 + 1e-9;
  }
}

}  // namespace kernels

int main() {
  using namespace kernels;
  std::vector<double> x(kElements, 1.0), y(kElements, 0.0);
  std::vector<float> f(kElements, 1.0f);
  double seconds[4] = {};
  double check = 0;
  for (int call = 0; call < kCalls; ++call) {
    double t = omp_get_wtime();
    axpy(0.5, x, y);
    seconds[0] += omp_get_wtime() - t;
    t = omp_get_wtime();
    check += sum(y);
    seconds[1] += omp_get_wtime() - t;
    t = omp_get_wtime();
    check += sum(f);
    seconds[2] += omp_get_wtime() - t;
    t = omp_get_wtime();
    lopsided(x);
    seconds[3] += omp_get_wtime() - t;
  }
  std::printf("%g\n", check);
  const char* names[4] = {"axpy", "sum_double", "sum_float", "lopsided"};
  for (int k = 0; k < 4; ++k) std::fprintf(stderr, "timer %s %.6f\n", names[k], seconds[k]);
  return 0;
}
