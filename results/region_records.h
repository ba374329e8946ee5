// The records of an instrumented run (regions.json, written by liblarm, read by `larm place`,
// `plot` and `report`): every region's threads, their merge per domain and for the whole
// machine, and where its tagged data sits. Format in results/SCHEMA.md, "Regions".
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace larm::regions {

// 1.1: bytes_read and bytes_written (larm_region_add_rw or load/store counters); 1.0 files read
// as having no split. 1.2: "run" (timed or counted), the source "counted" and each count of
// larm count's tool, and when each thread first began and last ended a region; 1.1 files read as
// timed runs without those.
// 1.3: a region's "timing" over the repeated runs of larm count.
// 1.4: each thread's "busy_cpu_s", "busy_thread_cpu_s" and "busy_wall_s", each entry's
// "busy_threads" (how many of the process's threads worked while the region ran); data handles
// with "resident_at_tag".
// 1.5: counters "counted_by" (valgrind or compiler): a timed run of a program built through
// larm's compiler plugins carries exact counts.
// 1.6: counters "cache_model_machine": the host whose caches a count run modelled when its
// --results were another machine's (a what-if of the program there); "cpu_model", the CPU's name
// (two machines may share a host name).
inline constexpr const char* kRegionsSchemaVersion = "1.6";

// A FLOP or byte count and where it comes from: "counted" (larm count), "papi", "declared",
// several joined with "+", or "unavailable" (then no value).
struct Count {
  std::optional<double> value;
  std::string source = "unavailable";
};

// GFLOP/s, GB/s and arithmetic intensity, where both counts and the time allow them.
struct Rates {
  std::optional<double> ai;
  std::optional<double> gflops;
  std::optional<double> gbps;
};

struct ThreadRecord {
  int thread = 0;
  long tid = 0;
  int cpu = -1;
  std::optional<int> domain;  // none when the CPU is in no known domain
  bool migrated = false;      // the thread changed CPU between calls
  std::uint64_t calls = 0;
  double seconds = 0;
  Count flops, bytes;
  Count bytes_read, bytes_written;  // the split of bytes, when known
  std::optional<double> flops_declared, bytes_declared;
  std::optional<double> flops_papi, load_instructions, store_instructions;
  Rates rates;
  std::map<std::string, double> counted;  // larm count: every count of its tool
  // When the thread first began and last ended the region, in seconds since the run started:
  // whether regions of several domains ran at once (contention) is read from them.
  std::optional<double> first_begin_s, last_end_s;
  // Over the calls liblarm sampled (those of 1 ms or more): their wall time, the CPU time the
  // whole process (every thread) used meanwhile and this thread's own, from the kernel.
  std::optional<double> busy_cpu_s, busy_thread_cpu_s, busy_wall_s;
};

// The threads of one domain (or of the whole machine) merged: counts summed, the time of the
// longest thread.
struct Aggregate {
  std::optional<int> domain;  // domain entries only; none for an unknown domain
  int threads = 0;
  std::uint64_t calls = 0;
  double seconds = 0;
  Count flops, bytes;
  Count bytes_read, bytes_written;  // every thread's split summed; none if one thread has none
  int threads_without_flops = 0;
  int threads_without_bytes = 0;
  Rates rates;
  std::string ai_unavailable;                       // why there is no AI, when there is none
  std::map<std::string, double> counted;            // larm count: its threads' counts summed
  std::optional<double> first_begin_s, last_end_s;  // the span of its threads' calls
  // Threads of the process that worked while the region ran: its threads' busy_cpu_s over their
  // busy_thread_cpu_s (so that a thread slowed by other load still counts as one); none under
  // kBusyMinSeconds of sampled calls (files before 1.4, short calls).
  std::optional<double> busy_threads;
  // bytes_read / (bytes_read + bytes_written), when both are known and not both zero.
  std::optional<double> read_share() const;
};

struct DataRange {
  std::string address;  // "0x..."
  std::uint64_t bytes = 0;
  std::uint64_t pages_sampled = 0;
  std::map<unsigned, std::uint64_t> pages_by_memory;  // memory OS index -> pages
  std::uint64_t pages_not_present = 0;
  std::uint64_t pages_unplaced = 0;
  // Neighbouring pages compared, and of those on different memories (1.2): interleaved pages are
  // apart at nearly every page, first-touched blocks almost never.
  std::optional<std::uint64_t> neighbours_compared, neighbours_apart;
  // A data handle (1.4, larm_data_tag): its name, the ranges tagged and the runs of pages they
  // merge into (address and bytes are then the first page's and the runs' pages').
  std::string handle;
  std::optional<std::uint64_t> runs, ranges_tagged;
  // Its pages when they were tagged, sampled: those already present, and where.
  struct ResidentAtTag {
    std::uint64_t pages_sampled = 0;
    std::uint64_t pages_present = 0;
    std::map<unsigned, std::uint64_t> pages_by_memory;
  };
  std::optional<ResidentAtTag> resident_at_tag;
};

// Where the pages of the data tagged with larm_region_data sit.
struct DataPlacement {
  std::vector<DataRange> ranges;
  std::map<unsigned, double> memory_fractions;  // memory OS index -> share of the placed pages
  std::uint64_t pages_placed = 0;
  std::uint64_t pages_not_present = 0;
  std::uint64_t pages_unplaced = 0;
  // Of the neighbouring pages compared in every range, the share on different memories; none
  // when no range says (files before 1.2).
  std::optional<double> neighbours_apart_share() const;
};

// A region's time over the repeated native runs of larm count: each run's (the slowest thread's,
// as the machine entry gives it), which of them were clean (nothing else used the CPUs), and the
// estimator the entries' seconds hold: the median of the clean runs, or of every run when none was
// clean.
struct RunTiming {
  std::vector<double> seconds;  // per run, in run order
  std::vector<bool> clean;      // per run
  std::string estimator;        // "median of 4 clean runs of 5", "median of 5 runs, none clean"
  double median = 0;            // of the runs the estimator names
  // (max - min) / median of those runs: how much the runs the median is taken from differ.
  double spread = 0;
};

struct Region {
  std::string name;
  std::vector<ThreadRecord> threads;
  std::vector<Aggregate> domains;
  Aggregate machine;
  std::optional<DataPlacement> data;
  std::optional<RunTiming> timing;  // larm count's repeated runs (1.3)
};

struct CounterState {
  bool available = false;
  std::string reason;  // why not, when not
  std::vector<std::string> events;
  std::vector<std::string> events_refused;
  std::optional<double> bytes_per_memory_instruction;
  std::string tool;  // "larmcount (Valgrind)" in a counted run
  // Who counted FLOPs and bytes exactly: "valgrind" (larm count's tool: a counted run, its times
  // Valgrind's) or "compiler" (larm's compiler plugin: a timed run, its times the program's);
  // empty when neither did.
  std::string counted_by;
  // The machine whose caches a count run modelled when it is not the one the program ran on
  // (larm count --results of another machine): the bytes each level served are that machine's.
  std::string cache_model_machine;
};

struct RegionsFile {
  // "counted": the run was under larm count, which gives exact counts and times that are not the
  // program's; "timed": any other.
  std::string run = "timed";
  std::string label;
  std::string host;
  std::string cpu_model;  // as the CPU names itself (1.6); empty when unknown
  long pid = 0;
  std::string started_at;
  double wall_seconds = 0;
  std::string clock_source;
  double ticks_per_second = 0;
  CounterState counters;
  nlohmann::json topology = nlohmann::json::object();  // domains and memories, as the run saw them
  std::vector<std::string> open_at_finalize;           // regions still open at the end
  std::vector<Region> regions;
};

// Busy threads at least this many more than the threads that recorded a region, and at least
// this share more, say that its begin and end were not made on every thread that worked in it.
inline constexpr double kUndercountExtraThreads = 0.5;
// Sampled calls of a region that make its busy_threads (the kernel's CPU times of other threads
// move at their ticks: over less, one tick is a large error).
inline constexpr double kBusyMinSeconds = 0.02;
// Well-formed regions measure up to 1.4 x their threads on a loaded machine or under a sanitizer
// (short sampled calls: a thread preempted in its window while the others run, or spinning at the
// barrier while another's window is open): the ratio sits above that.
inline constexpr double kUndercountRatio = 1.6;

// The threads that worked while a region ran, when they say it was recorded by fewer of them
// than worked in it (begin and end outside a parallel region); none otherwise.
std::optional<double> undercount_busy_threads(const Aggregate& machine);
// The warning liblarm writes for such a region ("" when none).
std::string undercount_warning(const Aggregate& machine);

// What makes a file's regions unplaceable as given, naming the first such region: FLOPs without
// bytes, or calls without time. "" when there is none.
std::string unplaceable_region(const RegionsFile& file);

// FLOP/byte, GFLOP/s and GB/s from counts and a time, where they allow them.
Rates rates_of(const std::optional<double>& flops, const std::optional<double>& bytes,
               double seconds);

nlohmann::json to_json(const RegionsFile& file);
// Throws std::runtime_error naming the problem when the document is not a regions file of a
// readable version (1.x).
RegionsFile regions_from_json(const nlohmann::json& document);
// One row per thread, domain and machine entry of every region.
std::string regions_csv(const RegionsFile& file);

}  // namespace larm::regions
