// Martinasso's predictive model of communication times (seed 004 §5.4, fig. 5.4): a discrete-event
// simulation over a graph of transfers. Between two events (a transfer starts or ends) the graph
// is fixed, so each active transfer moves at its own rate (bandwidth alone ÷ its penalty); at each
// event the rates are recomputed from the new graph. The algorithm does not depend on the sharing
// model, so the rates come from a function: Martinasso's penalties for a network, or their reading
// for NUMA memory streams (contention_model.h).
#pragma once

#include <functional>
#include <vector>

namespace larm::roofline::contention {

struct EventTransfer {
  double amount = 0;  // bytes (or any unit the rates use)
  double start = 0;   // when it may begin moving, seconds
};

// rates(active) → the rate of each active transfer (same order), in amount per second; called
// once per interval between events. Returns each transfer's end time. Throws
// std::invalid_argument when an active transfer gets no positive rate.
using RateFunction = std::function<std::vector<double>(const std::vector<int>& active)>;
std::vector<double> simulate_events(const std::vector<EventTransfer>& transfers,
                                    const RateFunction& rates);

}  // namespace larm::roofline::contention
