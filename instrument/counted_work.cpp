// Converting counter deltas into FLOPs and memory instructions.
#include "instrument/counters.h"

namespace larm::instrument {

CountedWork counted_work(const std::vector<CounterEvent>& events, const CounterValues& deltas) {
  CountedWork work;
  for (std::size_t i = 0; i < events.size() && i < deltas.size(); ++i) {
    const auto count = static_cast<double>(deltas[i]);
    switch (events[i].kind) {
      case CounterEvent::Kind::flops:
        work.flops += count * events[i].flops_per_count;
        break;
      case CounterEvent::Kind::load_instructions:
        work.load_instructions += count;
        break;
      case CounterEvent::Kind::store_instructions:
        work.store_instructions += count;
        break;
    }
  }
  return work;
}

}  // namespace larm::instrument
