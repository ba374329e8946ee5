// Canary and per-sample judgement of interference.
#include "kernels/interference.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "codegen/factory.h"
#include "results/statistics.h"

namespace larm::kernels {

namespace {

// 512 iterations of 128 adds: about 20 µs at 3 GHz, long beside a timer interrupt, short beside
// a sample of 10 ms or more.
constexpr std::uint64_t kCanaryRepetitions = 512;

}  // namespace

double retake_pause_seconds(double sample_seconds, int in_a_row) {
  return std::min(kMaxRetakePauseSeconds,
                  sample_seconds * std::ldexp(1.0, std::max(0, in_a_row - 1)));
}

double run_clock_canary(const platform::Clock& clock) {
  static const auto kernel = codegen::make_kernel(codegen::ClockSpec{});
  std::uint64_t out = 0;
  codegen::KernelArgs args;
  args.repetitions = kCanaryRepetitions;
  args.out = &out;
  const std::uint64_t start = clock.begin();
  kernel->run(args);
  const double seconds = clock.seconds(clock.end() - start);
  const double cycles = static_cast<double>(kCanaryRepetitions * kernel->metadata().chain_cycles);
  return seconds > 0 ? cycles / seconds : 0;
}

void InterferenceJudge::learn(int thread, const ThreadObservation& observation) {
  auto& mine = canaries_[static_cast<std::size_t>(thread)];
  mine.push_back(observation.canary_before_hz);
  mine.push_back(observation.canary_after_hz);
}

double InterferenceJudge::reference(int thread) const {
  const auto& mine = canaries_[static_cast<std::size_t>(thread)];
  return mine.empty() ? 0 : results::median(mine);
}

std::vector<double> stolen(const std::map<unsigned, platform::CpuTimes>& before,
                           const std::map<unsigned, platform::CpuTimes>& after,
                           const std::vector<unsigned>& pus) {
  std::vector<double> seconds;
  for (unsigned pu : pus) {
    const auto b = before.find(pu);
    const auto a = after.find(pu);
    if (b == before.end() || a == after.end()) return {};
    seconds.push_back(a->second.steal_seconds - b->second.steal_seconds);
  }
  return seconds;
}

std::optional<std::string> InterferenceJudge::judge(
    const std::vector<ThreadObservation>& observations, const std::vector<unsigned>& pus,
    const std::vector<double>& steal_seconds) {
  std::optional<std::string> reason;
  for (std::size_t t = 0; t < observations.size() && !reason; ++t) {
    const ThreadObservation& o = observations[t];
    const std::string who = "thread " + std::to_string(t) + " (PU " + std::to_string(pus[t]) + ")";
    const double work = o.work_seconds;
    if (o.before.known && o.after.known && work > 0) {
      const double on_cpu = static_cast<double>(o.after.on_cpu_ns - o.before.on_cpu_ns) * 1e-9;
      const double waited = static_cast<double>(o.after.wait_ns - o.before.wait_ns) * 1e-9;
      const long switches = o.after.involuntary_switches - o.before.involuntary_switches;
      // The on-CPU time includes the reads around the work: off-CPU time is what is missing.
      const double off_cpu = std::max(0.0, work - on_cpu);
      if (waited > kMaxRunQueueFraction * work) {
        reason = who + " waited on a run queue " + results::percent_text(waited / work) +
                 " of the sample (" + std::to_string(switches) + " involuntary switches)";
      } else if (off_cpu > kMaxOffCpuFraction * work) {
        reason = who + " was off its CPU " + results::percent_text(off_cpu / work) +
                 " of the sample (stolen by the hypervisor or in interrupts)";
      }
    }
    if (!reason && t < steal_seconds.size() &&
        steal_seconds[t] >= kMinStealTicks * platform::clock_tick_seconds()) {
      char text[64];
      std::snprintf(text, sizeof text, "%.0f ms", steal_seconds[t] * 1e3);
      reason = who + ": " + text + " stolen from its CPU by the hypervisor";
    }
    const double ref = reference(static_cast<int>(t));
    // Slow on both sides of the sample: one slow canary alone may be an interrupt.
    const double fastest = std::max(o.canary_before_hz, o.canary_after_hz);
    if (!reason && ref > 0 && fastest < (1 - kMaxCanarySlowdown) * ref) {
      reason = who + "'s clock canaries ran " + results::percent_text(1 - fastest / ref) +
               " slower than their median before and after the sample";
    }
  }
  for (std::size_t t = 0; t < observations.size(); ++t) learn(static_cast<int>(t), observations[t]);
  return reason;
}

}  // namespace larm::kernels
