// Predicting the memory bandwidth of any placement from the roofs a characterization
// measured: each domain's local and remote roofs, the contention roofs (every core on one memory)
// and the congestion roofs (every core on all memories interleaved).
//
// From M. Martinasso's thesis (seed 004):
//  - his generalised Gigabit Ethernet penalty model (§5.5.2.3, Definition 6, Table 5.3), his
//    simple baselines (§7.4.4) and his event-driven prediction of transfer times (§5.4, fig. 5.4),
//    on a graph of transfers: kept as he states them, and tested on his Tables 5.2 and 5.3;
//  - two predictors of memory bandwidth fitted on a node's roofs, selectable (Predictor):
//    * capacity: each memory serves at most its capacity C_m (its contention roofs); streams
//      sharing it are slowed alike until their demand fits (p_e = demand ÷ C_m), remote streams
//      likewise on the interconnect when the congestion roofs show one (K);
//    * martinasso: his penalties read for memory (§6.2.5: a memory plays a network node whose
//      reads are outgoing and writes incoming transfers, a domain the node at the other end),
//      β fitted on the node's contention and congestion roofs, times from his event loop.
//    `larm advise` fits both, checks each by leave-one-out on the roofs and uses the better one.
// Every formula is in contention_model.cpp next to its code.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "results/records.h"
#include "roofline/transfer_events.h"

namespace larm::roofline::contention {

// ---- Martinasso's model on a graph of transfers -------------------------------------------

struct Transfer {
  int source = 0;
  int destination = 0;
};

struct PenaltyParameters {
  double beta = 1;     // sharing of a network component (β: Rennes 0.71)
  double gamma_s = 0;  // redistribution among outgoing transfers (γ_s: 0.115)
  double gamma_e = 0;  // among incoming transfers (γ_e: 0.036)
};

struct TransferPenalty {
  int out_degree = 0;          // Δ_s: transfers leaving its source
  int in_degree = 0;           // Δ_e: transfers entering its destination
  int strong_out = 0;          // card(C_s^m) of its source
  int strong_in = 0;           // card(C_e^m) of its destination
  bool in_strong_out = false;  // member of C_s^m
  bool in_strong_in = false;   // member of C_e^m
  double p_s = 1;
  double p_e = 1;
  double p = 1;  // max(p_s, p_e)
};

// Penalty of every transfer (seed 004 §5.5.2.3): the time of a transfer is p × its time alone.
std::vector<TransferPenalty> penalties(const std::vector<Transfer>& graph,
                                       const PenaltyParameters& parameters);

// The simple baselines Martinasso compares with (§7.4.4): no sharing (p = 1), sharing with the
// transfers of the same source (p = Δ_s) or of the same destination (p = Δ_e).
enum class Baseline { none, source, destination };
std::vector<double> baseline_penalties(const std::vector<Transfer>& graph, Baseline baseline);

// His predictive model (§5.4, fig. 5.4): transfers of given sizes starting at given times; each
// moves at bandwidth ÷ its penalty in the graph of the transfers active at that moment, the graph
// changing at every start and end (Hockney: t = p m / b + l, the latency l before it moves).
struct TimedTransfer {
  int source = 0;
  int destination = 0;
  double bytes = 0;
  double start = 0;  // seconds
};
struct Link {
  double bandwidth = 1;  // bytes per second of a transfer alone
  double latency = 0;    // seconds
};
// Each transfer's end time, in seconds.
std::vector<double> transfer_times(const std::vector<TimedTransfer>& transfers,
                                   const PenaltyParameters& parameters, const Link& link);

// ---- The memory model fitted on roofs -------------------------------------------------------

// Which sharing rule predicts the bandwidth of a placement (see the top of this file).
enum class Predictor { capacity, martinasso };
const char* predictor_name(Predictor predictor);  // "capacity", "martinasso"

// What the model knows of one access type (load or store roofs), fitted on one results set.
struct MemoryModel {
  Access access = Access::load;
  std::vector<int> domains;              // domain indexes, in order
  std::vector<int> cores;                // cores of each domain (the roofs' thread counts)
  std::vector<unsigned> memories;        // memory OS indexes, in topology order
  std::vector<std::vector<bool>> local;  // [domain][memory]: memory local to the domain
  // path[d][m]: GB/s domain d's cores alone get from memory m (its local or remote roof), or
  // estimated from the contention or congestion roofs when that roof is missing.
  std::vector<std::vector<std::optional<double>>> path;
  // Where path[d][m] comes from: its own roof, or estimated from the contention or congestion
  // roofs; none: no path.
  enum class PathSource { none, roof, contention, congestion };
  std::vector<std::vector<PathSource>> path_source;
  // C_m: GB/s memory m serves to every core at once (its contention roofs); none: not measured.
  std::vector<std::optional<double>> memory_capacity;
  // K: GB/s of remote traffic the interconnect carries, when the congestion roofs show one below
  // what the memories alone allow; none: not binding or not measured.
  std::optional<double> interconnect_capacity;
  // Martinasso's parameters on this node: β fitted on the contention and congestion roofs (least
  // squares of log bandwidth); γ_s = γ_e = 0, which the roofs cannot determine (their graphs are
  // symmetric: every stream is in C_s^m and C_e^m). No value: no shared roof to fit it on.
  std::optional<PenaltyParameters> penalty;
  // Threads -> share of the full domain's bandwidth, per memory (its contention curve, local
  // domain first); empty: proportional to threads (said in notes).
  std::vector<std::vector<std::pair<int, double>>> scaling;
  std::vector<std::string> notes;  // what was estimated or assumed, one line each

  int domain_position(int domain) const;         // -1 when unknown
  int memory_position(unsigned os_index) const;  // -1 when unknown
};

// The roofs the fit leaves out (cross-validation): none by default.
struct HeldOut {
  int domain = -1;
  std::optional<unsigned> memory;  // none: the congestion roof
  Placement placement = Placement::local;
};

// Fits the model on the memory roofs of one access type. Throws std::runtime_error naming the
// problem when the results have no memory roof of that access.
MemoryModel fit_memory_model(const results::Results& results, Access access,
                             const std::optional<HeldOut>& held_out = std::nullopt);

// Where threads run and where each domain's bytes go.
struct StreamPlacement {
  std::vector<int> threads;                // per domain of the model, in its order
  std::vector<std::vector<double>> share;  // [domain][memory]: fraction of its bytes, Σ = 1
};

struct DomainBandwidth {
  double gbps = 0;      // what the domain's threads together get
  double penalty = 1;   // the largest p = max(p_s, p_e) of its streams
  std::string limiter;  // "memory 0", "interconnect", "" when nothing is shared beyond capacity
};

// Each domain's bandwidth under the placement (0 for a domain without threads). Throws
// std::invalid_argument when the placement needs a path the model does not have.
// Under Predictor::martinasso a domain's bandwidth is its bytes (the same per thread) over the
// time its last stream ends in the event loop, and its limiter the side (memory or domain) whose
// degree gives its largest penalty.
std::vector<DomainBandwidth> predict(const MemoryModel& model, const StreamPlacement& placement,
                                     Predictor predictor = Predictor::capacity);

// The threads of a region sharing its bytes evenly (a static schedule), each domain moving its
// threads' part: when a domain finishes, the others get what it used (seed 004 §5.4: the
// penalties are recomputed at each transfer's end). Returns the bytes of all threads over the
// time of the last one, in GB/s, and the limiter of the domain that finishes last.
struct RegionBandwidth {
  double gbps = 0;
  int last_domain = -1;  // position of the domain that finishes last
  std::string limiter;   // its limiter; empty when nothing it uses is shared beyond capacity
};
RegionBandwidth region_bandwidth(const MemoryModel& model, const StreamPlacement& placement,
                                 Predictor predictor = Predictor::capacity);

// The placement each kind of memory roof was measured with (all the domain's cores): domain d
// alone on memory m (local/remote), every domain on memory m (contention), every domain on all
// memories interleaved (congestion). Throws std::invalid_argument for a position the model does
// not have (-1 from domain_position or memory_position).
StreamPlacement roof_placement(const MemoryModel& model, int domain_position, Placement placement,
                               int memory_position);

// One held-out roof, predicted by the model fitted without it.
struct CrossValidation {
  int domain = 0;
  Placement placement = Placement::local;
  std::optional<unsigned> memory;
  double measured = 0;
  std::optional<double> predicted;  // none: the rest does not determine it (reason)
  std::string reason;
  double error() const { return predicted ? (*predicted - measured) / measured : 0; }
};

// Leave-one-out over every memory roof of the access in the model (thesis-style validation):
// each one held out, the model fitted on the others, its placement predicted.
std::vector<CrossValidation> leave_one_out(const results::Results& results, Access access,
                                           Predictor predictor = Predictor::capacity);

// A predictor's leave-one-out on the node's roofs: the median |error| over the roofs it predicted.
struct PredictorCheck {
  Predictor predictor = Predictor::capacity;
  std::vector<CrossValidation> rows;
  std::optional<double> median_abs_error;  // none: no roof predicted from the others
  int predicted = 0;
};
PredictorCheck check_predictor(const results::Results& results, Access access, Predictor predictor);

// Both predictors checked; `chosen` the one with the smaller median |error| (capacity when
// neither predicts any roof, or on a tie), `why` one line saying so.
struct PredictorChoice {
  std::vector<PredictorCheck> checks;
  Predictor chosen = Predictor::capacity;
  std::string summary;  // each predictor's error, one line
  std::string why;
};
PredictorChoice choose_predictor(const results::Results& results, Access access);

}  // namespace larm::roofline::contention
