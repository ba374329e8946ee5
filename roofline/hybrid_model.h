// The hybrid bandwidth model of a fast and a slow memory (METHOD §8, thesis §4.3): the time of
// the four transfers, its bounds, and the monolithic (4 θ) and piecewise (12 θ) models fitted by
// linear least squares on measured samples.
#pragma once

#include <array>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace larm::roofline::hybrid {

// The four transfers, in the thesis' notation: first letter l = lecture (read), e = écriture
// (write); second letter l = lente (slow), r = rapide (fast).
enum class Transfer { ll, lr, el, er };
inline constexpr std::array<Transfer, 4> kTransfers = {Transfer::ll, Transfer::lr, Transfer::el,
                                                       Transfer::er};
const char* name(Transfer transfer);         // "ll"...
const char* description(Transfer transfer);  // "read from the slow memory"...
std::optional<Transfer> parse_transfer(std::string_view text);

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
  double ratio_fast() const;
  double ratio_read() const;
};

// Times of the transfers at the memories' own bandwidths, and the bounds they give.
struct Bounds {
  PerTransfer seconds;               // t_xy = q_xy / b_xy
  double t_min = 0;                  // perfect overlap: max t_xy (4.2)
  double t_max = 0;                  // no overlap: Σ t_xy (4.3)
  Transfer dominant = Transfer::ll;  // the transfer of t_min: it chooses the piece (4.5)
};
// bandwidth_gbps: b_ll, b_lr, b_el, b_er in GB/s; a transfer of zero bytes takes no time.
Bounds bounds(const PerTransfer& bytes, const PerTransfer& bandwidth_gbps);

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

// Inputs a fit cannot use: what is wrong, in one line.
class FitError : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

// Fits both models on the samples by linear least squares on the relative time error (each
// equation divided by the measured time, so every sample weighs the same whatever its size).
// Throws FitError for samples that cannot determine the models: a non-finite, negative or zero
// value, one memory only, a piece with too few samples or samples that do not determine its θ.
Fit fit(const std::vector<Sample>& samples, const PerTransfer& bandwidth_gbps);

// b_xy from the samples that move a single transfer (the sweep's corners: ratio_fast 0 or 1 ×
// ratio_read 0 or 1), the median when there are several. Throws FitError naming a missing one.
PerTransfer corner_bandwidths(const std::vector<Sample>& samples);

struct Prediction {
  Bounds bounds;
  double monolithic_seconds = 0;
  double piecewise_seconds = 0;
  double total_bytes = 0;
  double gbps(double seconds) const { return total_bytes / seconds / 1e9; }
  double piecewise_gbps() const { return gbps(piecewise_seconds); }
  double monolithic_gbps() const { return gbps(monolithic_seconds); }
  double bound_max_gbps() const { return gbps(bounds.t_min); }  // perfect overlap
  double bound_min_gbps() const { return gbps(bounds.t_max); }  // no overlap
};

// Throws FitError for bytes that are negative, not finite, or all zero.
Prediction predict(const Fit& fit, const PerTransfer& bytes);

// Times the models give with given parameters (also used to make synthetic samples in tests).
double monolithic_seconds(const Bounds& bounds, const PerTransfer& theta);
double piecewise_seconds(const Bounds& bounds, const std::array<PerTransfer, 4>& theta);

}  // namespace larm::roofline::hybrid
