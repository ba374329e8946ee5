// Core frequency: every thread runs a chain of dependent adds (one per cycle) at once.
#include "codegen/factory.h"
#include "kernels/drivers.h"

namespace larm::kernels {

std::vector<double> measure_frequency(const DriverContext& context, platform::ThreadTeam& team) {
  const auto kernel = codegen::make_kernel(codegen::ClockSpec{});
  const std::uint64_t adds_per_iteration = kernel->metadata().dependent_adds;
  const auto threads = static_cast<std::size_t>(team.size());
  std::vector<std::uint64_t> out(threads);
  const TimedSamples timed =
      sample(team, context.clock, context.sampling, [&](int t, std::uint64_t repetitions) {
        codegen::KernelArgs a;
        a.repetitions = repetitions;
        a.out = &out[static_cast<std::size_t>(t)];
        kernel->run(a);
      });
  std::vector<double> hz;
  for (const std::vector<double>& per_thread : timed.thread_seconds) {
    double sum = 0;
    for (double seconds : per_thread) {
      sum += static_cast<double>(timed.repetitions * adds_per_iteration) / seconds;
    }
    hz.push_back(sum / static_cast<double>(threads));
  }
  return hz;
}

}  // namespace larm::kernels
