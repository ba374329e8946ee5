// Loaded latency: a pointer chase beside injectors at a controlled rate.
#include "kernels/loaded_latency.h"

#include <atomic>
#include <chrono>
#include <stdexcept>
#include <thread>

#include "codegen/factory.h"
#include "kernels/interference.h"
#include "platform/scheduling.h"

namespace larm::kernels {
namespace {

constexpr std::uint64_t kLineBytes = 64;
constexpr std::size_t kWordsPerLine = kLineBytes / sizeof(std::uint64_t);
// The fewest lines per stream, whatever the buffer asked.
constexpr std::size_t kMinLinesPerStream = 64;

// Streams of the mix: lines read per step, lines written per step. Reads alone take two streams:
// on a 2-vCPU AMD EPYC guest, one core's single stream of loads reached 18-26 GB/s, two streams
// 22-31 GB/s, beside the 1-thread point of its contention curve at 25-30 GB/s.
int streams_read(InjectorMix mix) {
  return mix == InjectorMix::one_read_one_write ? 1 : 2;
}
int streams_written(InjectorMix mix) {
  return mix == InjectorMix::read_only ? 0 : 1;
}

// One injector thread's buffer: its streams one after another; and its thread's schedule around
// its injection (written by that thread, judged after the team's run).
struct Injector {
  platform::NodeBuffer buffer;
  std::size_t lines_per_stream = 0;
  alignas(64) std::atomic<std::uint64_t> lines_moved{0};
  ThreadObservation seen;
};

// Runs the mix over the streams with `delay` iterations of a counting loop between steps until stop
// is set, publishing the lines moved (read and written) after every step: a plain store to a line
// of its own, and exact at long delays, where a few steps fall in a chase's samples.
void inject(Injector& injector, InjectorMix mix, std::uint32_t delay,
            const std::atomic<bool>& stop) {
  auto* words = static_cast<volatile std::uint64_t*>(injector.buffer.data());
  const std::size_t stride = injector.lines_per_stream * kWordsPerLine;
  volatile std::uint64_t* a = words;
  volatile std::uint64_t* b = words + stride;
  volatile std::uint64_t* c = words + (mix == InjectorMix::two_reads_one_write ? 2 : 1) * stride;
  const std::uint64_t per_step =
      static_cast<std::uint64_t>(streams_read(mix) + streams_written(mix));
  std::uint64_t moved = injector.lines_moved.load(std::memory_order_relaxed);
  std::uint64_t sink = 0;
  for (;;) {
    for (std::size_t line = 0; line < injector.lines_per_stream; ++line) {
      const std::size_t w = line * kWordsPerLine;
      switch (mix) {
        case InjectorMix::read_only:
          sink += a[w] + b[w];
          break;
        case InjectorMix::two_reads_one_write:
          c[w] = a[w] + b[w];
          break;
        case InjectorMix::one_read_one_write:
          c[w] = a[w];
          break;
      }
      // A volatile counter: the loop stays, one store and load per iteration.
      volatile std::uint32_t d = 0;
      while (d < delay) d = d + 1;
      moved += per_step;
      injector.lines_moved.store(moved, std::memory_order_relaxed);
      if (stop.load(std::memory_order_relaxed)) {
        a[0] = sink;  // kept: the reads are the point
        return;
      }
    }
  }
}

}  // namespace

double read_share(InjectorMix mix) {
  const double r = streams_read(mix), w = streams_written(mix);
  return r / (r + w);  // 1, 2/3, 1/2
}

const char* name(InjectorMix mix) {
  switch (mix) {
    case InjectorMix::read_only:
      return "1";
    case InjectorMix::two_reads_one_write:
      return "2:1";
    case InjectorMix::one_read_one_write:
      return "1:1";
  }
  return "?";
}

LoadedLatencyResult measure_loaded_latency(const DriverContext& context, platform::ThreadTeam& team,
                                           const LoadedLatencyRequest& request) {
  if (team.size() < 2) {
    throw std::invalid_argument("loaded latency needs a chase thread and at least one injector");
  }
  if (request.delays.empty()) throw std::invalid_argument("loaded latency needs injection delays");
  if (request.mixes.empty()) throw std::invalid_argument("loaded latency needs an injector mix");
  const auto kernel = codegen::make_kernel(codegen::ChaseSpec{});
  const std::uint64_t loads_per_repetition = kernel->metadata().dependent_loads;
  const std::uint64_t chain_lines = std::max<std::uint64_t>(2, request.chain_bytes / kLineBytes);
  const int injectors = team.size() - 1;
  // Each mix splits the injector's bytes among its streams; the buffer holds the largest split.
  const auto lines_per_stream = [&](InjectorMix mix) {
    const int streams = streams_read(mix) + streams_written(mix);
    return std::max<std::size_t>(
        kMinLinesPerStream,
        request.injector_bytes / static_cast<std::uint64_t>(streams) / kLineBytes);
  };
  std::size_t buffer_lines = 0;
  for (InjectorMix mix : request.mixes) {
    buffer_lines = std::max(
        buffer_lines,
        lines_per_stream(mix) * static_cast<std::size_t>(streams_read(mix) + streams_written(mix)));
  }

  platform::NodeBuffer chain;
  const void* cursor = nullptr;
  std::vector<std::unique_ptr<Injector>> injector(static_cast<std::size_t>(injectors));
  // Each thread first-touches its own data, bound to its memory.
  team.run([&](int t) {
    if (t == 0) {
      chain = platform::NodeBuffer(context.topology.handle(), chain_lines * kLineBytes,
                                   request.chase_nodes);
      cursor =
          link_and_warm_chase(*kernel, chain, chain_lines, kLineBytes, chain_lines, 0x5eed1a7e);
      return;
    }
    auto own = std::make_unique<Injector>();
    own->buffer = platform::NodeBuffer(context.topology.handle(), buffer_lines * kLineBytes,
                                       request.inject_nodes);
    auto* words = static_cast<std::uint64_t*>(own->buffer.data());
    for (std::size_t w = 0; w < buffer_lines * kWordsPerLine; w += kWordsPerLine) words[w] = w;
    injector[static_cast<std::size_t>(t - 1)] = std::move(own);
  });

  LoadedLatencyResult result;
  result.chain_bytes = chain_lines * kLineBytes;
  result.chain_placement =
      platform::count_placement(chain.data(), chain.size(), request.chase_nodes).fraction();
  platform::PlacementCount injected;
  for (const auto& i : injector) {
    injected += platform::count_placement(i->buffer.data(), i->buffer.size(), request.inject_nodes);
  }
  result.injector_placement = injected.fraction();

  const platform::Clock& clock = context.clock;
  std::uint64_t repetitions = 0;  // calibrated at the first idle point
  const auto chase_seconds = [&](std::uint64_t reps) {
    codegen::KernelArgs a;
    a.src0 = cursor;
    a.repetitions = reps;
    a.out = &cursor;
    const std::uint64_t start = clock.begin();
    kernel->run(a);
    return clock.seconds(clock.end() - start);
  };
  InterferenceJudge judge(1);
  const std::vector<unsigned> chase_pu = {team.pus().front()};
  // The injectors judged over a whole point, as one sample of the team's threads (thread 0, the
  // chase, unobserved there): no canaries, their schedules and their CPUs' steal.
  InterferenceJudge injectors_judge(team.size());
  // One point: the injectors at `delay` (none: still), the chase's samples beside them.
  const auto measure_point = [&](InjectorMix mix, const std::optional<std::uint32_t>& delay) {
    std::atomic<bool> stop{false};
    std::atomic<int> started{0};
    LoadedLatencyPoint point;
    point.delay = delay;
    const auto cpus_before = platform::read_cpu_times();
    team.run([&](int t) {
      if (t != 0) {
        if (!delay) return;
        Injector& own = *injector[static_cast<std::size_t>(t - 1)];
        own.seen = {};
        own.seen.before = platform::read_thread_schedule();
        const std::uint64_t start = clock.begin();
        started.fetch_add(1);
        inject(own, mix, *delay, stop);
        own.seen.after = platform::read_thread_schedule();
        own.seen.work_seconds = clock.seconds(clock.end() - start);
        return;
      }
      while (delay && started.load() < injectors) std::this_thread::yield();
      if (repetitions == 0) {
        repetitions = 64;
        while (chase_seconds(repetitions) < request.sample_seconds && repetitions < (1ULL << 40)) {
          repetitions *= 2;
        }
      }
      // The injectors reach their pace; the clock canaries around it teach the judge.
      ThreadObservation warm;
      warm.canary_before_hz = run_clock_canary(clock);
      chase_seconds(repetitions);
      warm.canary_after_hz = run_clock_canary(clock);
      judge.learn(0, warm);
      const auto moved = [&] {
        std::uint64_t lines = 0;
        for (const auto& i : injector) lines += i->lines_moved.load(std::memory_order_relaxed);
        return lines;
      };
      const std::uint64_t lines_before = moved();
      const std::uint64_t start = clock.begin();
      int in_a_row = 0;      // interfered samples since the last one kept
      bool lasting = false;  // kMaxInterferedInARow in a row once: the samples kept as they come
      while (static_cast<int>(point.chase_ns.size()) < request.samples) {
        ThreadObservation seen;
        seen.canary_before_hz = run_clock_canary(clock);
        const auto cpu_before = platform::read_cpu_times();
        seen.before = platform::read_thread_schedule();
        seen.work_seconds = chase_seconds(repetitions);
        seen.after = platform::read_thread_schedule();
        const auto steal = stolen(cpu_before, platform::read_cpu_times(), chase_pu);
        seen.canary_after_hz = run_clock_canary(clock);
        if (const auto reason = judge.judge({seen}, chase_pu, steal)) {
          ++point.interference.samples;
          point.interference.reason = "the chase's " + *reason;
          if (!lasting && in_a_row < kMaxInterferedInARow) {
            ++in_a_row;
            std::this_thread::sleep_for(std::chrono::duration<double>(
                retake_pause_seconds(request.sample_seconds, in_a_row)));
            continue;
          }
          lasting = true;
          ++point.interference.kept;
        } else {
          in_a_row = 0;
        }
        point.chase_ns.push_back(seen.work_seconds * 1e9 /
                                 static_cast<double>(repetitions * loads_per_repetition));
      }
      const double seconds = clock.seconds(clock.end() - start);
      point.injector_gbps =
          static_cast<double>((moved() - lines_before) * kLineBytes) / seconds / 1e9;
      stop.store(true);
    });
    if (point.interference.kept > 0) {
      point.disturbed =
          std::to_string(point.interference.kept) + " of " + std::to_string(request.samples) +
          " chase samples kept although interfered with (" + point.interference.reason + ")";
    }
    // The injectors judged whatever the chase met: a point can lose both, and each is said.
    if (delay) {
      std::vector<ThreadObservation> seen(static_cast<std::size_t>(team.size()));
      for (std::size_t i = 0; i < injector.size(); ++i) seen[i + 1] = injector[i]->seen;
      std::vector<double> steal = stolen(cpus_before, platform::read_cpu_times(), team.pus());
      if (!steal.empty()) steal.front() = 0;  // the chase's CPU: judged sample by sample above
      if (const auto reason = injectors_judge.judge(seen, team.pus(), steal)) {
        const std::string slowed = "injector " + *reason +
                                   ", the sample being the whole point: its load was below "
                                   "the rate asked";
        point.disturbed += (point.disturbed.empty() ? "" : "; ") + slowed;
        point.interference.reason = point.disturbed;
      }
    }
    return point;
  };
  std::vector<std::optional<std::uint32_t>> delays = {std::nullopt};
  for (std::uint32_t d : request.delays) delays.emplace_back(d);
  for (InjectorMix mix : request.mixes) {
    for (const auto& i : injector) i->lines_per_stream = lines_per_stream(mix);
    LoadedLatencyCurve curve;
    curve.mix = mix;
    for (const std::optional<std::uint32_t>& delay : delays) {
      if (context.sampling.stop != nullptr && context.sampling.stop->load()) {
        if (!request.keep_on_stop) throw Interrupted();
        result.interrupted = true;
        break;
      }
      LoadedLatencyPoint point = measure_point(mix, delay);
      if (!point.disturbed.empty() && point.interference.kept == 0) {
        // The injectors were slowed (the chase's own samples were re-taken in place): the point
        // once more, its first try counted.
        const results::Interference first = point.interference;
        point = measure_point(mix, delay);
        point.interference += first;
        ++point.interference.samples;
        if (point.interference.reason.empty()) point.interference.reason = first.reason;
      }
      curve.points.push_back(std::move(point));
    }
    if (!curve.points.empty()) result.curves.push_back(std::move(curve));
    if (result.interrupted) break;
  }
  return result;
}

}  // namespace larm::kernels
