// Hardware counters for regions through PAPI, when larm is built with it and the machine has
// counters. Events are chosen per vendor and family with fallbacks (README of instrument/).
#pragma once

#include <array>
#include <string>
#include <vector>

namespace larm::instrument {

inline constexpr int kMaxCounterEvents = 10;
using CounterValues = std::array<long long, kMaxCounterEvents>;

struct CounterEvent {
  enum class Kind { flops, load_instructions, store_instructions };
  std::string name;  // PAPI event name
  Kind kind = Kind::flops;
  double flops_per_count = 0;  // FLOPs each count stands for (flops events)
};

// The events of the process, chosen once; each thread owns its own PAPI event set.
class Counters {
 public:
  static const bool kSupported;  // built with PAPI

  // Initializes PAPI and picks the events the machine accepts. Returns the reason counters
  // cannot be used ("PAPI sees 0 hardware counters..."), or an empty string.
  std::string start();
  bool active() const { return active_; }
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
  bool active_ = false;
  std::vector<CounterEvent> events_;
  std::vector<std::string> refused_;
};

// FLOPs and memory instructions from counter deltas, following the events' kinds.
struct CountedWork {
  double flops = 0;
  double load_instructions = 0;
  double store_instructions = 0;
};
CountedWork counted_work(const std::vector<CounterEvent>& events, const CounterValues& deltas);

}  // namespace larm::instrument
