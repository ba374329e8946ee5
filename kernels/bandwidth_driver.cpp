// Bandwidth of a stream kernel on per-thread buffers bound to given memories.
#include <algorithm>
#include <cstring>

#include "codegen/factory.h"
#include "kernels/drivers.h"
#include "kernels/first_touch.h"

namespace larm::kernels {

BandwidthResult measure_bandwidth(const DriverContext& context, platform::ThreadTeam& team,
                                  const BandwidthRequest& request) {
  const codegen::KernelSpec spec = codegen::fit_unroll(request.spec, request.working_set_bytes);
  const auto kernel = codegen::make_kernel(spec);
  const codegen::KernelMetadata& meta = kernel->metadata();
  const std::uint64_t per_stream = codegen::bytes_per_stream(spec, request.working_set_bytes);
  const std::uint64_t iterations = per_stream / codegen::stream_chunk_bytes(spec);
  const std::uint64_t bytes_per_sweep = (meta.bytes_loaded + meta.bytes_stored) * iterations;
  const Access access = codegen::access_of(spec).value();  // a stream or mixed kernel
  const int loads = codegen::load_streams(access);
  const bool stores = codegen::store_streams(access) > 0;
  const int streams = codegen::stream_count(access);

  alignas(64) static const double kFill[8] = {1, 1, 1, 1, 1, 1, 1, 1};
  const auto threads = static_cast<std::size_t>(team.size());
  std::vector<std::vector<platform::NodeBuffer>> buffers(threads);
  std::vector<codegen::KernelArgs> args(threads);
  // The areas each thread's streams use, for the placement and huge-page checks.
  std::vector<std::vector<std::pair<const void*, std::size_t>>> areas(threads);
  const auto point = [&](int t, const std::vector<char*>& starts) {
    codegen::KernelArgs& a = args[static_cast<std::size_t>(t)];
    a.bytes_per_stream = per_stream;
    a.fill = kFill;
    a.src0 = loads > 0 ? starts[0] : nullptr;
    a.src1 = loads > 1 ? starts[1] : nullptr;
    a.dst = stores ? starts.back() : nullptr;
  };

  StreamBuffers* const keep = request.keep;
  const std::uint64_t slice = stream_slice_bytes(per_stream);
  const bool kept = keep != nullptr && !keep->empty() && keep->nodes_ == request.nodes &&
                    keep->policy_ == request.policy && keep->pus_ == team.pus() &&
                    keep->regions_.front().size() >= slice * static_cast<std::uint64_t>(streams);
  if (keep != nullptr && !kept) {
    // Room for any access's streams of this working set (1 to 3 slices), touched once.
    std::uint64_t region = 0;
    for (std::uint64_t n = 1; n <= 3; ++n) {
      region = std::max(region, n * stream_slice_bytes(request.working_set_bytes / n));
    }
    region = std::max(region, slice * static_cast<std::uint64_t>(streams));
    *keep = StreamBuffers();  // the old regions go back before the new ones are taken
    keep->regions_.resize(threads);
    team.run([&](int t) {
      platform::NodeBuffer& own = keep->regions_[static_cast<std::size_t>(t)];
      own = platform::NodeBuffer(context.topology.handle(), region, request.nodes, request.policy);
      fill_with_ones(own.data(), region);
    });
    keep->nodes_ = request.nodes;
    keep->policy_ = request.policy;
    keep->pus_ = team.pus();
  }
  if (keep != nullptr) {
    for (std::size_t t = 0; t < threads; ++t) {
      char* base = static_cast<char*>(keep->regions_[t].data());
      std::vector<char*> starts;
      for (int s = 0; s < streams; ++s)
        starts.push_back(base + slice * static_cast<std::uint64_t>(s));
      point(static_cast<int>(t), starts);
      // The whole region: huge_page_fraction counts the mappings that lie inside an area.
      areas[t].emplace_back(base, keep->regions_[t].size());
    }
  } else {
    // Each thread allocates and first-touches its own streams.
    team.run([&](int t) {
      auto& own = buffers[static_cast<std::size_t>(t)];
      std::vector<char*> starts;
      for (int s = 0; s < streams; ++s) {
        own.emplace_back(context.topology.handle(), per_stream, request.nodes, request.policy);
        fill_with_ones(own.back().data(), per_stream);
        starts.push_back(static_cast<char*>(own.back().data()));
      }
      point(t, starts);
    });
    for (std::size_t t = 0; t < threads; ++t) {
      for (const platform::NodeBuffer& b : buffers[t]) areas[t].emplace_back(b.data(), b.size());
    }
  }

  platform::PlacementCount placement;
  std::vector<std::pair<const void*, std::size_t>> huge_page_candidates;
  for (const auto& own : areas) {
    for (const auto& [data, size] : own) {
      placement += platform::count_placement(data, size, request.nodes);
      if (size >= platform::kHugePageBytes) huge_page_candidates.emplace_back(data, size);
    }
  }
  // Interleaved buffers are left on small pages on purpose (page-by-page interleaving).
  std::optional<double> huge_pages;
  if (!huge_page_candidates.empty() && request.policy == platform::BindPolicy::bind) {
    huge_pages = platform::huge_page_fraction(huge_page_candidates);
  }

  const TimedSamples timed =
      sample(team, context.clock, context.sampling, [&](int t, std::uint64_t repetitions) {
        codegen::KernelArgs& a = args[static_cast<std::size_t>(t)];
        a.repetitions = repetitions;
        kernel->run(a);
      });

  BandwidthResult result;
  result.working_set_bytes = per_stream * static_cast<std::uint64_t>(streams);
  result.placement_fraction = placement.fraction();
  // Interleaved data must also be spread evenly over its memories, not just lie on them.
  if (request.policy == platform::BindPolicy::interleave) {
    result.interleave_evenness = placement.evenness(request.nodes);
  }
  const double bytes = static_cast<double>(threads) * static_cast<double>(timed.repetitions) *
                       static_cast<double>(bytes_per_sweep);
  for (double seconds : timed.seconds) result.gbps.push_back(bytes / seconds / 1e9);
  result.interference = timed.interference;
  result.huge_page_fraction = huge_pages;

  if (!request.thread_groups.empty()) {
    const int groups =
        *std::max_element(request.thread_groups.begin(), request.thread_groups.end()) + 1;
    result.group_gbps.assign(static_cast<std::size_t>(groups), {});
    const double bytes_per_thread =
        static_cast<double>(timed.repetitions) * static_cast<double>(bytes_per_sweep);
    for (const std::vector<double>& ends : timed.thread_end_seconds) {
      std::vector<double> group_end(static_cast<std::size_t>(groups), 0);
      std::vector<int> group_threads(static_cast<std::size_t>(groups), 0);
      for (std::size_t t = 0; t < threads; ++t) {
        const auto g = static_cast<std::size_t>(request.thread_groups[t]);
        group_end[g] = std::max(group_end[g], ends[t]);
        ++group_threads[g];
      }
      for (std::size_t g = 0; g < group_end.size(); ++g) {
        if (group_threads[g] > 0) {
          result.group_gbps[g].push_back(group_threads[g] * bytes_per_thread / group_end[g] / 1e9);
        }
      }
    }
  }
  return result;
}

std::uint64_t stream_slice_bytes(std::uint64_t per_stream) {
  const std::uint64_t alignment =
      per_stream >= platform::kHugePageBytes ? platform::kHugePageBytes : 4096;
  return (per_stream + alignment - 1) / alignment * alignment;
}

}  // namespace larm::kernels
