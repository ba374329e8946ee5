// Merging a region's threads.
#include "results/region_merge.h"

#include <algorithm>
#include <set>
#include <string>

namespace larm::regions {
namespace {

// Sum of the threads that have a count; the source names every source that contributed.
struct CountSum {
  double value = 0;
  std::set<std::string> sources;
  int threads_without = 0;
  void add(const Count& count) {
    if (!count.value) {
      ++threads_without;
      return;
    }
    value += *count.value;
    sources.insert(count.source);
  }
  Count count() const {
    if (sources.empty()) return {};
    std::string joined;
    for (const auto& s : sources) joined += (joined.empty() ? "" : "+") + s;
    return {value, joined};
  }
};

}  // namespace

Aggregate merge_threads(const std::vector<const ThreadRecord*>& threads) {
  CountSum flops, bytes, bytes_read, bytes_written;
  double busy_cpu_s = 0, busy_thread_cpu_s = 0, busy_wall_s = 0;  // of the sampled calls
  Aggregate a;
  for (const ThreadRecord* t : threads) {
    ++a.threads;
    a.calls += t->calls;
    a.seconds = std::max(a.seconds, t->seconds);
    for (const auto& [name, value] : t->counted) a.counted[name] += value;
    if (t->first_begin_s && (!a.first_begin_s || *t->first_begin_s < *a.first_begin_s)) {
      a.first_begin_s = t->first_begin_s;
    }
    if (t->last_end_s && (!a.last_end_s || *t->last_end_s > *a.last_end_s)) {
      a.last_end_s = t->last_end_s;
    }
    if (t->busy_cpu_s && t->busy_thread_cpu_s && t->busy_wall_s) {
      busy_cpu_s += *t->busy_cpu_s;
      busy_thread_cpu_s += *t->busy_thread_cpu_s;
      busy_wall_s += *t->busy_wall_s;
    }
    flops.add(t->flops);
    bytes.add(t->bytes);
    bytes_read.add(t->bytes_read);
    bytes_written.add(t->bytes_written);
  }
  a.flops = flops.count();
  a.bytes = bytes.count();
  // A split missing on one thread would bias the read share: all threads or none.
  if (bytes_read.threads_without == 0 && bytes_written.threads_without == 0) {
    a.bytes_read = bytes_read.count();
    a.bytes_written = bytes_written.count();
  }
  if (busy_wall_s >= kBusyMinSeconds && busy_thread_cpu_s > 0) {
    a.busy_threads = busy_cpu_s / busy_thread_cpu_s;
  }
  a.threads_without_flops = flops.threads_without;
  a.threads_without_bytes = bytes.threads_without;
  a.rates = rates_of(a.flops.value, a.bytes.value, a.seconds);
  if (!a.rates.ai) {
    a.ai_unavailable =
        !a.flops.value && !a.bytes.value ? "no FLOP or byte count: no counters and nothing declared"
        : !a.flops.value ? "no FLOP count: no FLOP counter and no larm_region_add flops"
        : !a.bytes.value ? "no byte count: declare bytes with larm_region_add"
                         : "zero bytes";
  }
  return a;
}

}  // namespace larm::regions
