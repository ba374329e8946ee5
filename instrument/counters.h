// Counts of regions: hardware counters through PAPI, when larm is built with it and the machine
// has counters (events chosen per vendor and family with fallbacks, README of instrument/); the
// counts of code built through larm's compiler plugins (larm-cc: instrument/compiler_plugin/),
// exact and native; or, when the program runs under `larm count`'s Valgrind, the counts of larm's
// Valgrind tool. The tool takes precedence, then the plugin's counts: both are exact and need no
// counter.
#pragma once

#include <array>
#include <string>
#include <vector>

namespace larm::instrument {

inline constexpr int kMaxCounterEvents = 32;
using CounterValues = std::array<long long, kMaxCounterEvents>;

struct CounterEvent {
  // detail: a count kept in the records as it is (FLOPs by width, FMA FLOPs) but not summed.
  enum class Kind {
    flops,
    load_instructions,
    store_instructions,
    bytes_loaded,
    bytes_stored,
    instructions,
    detail
  };
  std::string name;  // PAPI event name, or "larmcount:<count>"
  Kind kind = Kind::flops;
  double flops_per_count = 0;  // FLOPs each count stands for (flops events)
};

// The events of the process, chosen once; each thread owns its own PAPI event set.
class Counters {
 public:
  static const bool kSupported;  // built with PAPI

  // Where counts come from, in this order: larm's Valgrind tool when the program runs under it;
  // the plugin's counts when the program was built through larm's compiler plugins; else PAPI,
  // with the events the machine accepts. Returns the reason counts cannot be taken ("PAPI sees 0
  // hardware counters..."), or an empty string.
  std::string start();
  bool active() const { return active_; }
  // The counts come from larm's Valgrind tool (`larm count`): exact, and times are not the
  // program's own (it runs 10-100 times slower).
  bool count_tool() const { return source_ == Source::valgrind_tool; }
  // The counts come from code built through larm's compiler plugins: exact, and the program runs
  // natively, so its times are its own.
  bool compiler() const { return source_ == Source::compiler; }
  // The compiler source with the sampled cache model of the plugins' runtime (larm count's
  // counting run): bytes per level too, and times slowed by the model.
  bool sampled_cache_model() const { return compiler() && sampled_cache_; }
  // Exact counts of FLOPs and bytes (either of the two above), not hardware events.
  bool exact() const { return count_tool() || compiler(); }
  const std::vector<CounterEvent>& events() const { return events_; }
  const std::vector<std::string>& events_refused() const { return refused_; }
  bool measures_flops() const;
  // Stops using counters (fork()ed child: PAPI's state is the parent's).
  void disable() { active_ = false; }

  // Per thread: creates and starts the thread's event set; false (and no counting on that
  // thread) when PAPI refuses.
  bool start_thread(int& event_set) const;
  // Reads the running counts of the calling thread's event set.
  bool read(int event_set, CounterValues& values) const;

 private:
  // PAPI's side (counters_papi.cpp, or counters_none.cpp without PAPI).
  std::string start_papi();
  bool start_thread_papi(int& event_set) const;
  bool read_papi(int event_set, CounterValues& values) const;

  enum class Source { none, papi, valgrind_tool, compiler };
  bool active_ = false;
  Source source_ = Source::none;
  bool sampled_cache_ = false;
  // The compiler source's events: the index of each in the plugin's counts (count_layout.h).
  std::vector<int> compiler_index_;
  std::vector<CounterEvent> events_;
  std::vector<std::string> refused_;
};

// FLOPs and memory instructions from counter deltas, following the events' kinds.
struct CountedWork {
  double flops = 0;
  double load_instructions = 0;
  double store_instructions = 0;
  double bytes_loaded = 0;
  double bytes_stored = 0;
  double instructions = 0;
  std::vector<std::pair<std::string, double>> by_event;  // the count tool's: name -> delta
};
CountedWork counted_work(const std::vector<CounterEvent>& events, const CounterValues& deltas);

}  // namespace larm::instrument
