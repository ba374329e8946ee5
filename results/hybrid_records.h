// The records of the hybrid bandwidth model of a fast and a slow memory (METHOD §8, thesis
// §4.3): the four transfers, the samples, a fit's parameters, and what `larm hybrid` measures.
// Data only: the equations and the fit are the model's (roofline/hybrid_model.h), the files'
// form is results/hybrid_codec.h.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "results/provenance_record.h"
#include "results/statistics.h"
#include "results/vocabulary.h"

namespace larm::hybrid {

// The four transfers, in the thesis' notation: first letter l = lecture (read), e = écriture
// (write); second letter l = lente (slow), r = rapide (fast).
enum class Transfer { ll, lr, el, er };
inline constexpr std::array<Transfer, 4> kTransfers = {Transfer::ll, Transfer::lr, Transfer::el,
                                                       Transfer::er};
// "reads from the slow memory"..., for messages.
const char* description(Transfer transfer);

// Samples or parameters the model cannot use: what is wrong, in one line.
class FitError : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

// One value per transfer, indexed by Transfer.
struct PerTransfer {
  std::array<double, 4> values{};
  double& operator[](Transfer t) { return values[static_cast<std::size_t>(t)]; }
  double operator[](Transfer t) const { return values[static_cast<std::size_t>(t)]; }
  double sum() const { return values[0] + values[1] + values[2] + values[3]; }
};

// Bytes of each transfer when total_bytes are spread with ratio_fast = fast / (fast + slow) and
// ratio_read = read / (read + written).
PerTransfer quantities(double ratio_fast, double ratio_read, double total_bytes);

// One measurement: the bytes of each transfer and the time they took (all threads together).
struct Sample {
  PerTransfer bytes;  // q_ll, q_lr, q_el, q_er
  double seconds = 0;
  double total_bytes() const { return bytes.sum(); }
  double gbps() const { return total_bytes() / seconds / 1e9; }
  // The inverse of quantities().
  double ratio_fast() const;
  double ratio_read() const;
};

// Mean and largest absolute relative error of a model's bandwidth against the measured one.
struct ErrorSummary {
  double mean = 0;
  double max = 0;
};

struct Fit {
  PerTransfer bandwidth_gbps;  // b_xy the fit was made with
  PerTransfer monolithic;      // θ_xy of (4.4)
  // piecewise[k][j] = θ_k^j of (4.5): the share of transfer j serialized when k dominates;
  // piecewise[k][k] is 0 and unused.
  std::array<PerTransfer, 4> piecewise{};
  std::array<int, 4> piece_samples{};  // samples in each piece
  ErrorSummary monolithic_error;
  ErrorSummary piecewise_error;
  int samples = 0;
};

// What the fitted model says of a measured point, as hybrid.json keeps it.
struct PointModel {
  Transfer piece = Transfer::ll;  // the dominant transfer
  double t_min_s = 0;             // perfect overlap (4.2)
  double t_max_s = 0;             // no overlap (4.3)
  double bound_max_gbps = 0;
  double bound_min_gbps = 0;
  double monolithic_gbps = 0;
  double piecewise_gbps = 0;
};

// One measured point: a kernel on page-mixed data, all cores of the domain.
struct MeasuredPoint {
  std::string kernel;        // readwrite-... for the sweep; copy, scale, add, triad, ddot
  double ratio_fast = 0;     // as asked
  double ratio_read = 0;     // as asked (sweep) or the benchmark's own
  Sample sample;             // bytes of each transfer (pages as found) and the median time
  std::vector<double> gbps;  // every timed sample
  results::SampleStats stats;
  double placed_fraction = 0;  // pages where the layout wants them
  Status status = Status::ok;
  std::string status_reason;        // why it is absent or misplaced
  std::optional<PointModel> model;  // with a fit, for a usable point
  bool usable() const { return larm::usable(status); }
};

struct MemoryChoice {
  unsigned os_index = 0;
  std::string kind;
  std::string why;  // how it was chosen
};

struct HybridResults {
  results::Provenance provenance;
  Status status = Status::ok;  // ok, or not_applicable (with reason)
  std::string reason;
  int domain = 0;
  std::optional<MemoryChoice> fast, slow;
  std::optional<Isa> isa;  // of the kernels; none for samples given in a file
  int threads = 0;
  std::uint64_t bytes_per_thread = 0;
  std::vector<MeasuredPoint> sweep;
  PerTransfer bandwidth_gbps;  // b_xy, from the sweep's corners
  std::optional<Fit> fit;
  std::string fit_error;  // why there is no fit
  std::vector<MeasuredPoint> validation;
  std::string samples_source;  // fit only: the file the samples came from
  bool complete = false;
  std::string incomplete_reason;
  std::vector<std::string> warnings;
};

}  // namespace larm::hybrid

namespace larm {
template <>
struct Vocabulary<hybrid::Transfer> {
  static constexpr std::string_view what = "transfer";
  static constexpr std::array<VocabularyEntry<hybrid::Transfer>, 4> entries{
      {{hybrid::Transfer::ll, "ll"},
       {hybrid::Transfer::lr, "lr"},
       {hybrid::Transfer::el, "el"},
       {hybrid::Transfer::er, "er"}}};
};
}  // namespace larm
