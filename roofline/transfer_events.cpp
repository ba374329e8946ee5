// The discrete-event loop of seed 004 fig. 5.4.
#include "roofline/transfer_events.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace larm::roofline::contention {

std::vector<double> simulate_events(const std::vector<EventTransfer>& transfers,
                                    const RateFunction& rates) {
  const std::size_t n = transfers.size();
  std::vector<double> left(n), end(n, 0);
  std::vector<bool> done(n, false);
  double total = 0;
  for (std::size_t i = 0; i < n; ++i) {
    left[i] = transfers[i].amount;
    total += std::max(0.0, left[i]);
    if (!(left[i] > 0)) {  // nothing to move: ends when it starts
      done[i] = true;
      end[i] = transfers[i].start;
    }
  }
  const double finished = 1e-12 * std::max(total, 1e-300);
  double now = 0;
  for (std::size_t remaining =
           static_cast<std::size_t>(std::count(done.begin(), done.end(), false));
       remaining > 0;) {
    std::vector<int> active;
    double next_start = INFINITY;
    for (std::size_t i = 0; i < n; ++i) {
      if (done[i]) continue;
      if (transfers[i].start <= now) {
        active.push_back(static_cast<int>(i));
      } else {
        next_start = std::min(next_start, transfers[i].start);
      }
    }
    if (active.empty()) {  // idle until the next transfer starts
      now = next_start;
      continue;
    }
    const std::vector<double> rate = rates(active);
    if (rate.size() != active.size()) throw std::invalid_argument("one rate per active transfer");
    // The first event: a transfer ends (left / rate) or a new one starts.
    double step = next_start - now;
    for (std::size_t k = 0; k < active.size(); ++k) {
      if (!(rate[k] > 0) || !std::isfinite(rate[k])) {
        throw std::invalid_argument("a transfer in progress moves nothing");
      }
      step = std::min(step, left[static_cast<std::size_t>(active[k])] / rate[k]);
    }
    now += step;
    for (std::size_t k = 0; k < active.size(); ++k) {
      const auto i = static_cast<std::size_t>(active[k]);
      left[i] -= step * rate[k];
      if (left[i] <= finished) {
        done[i] = true;
        end[i] = now;
        --remaining;
      }
    }
  }
  return end;
}

}  // namespace larm::roofline::contention
