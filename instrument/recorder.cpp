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
#include "instrument/recorder_parts.h"
#include "instrument/region_report.h"
#include "platform/arch.h"
#include "platform/clock.h"
#include "platform/page_nodes.h"
#include "results/atomic_file.h"
#include "results/input_file.h"
#include "results/output_claim.h"
#include "results/printable_text.h"

namespace larm::instrument {

using namespace recorder_parts;

namespace {

// The most bytes one load or store instruction can be declared to move (LARM_ACCESS_BYTES): a
// vector register is 64, a cache line up to 256; beyond a page it is no access width.
constexpr double kMaxAccessBytes = 4096;

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

}  // namespace

namespace recorder_parts {

bool g_use_tsc = false;

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

// The checked name's record emptied for a reset.
void reset_counts(RegionRecord& record) {
  RegionRecord fresh;
  fresh.name = std::move(record.name);
  fresh.cpu = record.cpu;
  fresh.open_depth = record.open_depth;
  record = std::move(fresh);
}

}  // namespace recorder_parts

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
