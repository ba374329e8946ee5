// The region registry: per-thread stacks and records, data tags, init/fork/finalize.
#include "instrument/recorder.h"

#include <pthread.h>
#include <sched.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <exception>
#include <optional>
#include <thread>

#include "instrument/messages.h"
#include "instrument/monitor/region_source.h"
#include "instrument/region_report.h"
#include "platform/arch.h"
#include "platform/clock.h"
#include "platform/page_nodes.h"
#include "results/atomic_file.h"
#include "results/input_file.h"
#include "results/output_claim.h"
#include "results/printable_text.h"

namespace larm::instrument {
namespace {

// The most bytes one load or store instruction can be declared to move (LARM_ACCESS_BYTES): a
// vector register is 64, a cache line up to 256; beyond a page it is no access width.
constexpr double kMaxAccessBytes = 4096;

// Set once by init, before state_ turns active (release); read after an acquire of state_.
bool g_use_tsc = false;
// kBusyCallNs in ticks of now_ticks() (the busy-thread sampling's period): as is for
// clock_gettime; for the TSC, its rate measured by init over kQuickCalibrationNs.
std::atomic<std::uint64_t> g_busy_period_ticks{kBusyCallNs};
constexpr std::uint64_t kQuickCalibrationNs = 200'000;

double quick_ticks_per_ns() {
  const std::uint64_t ticks = platform::arch::counter_now();
  const std::uint64_t ns = platform::monotonic_raw_ns();
  std::uint64_t now = ns;
  while (now - ns < kQuickCalibrationNs) now = platform::monotonic_raw_ns();
  return static_cast<double>(platform::arch::counter_now() - ticks) / static_cast<double>(now - ns);
}

std::uint64_t now_ticks() {
  return g_use_tsc ? platform::arch::counter_now() : platform::monotonic_raw_ns();
}

// CPU time of every thread of the process so far (CLOCK_PROCESS_CPUTIME_ID), or of the calling
// thread (CLOCK_THREAD_CPUTIME_ID): system calls, not vDSO reads.
std::uint64_t cpu_clock_ns(clockid_t clock) {
  timespec now{};
  if (::clock_gettime(clock, &now) != 0) return 0;
  return static_cast<std::uint64_t>(now.tv_sec) * 1'000'000'000ULL +
         static_cast<std::uint64_t>(now.tv_nsec);
}

thread_local ThreadState* t_state = nullptr;
// Set while the thread runs liblarm code (ThreadEntry); initial-exec so that reading it in a
// signal handler never allocates (liblarm is linked, not dlopen()ed).
__attribute__((tls_model("initial-exec"))) thread_local bool t_inside = false;
std::atomic<long> g_reentrant_calls{0};
static_assert(std::atomic<long>::is_always_lock_free, "counted from signal handlers");
thread_local std::uint64_t t_generation = 0;

// Shortest run over which the TSC rate is derived at finalize (error ~ 1e-5 at 20 ms).
constexpr std::uint64_t kMinCalibrationNs = 20'000'000;
// A tag whose pages are still untouched is queried again at most this many times.
constexpr int kMaxDataRequeries = 8;

std::string shown_name(std::string_view name) {
  constexpr std::size_t kShown = 60;
  std::string text = "\"" + std::string(name.substr(0, kShown));
  if (name.size() > kShown) text += "...";
  return text + "\"";
}

// The name as recorded, or nullopt (with a message) when it cannot name a region.
std::optional<std::string_view> checked_name(const char* name, const char* function,
                                             bool announce_truncation) {
  if (name == nullptr) {
    report(MessageKind::bad_name, std::string(function) + ": NULL region name: ignored");
    return std::nullopt;
  }
  const std::size_t length = ::strnlen(name, kMaxNameBytes + 1);
  if (length == 0) {
    report(MessageKind::bad_name, std::string(function) + ": empty region name: ignored");
    return std::nullopt;
  }
  if (length > kMaxNameBytes) {
    if (announce_truncation) {
      report(MessageKind::bad_name,
             std::string(function) + ": region name longer than " + std::to_string(kMaxNameBytes) +
                 " bytes truncated: " + shown_name(std::string_view(name, kMaxNameBytes)));
    }
    return std::string_view(name, kMaxNameBytes);
  }
  return std::string_view(name, length);
}

std::string_view frame_name(const ThreadState::Frame& frame) {
  return frame.record != nullptr ? std::string_view(frame.record->name)
                                 : std::string_view(frame.refused_name);
}

std::string utc_now() {
  const std::time_t now = std::time(nullptr);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&now));
  return text;
}

const char* env(const char* name) {
  const char* value = std::getenv(name);
  return value != nullptr && *value != '\0' ? value : nullptr;
}

bool has_untouched_pages(const DataTag& tag) {
  const auto it = tag.pages_by_node.find(-ENOENT);
  return it != tag.pages_by_node.end() && it->second > 0;
}

std::uintptr_t page_bytes() {
  static const auto bytes = static_cast<std::uintptr_t>(::sysconf(_SC_PAGESIZE));
  return bytes;
}

// Where the pages of a handle's runs sit now: kMaxPagesQueried pages at most over all its runs,
// shared in proportion to their pages (each run at least one).
void query_handle(DataHandle& handle) {
  DataTag& tag = handle.tag;
  tag.pages_by_node.clear();
  tag.neighbours_compared = tag.neighbours_apart = 0;
  // Its extent, kept here rather than at every tag (a handle tagged row by row has many).
  tag.address = handle.runs.empty() ? 0 : handle.runs.begin()->first;
  tag.runs = handle.runs.size();
  tag.bytes = 0;
  for (const auto& [first, end] : handle.runs) tag.bytes += end - first;
  const std::size_t pages = tag.bytes / page_bytes();
  if (pages == 0) return;
  // More runs than pages to query: every k-th run, so that the queries stay bounded.
  const std::size_t stride = std::max<std::size_t>(1, handle.runs.size() / kMaxPagesQueried);
  std::size_t index = 0;
  try {
    for (const auto& [first, end] : handle.runs) {
      if (index++ % stride != 0) continue;
      const std::size_t run_pages = (end - first) / page_bytes();
      const std::size_t budget =
          std::max<std::size_t>(1, run_pages * kMaxPagesQueried * stride / pages);
      const platform::PageLayout layout =
          platform::query_page_layout(reinterpret_cast<const void*>(first), end - first, budget);
      for (const auto& [node, count] : layout.per_node) tag.pages_by_node[node] += count;
      tag.neighbours_compared += layout.neighbours_compared;
      tag.neighbours_apart += layout.neighbours_apart;
    }
  } catch (const std::exception& error) {
    report(MessageKind::placement, error.what());
    tag.pages_by_node.clear();
    tag.neighbours_compared = tag.neighbours_apart = 0;
  }
}

// The pages of [first, end) not yet in `runs`, merged into them; returns the new stretches.
std::vector<std::pair<std::uintptr_t, std::uintptr_t>> merge_run(
    std::map<std::uintptr_t, std::uintptr_t>& runs, std::uintptr_t first, std::uintptr_t end) {
  std::vector<std::pair<std::uintptr_t, std::uintptr_t>> added;
  auto it = runs.upper_bound(first);
  if (it != runs.begin() && std::prev(it)->second >= first) --it;
  std::uintptr_t cursor = first, merged_first = first, merged_end = end;
  while (it != runs.end() && it->first <= end) {
    if (it->first > cursor) added.emplace_back(cursor, it->first);
    cursor = std::max(cursor, it->second);
    merged_first = std::min(merged_first, it->first);
    merged_end = std::max(merged_end, it->second);
    it = runs.erase(it);
  }
  if (cursor < end) added.emplace_back(cursor, end);
  runs.emplace(merged_first, merged_end);
  return added;
}

void reset_counts(RegionRecord& record) {
  RegionRecord fresh;
  fresh.name = std::move(record.name);
  fresh.cpu = record.cpu;
  fresh.open_depth = record.open_depth;
  record = std::move(fresh);
}

}  // namespace

Recorder& process_recorder() {
  // Never destroyed: threads the application did not join may still call in during exit.
  static Recorder* recorder = new Recorder;
  return *recorder;
}

namespace {
// The fork handlers, registered when liblarm is loaded rather than by the first (lazy)
// initialisation: a fork() while another thread initialises must wait for its lifecycle lock,
// which the child would otherwise inherit locked, and hang on.
[[maybe_unused]] const bool g_fork_handlers = [] {
  ::pthread_atfork([] { process_recorder().before_fork(); },
                   [] { process_recorder().after_fork_in_parent(); },
                   [] { process_recorder().after_fork_in_child(); });
  return true;
}();
}  // namespace

int Recorder::init(const char* out_dir) {
  return initialize(out_dir, true) ? 0 : -1;
}

bool Recorder::initialize(const char* out_dir, bool explicit_call) {
  std::lock_guard lifecycle(lifecycle_mutex_);
  const State state = state_.load(std::memory_order_acquire);
  if (state == State::active) {
    if (explicit_call) report(MessageKind::lifecycle, "larm_init called twice: ignored");
    return !explicit_call;
  }
  if (state == State::finalized) {
    report(MessageKind::lifecycle,
           "larm_init after larm_finalize: recording again is not supported");
    return false;
  }
  try {
    std::filesystem::path dir;
    if (out_dir != nullptr && *out_dir != '\0') {
      dir = out_dir;
    } else if (const char* from_env = env("LARM_OUT")) {
      dir = from_env;
    } else {
      dir = std::filesystem::current_path();
    }
    out_dir_ = std::filesystem::absolute(dir);
    file_suffix_.clear();  // before the claim, which sets it when another process holds out_dir_
    try {
      results::ensure_writable_directory(out_dir_);
      claim_out_dir();
    } catch (const std::exception& error) {
      report(MessageKind::lifecycle, std::string(error.what()) + "; larm_finalize will try again");
    }
    const char* label = env("LARM_LABEL");
    label_ = label != nullptr ? label : "default";
    max_regions_per_thread_ = kDefaultMaxRegionsPerThread;
    if (const char* limit = env("LARM_MAX_REGIONS")) {
      char* end = nullptr;
      const unsigned long long value = std::strtoull(limit, &end, 10);
      if (end == limit || *end != '\0' || value == 0) {
        report(MessageKind::lifecycle, std::string("LARM_MAX_REGIONS=") + limit +
                                           " is not a positive integer: using " +
                                           std::to_string(kDefaultMaxRegionsPerThread));
      } else {
        max_regions_per_thread_ = static_cast<std::size_t>(value);
      }
    }
    access_bytes_ = 0;
    if (const char* width = env("LARM_ACCESS_BYTES")) {
      char* end = nullptr;
      const double value = std::strtod(width, &end);
      // An access is at most a cache line or a vector register: 1e19 or 1e300 bytes per access
      // would make every byte count beyond what larm's files hold.
      if (end == width || *end != '\0' || !(value > 0 && value <= kMaxAccessBytes)) {
        report(MessageKind::lifecycle, "LARM_ACCESS_BYTES=" + results::printable(width) +
                                           " is not a number of bytes from above 0 to " +
                                           std::to_string(static_cast<int>(kMaxAccessBytes)) +
                                           ": ignored");
      } else {
        access_bytes_ = value;
      }
    }
    const char* counters = env("LARM_COUNTERS");
    counters_unavailable_ = counters != nullptr && std::strcmp(counters, "off") == 0
                                ? "LARM_COUNTERS=off"
                                : counters_.start();
    g_use_tsc = platform::arch::has_invariant_counter();
    g_busy_period_ticks.store(
        g_use_tsc ? static_cast<std::uint64_t>(quick_ticks_per_ns() * kBusyCallNs) : kBusyCallNs,
        std::memory_order_relaxed);
    start_ns_ = platform::monotonic_raw_ns();
    start_ticks_ = now_ticks();
    started_at_ = utc_now();
    owner_pid_ = ::getpid();
    forked_child_ = false;
    static std::once_flag at_exit;
    std::call_once(at_exit, [] { std::atexit([] { process_recorder().finalize_at_exit(); }); });
  } catch (const std::exception& error) {
    report(MessageKind::lifecycle, std::string("larm_init failed: ") + error.what());
    return false;
  }
  state_.store(State::active, std::memory_order_release);
  return true;
}

bool Recorder::ensure_active() {
  const State state = state_.load(std::memory_order_acquire);
  if (state == State::active) return true;
  if (state == State::finalized) {
    report(MessageKind::misuse, "region call after larm_finalize: ignored");
    return false;
  }
  return initialize(nullptr, false);
}

ThreadState* Recorder::thread_state() {
  const std::uint64_t generation = generation_.load(std::memory_order_acquire);
  if (t_state != nullptr && t_generation == generation) return t_state;
  auto state = std::make_unique<ThreadState>();
  state->tid = static_cast<long>(::gettid());
  state->stack.reserve(32);
  if (counters_.active()) state->counting = counters_.start_thread(state->event_set);
  std::lock_guard registry(registry_mutex_);
  state->index = static_cast<int>(threads_.size());
  t_state = state.get();
  t_generation = generation;
  threads_.push_back(std::move(state));
  return t_state;
}

RegionRecord* Recorder::find_or_create(ThreadState& state, std::string_view name) {
  if (state.last != nullptr && state.last->name == name) return state.last;
  const auto found = state.regions.find(name);
  if (found != state.regions.end()) return state.last = &found->second;
  if (state.regions.size() >= max_regions_per_thread_) {
    report(MessageKind::limit, "more than " + std::to_string(max_regions_per_thread_) +
                                   " distinct regions on thread " + std::to_string(state.index) +
                                   ": " + shown_name(name) +
                                   " ignored (LARM_MAX_REGIONS raises the limit)");
    return nullptr;
  }
  auto [inserted, created] = state.regions.try_emplace(std::string(name));
  inserted->second.name = inserted->first;
  return state.last = &inserted->second;
}

int Recorder::thread_init() {
  if (!ensure_active()) return -1;
  return thread_state() != nullptr ? 0 : -1;
}

int Recorder::register_region(const char* name) {
  if (!ensure_active()) return -1;
  ThreadState& state = *thread_state();
  const auto checked = checked_name(name, "larm_region_register", true);
  if (!checked) return -1;
  std::lock_guard lock(state.lock);
  return find_or_create(state, *checked) != nullptr ? 0 : -1;
}

int Recorder::begin(const char* name) {
  if (!ensure_active()) return -1;
  ThreadState& state = *thread_state();
  const auto checked = checked_name(name, "larm_region_begin", true);
  std::lock_guard lock(state.lock);
  RegionRecord* record = checked ? find_or_create(state, *checked) : nullptr;
  ThreadState::Frame& frame = state.stack.emplace_back();
  if (record == nullptr) {  // the refused begin keeps its frame so that its end matches
    if (checked) frame.refused_name = *checked;
    return -1;
  }
  frame.record = record;
  const int cpu = ::sched_getcpu();
  if (record->cpu < 0) {
    record->cpu = cpu;
  } else if (cpu != record->cpu) {
    record->migrated = true;
  }
  if (record->open_depth++ == 0) {
    if (state.counting) counters_.read(state.event_set, frame.start_counts);
    frame.start_process_cpu_ns = 0;
    std::uint64_t start = now_ticks();
    if (start - record->busy_last_sample_ticks >=
        g_busy_period_ticks.load(std::memory_order_relaxed)) {
      record->busy_last_sample_ticks = start;
      frame.start_process_cpu_ns = cpu_clock_ns(CLOCK_PROCESS_CPUTIME_ID);
      frame.start_thread_cpu_ns = cpu_clock_ns(CLOCK_THREAD_CPUTIME_ID);
      frame.start_ns = platform::monotonic_raw_ns();
      start = now_ticks();
    }
    frame.start_ticks = start;
    if (record->first_begin_ticks == 0) record->first_begin_ticks = frame.start_ticks;
  }
  return 0;
}

void Recorder::close_frame(ThreadState::Frame& frame, std::uint64_t end_ticks,
                           const CounterValues* counts) {
  RegionRecord& record = *frame.record;
  ++record.calls;
  if (--record.open_depth > 0) return;  // an inner instance of a recursive region
  record.ticks += end_ticks - frame.start_ticks;
  record.last_end_ticks = end_ticks;
  if (frame.start_process_cpu_ns != 0) {
    const std::uint64_t wall = platform::monotonic_raw_ns() - frame.start_ns;
    const std::uint64_t own = cpu_clock_ns(CLOCK_THREAD_CPUTIME_ID);
    const std::uint64_t cpu = cpu_clock_ns(CLOCK_PROCESS_CPUTIME_ID);
    if (wall >= kBusyCallNs && cpu > frame.start_process_cpu_ns &&
        own > frame.start_thread_cpu_ns) {
      record.busy_cpu_ns += cpu - frame.start_process_cpu_ns;
      record.busy_thread_cpu_ns += own - frame.start_thread_cpu_ns;
      record.busy_wall_ns += wall;
    }
  }
  if (counts != nullptr) {
    for (std::size_t i = 0; i < counts->size(); ++i) {
      record.counter_deltas[i] += (*counts)[i] - frame.start_counts[i];
    }
    record.counted = true;
  }
}

int Recorder::end(const char* name) {
  const std::uint64_t end_ticks = now_ticks();
  const State lifecycle = state_.load(std::memory_order_acquire);
  if (lifecycle != State::active) {
    report(MessageKind::misuse, lifecycle == State::finalized
                                    ? "larm_region_end after larm_finalize: ignored"
                                    : "larm_region_end before any larm_region_begin: ignored");
    return -1;
  }
  ThreadState& state = *thread_state();
  CounterValues& counts = state.end_counts;
  const bool counted = state.counting && counters_.read(state.event_set, counts);
  const auto checked = checked_name(name, "larm_region_end", false);
  std::string problem;
  int result = -1;
  {
    std::lock_guard lock(state.lock);
    auto& stack = state.stack;
    const std::string_view wanted = checked ? *checked : std::string_view();
    std::size_t open = stack.size();
    while (open > 0 && frame_name(stack[open - 1]) != wanted) --open;
    if (open == 0 && checked) {  // a NULL or empty name was reported by checked_name already
      problem = "larm_region_end(" + shown_name(*checked) +
                (stack.empty() ? ") without a matching begin on this thread: ignored"
                               : ") but the innermost open region of this thread is " +
                                     shown_name(frame_name(stack.back())) + ": ignored");
    } else if (open > 0) {
      if (open < stack.size()) {
        problem = "larm_region_end(" + shown_name(wanted) + ") also closes " +
                  shown_name(frame_name(stack.back())) + ", still open inside it";
      }
      // The end of a refused begin closes its frame; the refusal was reported at the begin.
      result = stack[open - 1].record != nullptr ? 0 : -1;
      while (stack.size() >= open) {
        if (stack.back().record != nullptr) {
          close_frame(stack.back(), end_ticks, counted ? &counts : nullptr);
        }
        stack.pop_back();
      }
    }
  }
  if (!problem.empty()) report(MessageKind::misuse, problem);
  if (result == 0 && pending_data_.load(std::memory_order_relaxed) > 0) {
    requery_pending_data(*checked);
  }
  return result;
}

namespace {
// A count larm's files can hold: 0 to results::kMaxMagnitude (1e18).
bool is_count(double value) {
  return value >= 0 && value <= results::kMaxMagnitude;
}
// Above that range (1e300, +inf) is neither a count nor "not declared" (negative or NaN): it is
// refused.
bool is_infinite_count(double value) {
  return value > results::kMaxMagnitude;
}
}  // namespace

int Recorder::add(const char* name, double flops, double bytes) {
  return declare(name, "larm_region_add", flops, bytes, std::nullopt);
}

int Recorder::add_rw(const char* name, double flops, double bytes_read, double bytes_written) {
  // The split only means something with both halves: one alone would make a wrong read share.
  if (is_count(bytes_read) != is_count(bytes_written)) {
    if (!ensure_active()) return -1;
    const auto checked = checked_name(name, "larm_region_add_rw", true);
    if (!checked) return -1;
    report(MessageKind::misuse, "larm_region_add_rw(" + shown_name(*checked) +
                                    "): bytes read and bytes written must both be counts (>= 0) "
                                    "or both be undeclared: ignored");
    return -1;
  }
  const bool split = is_count(bytes_read);
  const double sum = bytes_read + bytes_written;
  return declare(name, "larm_region_add_rw", flops, split || is_infinite_count(sum) ? sum : -1.0,
                 split ? std::optional(std::pair(bytes_read, bytes_written)) : std::nullopt);
}

int Recorder::declare(const char* name, const char* api, double flops, double bytes,
                      std::optional<std::pair<double, double>> read_written) {
  if (!ensure_active()) return -1;
  ThreadState& state = *thread_state();
  const auto checked = checked_name(name, api, true);
  if (!checked) return -1;
  if (is_infinite_count(flops) || is_infinite_count(bytes)) {
    report(MessageKind::misuse,
           std::string(api) + "(" + shown_name(*checked) + "): " +
               (is_infinite_count(flops) ? "FLOPs above 1e18: ignored, bytes too"
                                         : "bytes above 1e18: ignored, FLOPs too"));
    return -1;
  }
  const bool has_flops = is_count(flops);
  const bool has_bytes = is_count(bytes);
  if (!has_flops && !has_bytes) {
    report(MessageKind::misuse, std::string(api) + "(" + shown_name(*checked) +
                                    "): neither FLOPs nor bytes is a count (>= 0): ignored");
    return -1;
  }
  std::lock_guard lock(state.lock);
  RegionRecord* record = find_or_create(state, *checked);
  if (record == nullptr) return -1;
  // The region's sums stay counts: an addition that would take one past 1e18 is refused whole.
  const bool overflows =
      (has_flops && !is_count(record->declared_flops + flops)) ||
      (has_bytes && !is_count(record->declared_bytes + bytes)) ||
      (read_written && (!is_count(record->declared_bytes_read + read_written->first) ||
                        !is_count(record->declared_bytes_written + read_written->second)));
  if (overflows) {
    report(MessageKind::misuse, std::string(api) + "(" + shown_name(*checked) +
                                    "): the region's declared total would pass 1e18: ignored");
    return -1;
  }
  if (has_flops) {
    record->declared_flops += flops;
    record->flops_declared = true;
  }
  if (has_bytes) {
    record->declared_bytes += bytes;
    record->bytes_declared = true;
  }
  if (read_written) {
    record->declared_bytes_read += read_written->first;
    record->declared_bytes_written += read_written->second;
    record->rw_declared = true;
  }
  return 0;
}

void Recorder::tag_range(const std::string& name, const void* ptr, std::size_t len) {
  const auto address = reinterpret_cast<std::uintptr_t>(ptr);
  const std::uintptr_t first = address & ~(page_bytes() - 1);
  const std::uintptr_t end = (address + len + page_bytes() - 1) & ~(page_bytes() - 1);
  DataHandle& handle = handles_[name];
  const bool was_pending = !handle.runs.empty() && handle.tag.pending;
  handle.tag.handle = name;
  ++handle.tag.ranges_tagged;
  // The pages tagged for the first time: were they touched already, and where?
  for (const auto& [from, to] : merge_run(handle.runs, first, end)) {
    try {
      const std::size_t pages = (to - from) / page_bytes();
      for (const auto& [node, count] :
           platform::query_page_nodes(reinterpret_cast<const void*>(from), to - from,
                                      std::min<std::size_t>(pages, kMaxPagesQueried))) {
        handle.tag.at_tag_by_node[node] += count;
      }
    } catch (const std::exception& error) {
      report(MessageKind::placement, error.what());
    }
  }
  // Not queried now (a handle tagged row by row would be queried once per row): marked pending,
  // queried at the next end of a region that uses it and at finalize.
  handle.tag.pending = true;
  handle.tag.requeries = 0;
  if (!was_pending) pending_data_.fetch_add(1, std::memory_order_relaxed);
}

int Recorder::data(const char* name, const void* ptr, std::size_t len) {
  return tag_data("larm_region_data", name, ptr, len, true);
}

int Recorder::data_tag(const char* handle, const void* ptr, std::size_t len) {
  return tag_data("larm_data_tag", handle, ptr, len, false);
}

int Recorder::tag_data(const char* api, const char* name, const void* ptr, std::size_t len,
                       bool used_by_region) {
  if (!ensure_active()) return -1;
  const auto checked = checked_name(name, api, true);
  if (!checked) return -1;
  if (ptr == nullptr || len == 0) {
    report(MessageKind::misuse, std::string(api) + "(" + shown_name(*checked) +
                                    "): NULL pointer or zero length: ignored");
    return -1;
  }
  const std::string key(*checked);
  std::lock_guard lock(data_mutex_);
  tag_range(key, ptr, len);
  if (used_by_region) {
    auto& used = uses_[key];
    if (std::find(used.begin(), used.end(), key) == used.end()) used.push_back(key);
  }
  return 0;
}

int Recorder::region_uses(const char* region, const char* handle) {
  if (!ensure_active()) return -1;
  const auto region_name = checked_name(region, "larm_region_uses", true);
  if (!region_name) return -1;
  const auto handle_name = checked_name(handle, "larm_region_uses", true);
  if (!handle_name) return -1;
  std::lock_guard lock(data_mutex_);
  auto& used = uses_[std::string(*region_name)];
  if (std::find(used.begin(), used.end(), *handle_name) == used.end()) {
    used.emplace_back(*handle_name);
  }
  return 0;
}

void Recorder::requery_pending_data(std::string_view name) {
  std::lock_guard lock(data_mutex_);
  const auto found = uses_.find(name);
  if (found == uses_.end()) return;
  for (const std::string& used : found->second) {
    const auto handle = handles_.find(used);
    if (handle == handles_.end() || !handle->second.tag.pending) continue;
    DataTag& tag = handle->second.tag;
    query_handle(handle->second);
    ++tag.requeries;
    if (!has_untouched_pages(tag) || tag.requeries >= kMaxDataRequeries) {
      tag.pending = false;
      pending_data_.fetch_sub(1, std::memory_order_relaxed);
    }
  }
}

double Recorder::ticks_per_second(std::uint64_t ticks_now, std::uint64_t ns_now) const {
  // The TSC against CLOCK_MONOTONIC_RAW since init; clock_gettime ticks are nanoseconds.
  if (!g_use_tsc || ns_now <= start_ns_) return 1e9;
  return static_cast<double>(ticks_now - start_ticks_) * 1e9 /
         static_cast<double>(ns_now - start_ns_);
}

int Recorder::get(const char* name, double* seconds, long* calls) {
  if (!ensure_active()) return -1;
  ThreadState& state = *thread_state();
  const auto checked = checked_name(name, "larm_region_get", false);
  if (!checked) return -1;
  const std::uint64_t ticks_now = now_ticks();
  const std::uint64_t ns_now = platform::monotonic_raw_ns();
  std::lock_guard lock(state.lock);
  const auto found = state.regions.find(*checked);
  if (found == state.regions.end()) return -1;
  if (seconds != nullptr) {
    *seconds = static_cast<double>(found->second.ticks) / ticks_per_second(ticks_now, ns_now);
  }
  if (calls != nullptr) *calls = static_cast<long>(found->second.calls);
  return 0;
}

std::vector<monitor::RegionProgress> Recorder::progress() {
  std::vector<monitor::RegionProgress> out;
  if (state_.load() != State::active) return out;
  const double per_second = ticks_per_second(now_ticks(), platform::monotonic_raw_ns());
  std::lock_guard registry(registry_mutex_);
  for (const auto& thread : threads_) {
    std::lock_guard lock(thread->lock);
    for (const auto& [name, record] : thread->regions) {
      monitor::RegionProgress p;
      p.region = name;
      p.cpu = record.cpu;
      p.thread = thread->tid;
      p.calls = static_cast<double>(record.calls);
      p.seconds = static_cast<double>(record.ticks) / per_second;
      p.flops = record.flops_declared ? record.declared_flops : 0;
      p.bytes = record.bytes_declared ? record.declared_bytes : 0;
      out.push_back(std::move(p));
    }
  }
  return out;
}

int Recorder::reset_region(const char* name) {
  if (!ensure_active()) return -1;
  ThreadState& state = *thread_state();
  const auto checked = checked_name(name, "larm_region_reset", false);
  if (!checked) return -1;
  std::lock_guard lock(state.lock);
  const auto found = state.regions.find(*checked);
  if (found == state.regions.end()) return -1;
  if (found->second.open_depth > 0) {
    report(MessageKind::misuse,
           "larm_region_reset(" + shown_name(*checked) + ") while it is open: ignored");
    return -1;
  }
  reset_counts(found->second);
  return 0;
}

Snapshot Recorder::take_snapshot(std::uint64_t end_ticks) {
  Snapshot snapshot;
  snapshot.label = label_;
  snapshot.out_dir = out_dir_;
  snapshot.file_suffix = file_suffix_;
  snapshot.started_at = started_at_;
  snapshot.counters = &counters_;
  snapshot.counters_unavailable = counters_unavailable_;
  snapshot.access_bytes = access_bytes_;
  {
    std::lock_guard registry(registry_mutex_);
    for (const auto& thread : threads_) {
      std::lock_guard lock(thread->lock);
      // Regions still open are closed at finalize; another thread's counters cannot be read
      // from here, so those calls keep their time only.
      while (!thread->stack.empty()) {
        auto& frame = thread->stack.back();
        if (frame.record != nullptr) {
          snapshot.open_at_finalize.push_back(shown_name(frame.record->name) + " on thread " +
                                              std::to_string(thread->index));
          close_frame(frame, end_ticks, nullptr);
        }
        thread->stack.pop_back();
      }
      ThreadSnapshot copy;
      copy.index = thread->index;
      copy.tid = thread->tid;
      copy.regions.reserve(thread->regions.size());
      for (const auto& [name, record] : thread->regions) copy.regions.push_back(record);
      snapshot.threads.push_back(std::move(copy));
    }
  }
  {
    std::lock_guard lock(data_mutex_);
    for (auto& [name, handle] : handles_) {
      if (handle.tag.pending || handle.tag.pages_by_node.empty()) query_handle(handle);
    }
    for (const auto& [region, used] : uses_) {
      auto& tags = snapshot.data[region];
      for (const std::string& name : used) {
        const auto handle = handles_.find(name);
        if (handle != handles_.end()) {
          tags.push_back(handle->second.tag);
        } else {
          report(MessageKind::misuse, "larm_region_uses(" + shown_name(region) + ", " +
                                          shown_name(name) +
                                          "): no data was tagged with that name (larm_data_tag)");
        }
      }
    }
  }
  // The TSC rate over the whole run, against CLOCK_MONOTONIC_RAW: long enough to be exact.
  while (platform::monotonic_raw_ns() - start_ns_ < kMinCalibrationNs) {
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  const std::uint64_t ns = platform::monotonic_raw_ns();
  const std::uint64_t ticks = now_ticks();
  snapshot.ticks_per_second = ticks_per_second(ticks, ns);
  snapshot.wall_seconds = static_cast<double>(end_ticks - start_ticks_) / snapshot.ticks_per_second;
  snapshot.start_ticks = start_ticks_;
  snapshot.clock_source = g_use_tsc ? "invariant TSC" : "clock_gettime(MONOTONIC_RAW)";
  return snapshot;
}

int Recorder::finalize() {
  std::lock_guard lifecycle(lifecycle_mutex_);
  const std::uint64_t end_ticks = now_ticks();
  const State state = state_.load(std::memory_order_acquire);
  if (state == State::finalized) {
    report(MessageKind::lifecycle, "larm_finalize called again: the regions were already written");
    return -1;
  }
  if (state == State::idle) {
    report(MessageKind::lifecycle,
           "larm_finalize without larm_init or any region: nothing to write");
    return -1;
  }
  state_.store(State::finalized, std::memory_order_release);
  try {
    Snapshot snapshot = take_snapshot(end_ticks);
    for (const auto& open : snapshot.open_at_finalize) {
      report(MessageKind::lifecycle,
             "region " + open + " still open at larm_finalize: closed there");
    }
    if (forked_child_ && !snapshot.has_calls()) return 0;  // a child that recorded nothing
    if (claim_fd_ < 0 && !forked_child_ && file_suffix_.empty()) {
      try {
        claim_out_dir();  // the directory could not be written at init
      } catch (const std::exception&) {
        // write_regions reports it and falls back to the temporary directory
      }
      snapshot.file_suffix = file_suffix_;
    }
    if (const long refused = reentrant_calls(); refused > 0) {
      report(MessageKind::misuse, std::to_string(refused) +
                                      " region calls interrupted liblarm on their own thread (from "
                                      "a signal handler?) and were refused");
    }
    return write_regions(snapshot) ? 0 : -1;
  } catch (const std::exception& error) {
    report(MessageKind::lifecycle, std::string("larm_finalize failed: ") + error.what());
    return -1;
  }
}

ThreadEntry::ThreadEntry() noexcept : entered_(!t_inside) {
  if (entered_) {
    t_inside = true;
    std::atomic_signal_fence(std::memory_order_seq_cst);
  } else {
    g_reentrant_calls.fetch_add(1, std::memory_order_relaxed);
  }
}

ThreadEntry::~ThreadEntry() {
  if (entered_) {
    std::atomic_signal_fence(std::memory_order_seq_cst);
    t_inside = false;
  }
}

long reentrant_calls() {
  return g_reentrant_calls.load(std::memory_order_relaxed);
}

void Recorder::claim_out_dir() {
  if (claim_fd_ >= 0) {
    ::close(claim_fd_);  // a new init (tests): the directory may differ
    claim_fd_ = -1;
  }
  std::string holder;
  const int fd = results::try_claim_directory(
      out_dir_, "liblarm (pid " + std::to_string(::getpid()) + ")", &holder);
  if (fd >= 0) {
    claim_fd_ = fd;
    return;
  }
  file_suffix_ = "-pid" + std::to_string(::getpid());
  report(MessageKind::lifecycle, out_dir_.string() + " is in use by " + holder +
                                     ": this process writes its regions to regions" + file_suffix_ +
                                     ".json");
}

void Recorder::finalize_at_exit() {
  const ThreadEntry entry;
  if (!entry.entered()) return;
  if (state_.load(std::memory_order_acquire) != State::active) return;
  report(MessageKind::lifecycle, "larm_finalize was not called: writing the regions at exit");
  finalize();
}

void Recorder::before_fork() {
  lifecycle_mutex_.lock();
  registry_mutex_.lock();
  data_mutex_.lock();
}

void Recorder::after_fork_in_parent() {
  data_mutex_.unlock();
  registry_mutex_.unlock();
  lifecycle_mutex_.unlock();
}

void Recorder::after_fork_in_child() {
  data_mutex_.unlock();
  registry_mutex_.unlock();
  lifecycle_mutex_.unlock();
  if (state_.load(std::memory_order_acquire) != State::active) return;
  // Only the forking thread exists in the child. The other threads' states may be locked
  // forever: they are abandoned (kept, never touched again, never destroyed). The forking thread
  // keeps its open regions, restarted now, and forgets the parent's counts: the parent writes
  // those.
  forked_child_ = true;
  owner_pid_ = ::getpid();
  if (claim_fd_ >= 0) {
    ::close(claim_fd_);  // the parent's claim: the child writes its own file
    claim_fd_ = -1;
  }
  file_suffix_ = "-pid" + std::to_string(owner_pid_);
  counters_.disable();
  counters_unavailable_ = "fork()ed child: counters stay with the parent";
  for (auto& thread : threads_) {
    if (thread.get() != t_state) abandoned_threads_.push_back(std::move(thread));
  }
  std::erase_if(threads_, [](const auto& thread) { return thread == nullptr; });
  if (t_state != nullptr) {
    t_state->index = 0;
    t_state->counting = false;
    const std::uint64_t now = now_ticks();
    for (auto& [name, record] : t_state->regions) reset_counts(record);
    for (auto& frame : t_state->stack) frame.start_ticks = now;
  }
  report(MessageKind::lifecycle, "fork(): the child (pid " + std::to_string(owner_pid_) +
                                     ") writes its own regions to regions" + file_suffix_ +
                                     ".json");
}

void Recorder::reset_for_testing() {
  std::lock_guard lifecycle(lifecycle_mutex_);
  std::lock_guard registry(registry_mutex_);
  std::lock_guard data(data_mutex_);
  threads_.clear();
  handles_.clear();
  uses_.clear();
  pending_data_.store(0);
  generation_.fetch_add(1, std::memory_order_acq_rel);
  state_.store(State::idle, std::memory_order_release);
  reset_message_counts();
  g_reentrant_calls.store(0);
  if (claim_fd_ >= 0) ::close(claim_fd_);
  claim_fd_ = -1;
}

}  // namespace larm::instrument
