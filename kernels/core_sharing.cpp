// Two threads' throughput alone and together.
#include "kernels/core_sharing.h"

#include <algorithm>
#include <array>
#include <cstdint>

#include "platform/arch.h"
#include "platform/thread_team.h"

namespace larm::kernels {
namespace {

// Eight independent multiply-add chains: each step waits on its own chain only (3-4 cycles), so
// eight in flight ask more of the multiplier than one core has (one or two a cycle), and the loop
// runs at the multiplier's throughput, which two hardware threads of one core share. Kept in
// registers, the chains can be neither vectorized nor folded by the compiler.
std::uint64_t multiply_chains(long iterations, std::uint64_t seed) {
  std::uint64_t a = seed, b = seed + 1, c = seed + 2, d = seed + 3, e = seed + 4, f = seed + 5,
                g = seed + 6, h = seed + 7;
  constexpr std::uint64_t k = 6364136223846793005ull;
  for (long i = 0; i < iterations; ++i) {
    a = a * k + 1;
    b = b * k + 1;
    c = c * k + 1;
    d = d * k + 1;
    e = e * k + 1;
    f = f * k + 1;
    g = g * k + 1;
    h = h * k + 1;
    for (std::uint64_t* x : {&a, &b, &c, &d, &e, &f, &g, &h}) platform::arch::keep_in_register(*x);
  }
  return a ^ b ^ c ^ d ^ e ^ f ^ g ^ h;
}

}  // namespace

std::optional<double> measure_core_sharing(hwloc_topology_t topology, unsigned pu_a, unsigned pu_b,
                                           const platform::Clock& clock,
                                           const CoreSharingOptions& options) {
  platform::ThreadTeam team(topology, {pu_a, pu_b});
  const double limit_ticks = options.round_limit * clock.ticks_per_second();
  // Best seconds per run of each thread: alone, together; 0 when none finished in time.
  std::array<double, 2> alone{0, 0}, together{0, 0};
  std::array<std::uint64_t, 2> sink{0, 0};
  auto keep = [&](double& best, std::uint64_t ticks) {
    if (static_cast<double>(ticks) > limit_ticks) return;
    const double seconds = clock.seconds(ticks);
    if (best == 0 || seconds < best) best = seconds;
  };
  // One round more than asked: the first warms the code and the threads' wake-up.
  for (int round = 0; round <= options.rounds; ++round) {
    for (int mode = 0; mode < 3; ++mode) {  // thread 0 alone, thread 1 alone, both
      team.run([&](int t) {
        team.barrier().wait();
        if (mode < 2 && t != mode) return;
        const std::uint64_t begin = clock.begin();
        sink[static_cast<std::size_t>(t)] += multiply_chains(options.iterations, begin);
        const std::uint64_t ticks = clock.end() - begin;
        if (round == 0) return;
        keep(mode == 2 ? together[static_cast<std::size_t>(t)] : alone[static_cast<std::size_t>(t)],
             ticks);
      });
    }
  }
  std::uint64_t kept = sink[0] ^ sink[1];
  platform::arch::keep_in_register(kept);
  if (alone[0] == 0 || alone[1] == 0 || together[0] == 0 || together[1] == 0) return std::nullopt;
  return std::min(alone[0] / together[0], alone[1] / together[1]);
}

}  // namespace larm::kernels
