// Core frequency: every thread runs the same clock kernel at once; the chain's cycles per
// iteration over each thread's own time, averaged over the team.
#include "codegen/factory.h"
#include "kernels/drivers.h"

namespace larm::kernels {

FrequencyResult measure_frequency(const DriverContext& context, platform::ThreadTeam& team,
                                  const codegen::ClockSpec& spec) {
  const auto kernel = codegen::make_kernel(spec);
  const std::uint64_t cycles_per_iteration = kernel->metadata().chain_cycles;
  const auto threads = static_cast<std::size_t>(team.size());
  // The load's operands: ones, so that its FP values stay normal (fma counts up, mul stays 1).
  alignas(64) static const double kOnes[8] = {1, 1, 1, 1, 1, 1, 1, 1};
  std::vector<std::uint64_t> out(threads);
  const TimedSamples timed =
      sample(team, context.clock, context.sampling, [&](int t, std::uint64_t repetitions) {
        codegen::KernelArgs a;
        a.repetitions = repetitions;
        a.fill = kOnes;
        a.out = &out[static_cast<std::size_t>(t)];
        kernel->run(a);
      });
  FrequencyResult result;
  result.interference = timed.interference;
  for (const std::vector<double>& per_thread : timed.thread_seconds) {
    double sum = 0;
    for (double seconds : per_thread) {
      sum += static_cast<double>(timed.repetitions * cycles_per_iteration) / seconds;
    }
    result.hz.push_back(sum / static_cast<double>(threads));
  }
  return result;
}

}  // namespace larm::kernels
