// Bandwidth of a read/write mix, or of a STREAM benchmark, on page-mixed data (METHOD §8).
#include <algorithm>

#include "codegen/factory.h"
#include "kernels/drivers.h"
#include "kernels/first_touch.h"
#include "platform/page_mix.h"

namespace larm::kernels {
namespace {

// The streams of a kernel and the bytes each covers per iteration (loads first, then stores).
struct StreamLayout {
  std::vector<std::uint64_t> chunk_bytes;
  int loads = 0;
};

std::uint64_t vector_bytes(Isa isa) {
  return static_cast<std::uint64_t>(codegen::traits(isa).vector_bytes);
}

StreamLayout layout_of(const codegen::ReadWriteSpec& spec) {
  StreamLayout layout;
  if (spec.loads > 0) {
    layout.chunk_bytes.push_back(vector_bytes(spec.isa) * static_cast<std::uint64_t>(spec.loads));
  }
  if (spec.stores > 0) {
    layout.chunk_bytes.push_back(vector_bytes(spec.isa) * static_cast<std::uint64_t>(spec.stores));
  }
  layout.loads = spec.loads > 0 ? 1 : 0;
  return layout;
}

StreamLayout layout_of(const codegen::StreamBenchSpec& spec) {
  StreamLayout layout;
  layout.loads = codegen::load_streams(spec.benchmark);
  const int streams = layout.loads + codegen::store_streams(spec.benchmark);
  layout.chunk_bytes.assign(
      static_cast<std::size_t>(streams),
      vector_bytes(spec.isa) * static_cast<std::uint64_t>(spec.effective_unroll()));
  return layout;
}

}  // namespace

HybridResult measure_hybrid(const DriverContext& context, platform::ThreadTeam& team,
                            const HybridRequest& request) {
  const codegen::ReadWriteSpec readwrite = codegen::readwrite_spec(request.isa, request.ratio_read);
  const std::optional<codegen::StreamBenchSpec> benchmark =
      request.benchmark ? std::optional(codegen::StreamBenchSpec{.isa = request.isa,
                                                                 .benchmark = *request.benchmark})
                        : std::nullopt;
  const auto kernel =
      benchmark ? codegen::make_kernel(*benchmark) : codegen::make_kernel(readwrite);
  const StreamLayout layout = benchmark ? layout_of(*benchmark) : layout_of(readwrite);
  // Iterations per sweep: the thread's bytes over the bytes of one iteration, at least one.
  std::uint64_t iteration_bytes = 0;
  for (std::uint64_t chunk : layout.chunk_bytes) iteration_bytes += chunk;
  const std::uint64_t iterations =
      std::max<std::uint64_t>(1, request.bytes_per_thread / iteration_bytes);

  alignas(64) static const double kFill[8] = {1, 1, 1, 1, 1, 1, 1, 1};
  const auto threads = static_cast<std::size_t>(team.size());
  std::vector<std::vector<platform::PageMixBuffer>> buffers(threads);
  std::vector<codegen::KernelArgs> args(threads);
  // ddot leaves its partial sums in out (32 registers × 64 bytes at most); the others write none.
  const bool has_sums = request.benchmark == codegen::StreamBenchmark::ddot;
  std::vector<std::vector<double>> sums(threads, std::vector<double>(has_sums ? 32 * 8 : 0));
  team.run([&](int t) {
    auto& own = buffers[static_cast<std::size_t>(t)];
    for (std::uint64_t chunk : layout.chunk_bytes) {
      const std::uint64_t bytes = chunk * iterations;
      own.emplace_back(context.topology.handle(), bytes, request.fast_node, request.slow_node,
                       request.ratio_fast);
      fill_with_ones(own.back().data(), bytes);
    }
    codegen::KernelArgs& a = args[static_cast<std::size_t>(t)];
    a.fill = kFill;
    a.out = has_sums ? sums[static_cast<std::size_t>(t)].data() : nullptr;
    if (!benchmark) {
      a.iterations = iterations;
      a.src0 = layout.loads > 0 ? own.front().data() : nullptr;
      a.dst = readwrite.stores > 0 ? own.back().data() : nullptr;
    } else {
      a.bytes_per_stream = layout.chunk_bytes.front() * iterations;
      a.src0 = own[0].data();
      a.src1 = layout.loads > 1 ? own[1].data() : nullptr;
      a.dst = codegen::store_streams(benchmark->benchmark) > 0 ? own.back().data() : nullptr;
    }
  });

  HybridResult result;
  result.kernel = kernel->name();
  double read_pages = 0, read_fast = 0, write_pages = 0, write_fast = 0, placed = 0;
  for (const auto& own : buffers) {
    for (std::size_t s = 0; s < own.size(); ++s) {
      const platform::PageMixCheck check = own[s].check();
      const auto pages = static_cast<double>(own[s].mix().pages);
      placed += check.placed_fraction * pages;
      if (static_cast<int>(s) < layout.loads) {
        read_pages += pages;
        read_fast += check.fast_fraction * pages;
      } else {
        write_pages += pages;
        write_fast += check.fast_fraction * pages;
      }
    }
  }
  result.read_fast_fraction = read_pages > 0 ? read_fast / read_pages : 0;
  result.write_fast_fraction = write_pages > 0 ? write_fast / write_pages : 0;
  result.placed_fraction = (read_pages + write_pages) > 0 ? placed / (read_pages + write_pages) : 0;
  result.bytes_per_thread = iterations * iteration_bytes;

  const TimedSamples timed =
      sample(team, context.clock, context.sampling, [&](int t, std::uint64_t repetitions) {
        codegen::KernelArgs& a = args[static_cast<std::size_t>(t)];
        a.repetitions = repetitions;
        kernel->run(a);
      });
  const codegen::KernelMetadata& meta = kernel->metadata();
  const double per_sample = static_cast<double>(threads) * static_cast<double>(timed.repetitions) *
                            static_cast<double>(iterations);
  result.bytes_read = per_sample * static_cast<double>(meta.bytes_loaded);
  result.bytes_written = per_sample * static_cast<double>(meta.bytes_stored);
  result.seconds = timed.seconds;
  result.interference = timed.interference;
  for (double seconds : timed.seconds) {
    result.gbps.push_back((result.bytes_read + result.bytes_written) / seconds / 1e9);
  }
  return result;
}

}  // namespace larm::kernels
