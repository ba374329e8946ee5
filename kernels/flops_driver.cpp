// FLOP ceilings: a register-only kernel on every thread of the team.
#include <vector>

#include "codegen/factory.h"
#include "kernels/drivers.h"

namespace larm::kernels {

FlopsResult measure_flops(const DriverContext& context, platform::ThreadTeam& team,
                          const codegen::FlopsSpec& spec) {
  const auto kernel = codegen::make_kernel(spec);
  const codegen::KernelMetadata& meta = kernel->metadata();
  alignas(64) static const double kOnesDp[8] = {1, 1, 1, 1, 1, 1, 1, 1};
  alignas(64) static const float kOnesSp[16] = {1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1};
  const auto threads = static_cast<std::size_t>(team.size());
  // Accumulators are written out at the end: every vector register of the ISA, per thread (an SVE
  // register is up to 256 bytes).
  const codegen::IsaTraits& isa = codegen::traits(spec.isa);
  const auto out_doubles = static_cast<std::size_t>(isa.register_count * isa.vector_bytes / 8);
  std::vector<std::vector<double>> out(threads, std::vector<double>(out_doubles));

  const TimedSamples timed =
      sample(team, context.clock, context.sampling, [&](int t, std::uint64_t repetitions) {
        codegen::KernelArgs a;
        a.fill = spec.precision == larm::Precision::dp ? static_cast<const void*>(kOnesDp)
                                                       : static_cast<const void*>(kOnesSp);
        a.out = out[static_cast<std::size_t>(t)].data();
        a.repetitions = repetitions;
        kernel->run(a);
      });

  FlopsResult result;
  result.interference = timed.interference;
  const double flops = static_cast<double>(threads) * static_cast<double>(timed.repetitions) *
                       static_cast<double>(meta.flops);
  for (std::size_t s = 0; s < timed.seconds.size(); ++s) {
    result.gflops.push_back(flops / timed.seconds[s] / 1e9);
    // Per core: each thread's own instructions over its own time, averaged over the team.
    double rate = 0;
    for (double seconds : timed.thread_seconds[s]) {
      rate += static_cast<double>(timed.repetitions * meta.fp_instructions) / seconds;
    }
    result.instructions_per_second.push_back(rate / static_cast<double>(threads));
  }
  return result;
}

}  // namespace larm::kernels
