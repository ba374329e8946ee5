// Least-squares fits of the hybrid bandwidth model (thesis equations 4.2 to 4.5).
#include "roofline/hybrid_model.h"

#include <Eigen/Dense>

#include <algorithm>
#include <cmath>
#include <sstream>
#include <string>

namespace larm::hybrid {
namespace {

// A pivot below this (relative to the largest) means a θ the samples do not determine.
constexpr double kRankThreshold = 1e-9;

std::size_t index(Transfer t) {
  return static_cast<std::size_t>(t);
}

std::string number(double value) {
  std::ostringstream out;
  out << value;
  return out.str();
}

void check_sample(const Sample& s, std::size_t i) {
  const std::string where = "sample " + std::to_string(i + 1) + ": ";
  for (Transfer t : kTransfers) {
    if (!std::isfinite(s.bytes[t]) || s.bytes[t] < 0) {
      throw FitError(where + "q_" + name(t) + " is " + number(s.bytes[t]) +
                     "; bytes must be finite and non-negative");
    }
  }
  if (s.total_bytes() <= 0) throw FitError(where + "zero bytes moved");
  if (!std::isfinite(s.seconds) || s.seconds <= 0) {
    throw FitError(where + "time is " + number(s.seconds) + " s; it must be finite and positive");
  }
}

// Solves min |A θ - y| and returns θ, or nullopt with the rank when A does not determine θ.
std::optional<Eigen::VectorXd> least_squares(const Eigen::MatrixXd& a, const Eigen::VectorXd& y,
                                             long& rank) {
  Eigen::ColPivHouseholderQR<Eigen::MatrixXd> qr(a);
  qr.setThreshold(kRankThreshold);
  rank = qr.rank();
  if (rank < a.cols()) return std::nullopt;
  return Eigen::VectorXd(qr.solve(y));
}

ErrorSummary bandwidth_errors(const std::vector<Sample>& samples,
                              const std::vector<double>& model_seconds) {
  ErrorSummary e;
  for (std::size_t i = 0; i < samples.size(); ++i) {
    // (B_model - B) / B with B = bytes / t: the same bytes on both sides.
    const double error = std::abs(samples[i].seconds / model_seconds[i] - 1);
    e.mean += error;
    e.max = std::max(e.max, error);
  }
  if (!samples.empty()) e.mean /= static_cast<double>(samples.size());
  return e;
}

}  // namespace

Bounds bounds(const PerTransfer& bytes, const PerTransfer& bandwidth_gbps) {
  Bounds b;
  for (Transfer t : kTransfers) {
    b.seconds[t] = bytes[t] > 0 ? bytes[t] / (bandwidth_gbps[t] * 1e9) : 0;
    b.t_max += b.seconds[t];
    b.t_min = std::max(b.t_min, b.seconds[t]);
  }
  // The dominant transfer is the model's own maximum, the first of equal times: a sample's piece
  // follows the times as computed, as whoever generated or measured them computes them, not a
  // rounding of them (a tolerance moved the samples near a tie to the other piece and pulled
  // that piece's θ: 0.617 fitted 0.44 on synthetic samples).
  for (Transfer t : kTransfers) {
    if (b.seconds[t] == b.t_min) {
      b.dominant = t;
      break;
    }
  }
  return b;
}

double monolithic_seconds(const Bounds& bounds, const PerTransfer& theta) {
  double t = bounds.t_min;
  for (Transfer j : kTransfers) t += theta[j] * bounds.seconds[j];
  return t;
}

double piecewise_seconds(const Bounds& bounds, const std::array<PerTransfer, 4>& theta) {
  const Transfer k = bounds.dominant;
  double t = bounds.seconds[k];
  for (Transfer j : kTransfers) {
    if (j != k) t += theta[index(k)][j] * bounds.seconds[j];
  }
  return t;
}

Fit fit(const std::vector<Sample>& samples, const PerTransfer& bandwidth_gbps) {
  if (samples.empty()) throw FitError("no samples to fit");
  for (std::size_t i = 0; i < samples.size(); ++i) check_sample(samples[i], i);
  for (Transfer t : kTransfers) {
    const bool used = std::any_of(samples.begin(), samples.end(),
                                  [t](const Sample& s) { return s.bytes[t] > 0; });
    if (used && !(std::isfinite(bandwidth_gbps[t]) && bandwidth_gbps[t] > 0)) {
      throw FitError(std::string("bandwidth b_") + name(t) + " (" + description(t) + ") is " +
                     number(bandwidth_gbps[t]) + " GB/s; it must be finite and positive");
    }
  }
  const auto uses = [&](Transfer a, Transfer b) {
    return std::any_of(samples.begin(), samples.end(),
                       [&](const Sample& s) { return s.bytes[a] + s.bytes[b] > 0; });
  };
  if (!uses(Transfer::lr, Transfer::er)) {
    throw FitError(
        "every sample uses the slow memory only (q_lr = q_er = 0): the hybrid model "
        "needs samples that spread their bytes over both memories");
  }
  if (!uses(Transfer::ll, Transfer::el)) {
    throw FitError(
        "every sample uses the fast memory only (q_ll = q_el = 0): the hybrid model "
        "needs samples that spread their bytes over both memories");
  }

  Fit result;
  result.bandwidth_gbps = bandwidth_gbps;
  result.samples = static_cast<int>(samples.size());
  std::vector<Bounds> bound(samples.size());
  for (std::size_t i = 0; i < samples.size(); ++i) {
    bound[i] = bounds(samples[i].bytes, bandwidth_gbps);
  }

  // The pieces first: samples that all fall in one are the commonest mistake (one corner of the
  // ratio_fast × ratio_read square only), and the monolithic fit would fail less clearly.
  std::array<std::vector<std::size_t>, 4> pieces;
  for (std::size_t i = 0; i < samples.size(); ++i) pieces[index(bound[i].dominant)].push_back(i);
  for (Transfer k : kTransfers) {
    if (pieces[index(k)].size() == samples.size()) {
      throw FitError("all " + std::to_string(samples.size()) + " samples are in piece " + name(k) +
                     " (" + description(k) +
                     " dominate): the piecewise model needs samples where each of the four "
                     "transfers dominates; vary ratio_fast and ratio_read over [0, 1]");
    }
  }

  // Monolithic (4.4): t - t_min = Σ θ_j t_j, every equation divided by t.
  {
    const auto n = static_cast<Eigen::Index>(samples.size());
    Eigen::MatrixXd a(n, 4);
    Eigen::VectorXd y(n);
    for (Eigen::Index i = 0; i < n; ++i) {
      const auto u = static_cast<std::size_t>(i);
      const double t = samples[u].seconds;
      for (Transfer j : kTransfers)
        a(i, static_cast<Eigen::Index>(index(j))) = bound[u].seconds[j] / t;
      y(i) = (t - bound[u].t_min) / t;
    }
    long rank = 0;
    const auto theta = least_squares(a, y, rank);
    if (!theta) {
      throw FitError("the " + std::to_string(samples.size()) + " samples determine only " +
                     std::to_string(rank) +
                     " of the monolithic model's 4 θ: each transfer must vary across samples");
    }
    for (Transfer j : kTransfers)
      result.monolithic[j] = (*theta)(static_cast<Eigen::Index>(index(j)));
  }

  // Piecewise (4.5): in piece k, t - t_k = Σ_{j≠k} θ_k^j t_j.
  for (Transfer k : kTransfers) {
    const auto& members = pieces[index(k)];
    result.piece_samples[index(k)] = static_cast<int>(members.size());
    Eigen::MatrixXd a(static_cast<Eigen::Index>(members.size()), 3);
    Eigen::VectorXd y(static_cast<Eigen::Index>(members.size()));
    for (std::size_t r = 0; r < members.size(); ++r) {
      const std::size_t i = members[r];
      const double t = samples[i].seconds;
      Eigen::Index c = 0;
      for (Transfer j : kTransfers) {
        if (j != k) a(static_cast<Eigen::Index>(r), c++) = bound[i].seconds[j] / t;
      }
      y(static_cast<Eigen::Index>(r)) = (t - bound[i].seconds[k]) / t;
    }
    long rank = 0;
    const auto theta = members.empty() ? std::nullopt : least_squares(a, y, rank);
    if (!theta) {
      throw FitError(std::string("piece ") + name(k) + " (" + description(k) + " dominate) has " +
                     std::to_string(members.size()) + " sample(s) that determine " +
                     std::to_string(rank) +
                     " of its 3 θ: it needs samples where that transfer dominates while the "
                     "three others vary");
    }
    Eigen::Index c = 0;
    for (Transfer j : kTransfers) {
      result.piecewise[index(k)][j] = j == k ? 0 : (*theta)(c++);
    }
  }

  std::vector<double> mono(samples.size()), piece(samples.size());
  for (std::size_t i = 0; i < samples.size(); ++i) {
    mono[i] = monolithic_seconds(bound[i], result.monolithic);
    piece[i] = piecewise_seconds(bound[i], result.piecewise);
  }
  result.monolithic_error = bandwidth_errors(samples, mono);
  result.piecewise_error = bandwidth_errors(samples, piece);
  return result;
}

PerTransfer corner_bandwidths(const std::vector<Sample>& samples) {
  PerTransfer result;
  for (Transfer t : kTransfers) {
    std::vector<double> gbps;
    for (const Sample& s : samples) {
      if (s.seconds > 0 && s.bytes[t] > 0 && s.bytes[t] == s.total_bytes()) {
        gbps.push_back(s.gbps());
      }
    }
    if (gbps.empty()) {
      throw FitError(std::string("no sample moves only ") + description(t) + " (ratio_fast " +
                     (t == Transfer::lr || t == Transfer::er ? "1" : "0") + ", ratio_read " +
                     (t == Transfer::ll || t == Transfer::lr ? "1" : "0") + ") to give b_" +
                     name(t) + "; measure it or give the four bandwidths");
    }
    std::sort(gbps.begin(), gbps.end());
    const std::size_t n = gbps.size();
    result[t] = n % 2 ? gbps[n / 2] : (gbps[n / 2 - 1] + gbps[n / 2]) / 2;
  }
  return result;
}

Prediction predict(const Fit& fit, const PerTransfer& bytes) {
  for (Transfer t : kTransfers) {
    if (!std::isfinite(bytes[t]) || bytes[t] < 0) {
      throw FitError(std::string("q_") + name(t) + " is " + number(bytes[t]) +
                     "; bytes must be finite and non-negative");
    }
  }
  if (bytes.sum() <= 0) throw FitError("zero bytes to predict");
  Prediction p;
  p.total_bytes = bytes.sum();
  p.bounds = bounds(bytes, fit.bandwidth_gbps);
  p.monolithic_seconds = monolithic_seconds(p.bounds, fit.monolithic);
  p.piecewise_seconds = piecewise_seconds(p.bounds, fit.piecewise);
  return p;
}

std::vector<Sample> usable_samples(const std::vector<MeasuredPoint>& points) {
  std::vector<Sample> samples;
  for (const MeasuredPoint& p : points) {
    if (p.usable()) samples.push_back(p.sample);
  }
  return samples;
}

namespace {

std::optional<PointModel> point_model(const Fit& fit, const MeasuredPoint& p) {
  if (!p.usable() || p.sample.total_bytes() <= 0 || p.sample.seconds <= 0) return std::nullopt;
  const Prediction m = predict(fit, p.sample.bytes);
  return PointModel{m.bounds.dominant,  m.bounds.t_min,      m.bounds.t_max,    m.bound_max_gbps(),
                    m.bound_min_gbps(), m.monolithic_gbps(), m.piecewise_gbps()};
}

}  // namespace

void fit_results(HybridResults& results, const std::optional<PerTransfer>& bandwidth_gbps) {
  results.fit.reset();
  results.fit_error.clear();
  const auto samples = usable_samples(results.sweep);
  try {
    results.bandwidth_gbps = bandwidth_gbps ? *bandwidth_gbps : corner_bandwidths(samples);
    results.fit = fit(samples, results.bandwidth_gbps);
  } catch (const FitError& e) {
    results.fit_error = e.what();
  }
  for (auto* points : {&results.sweep, &results.validation}) {
    for (MeasuredPoint& p : *points) {
      p.model = results.fit ? point_model(*results.fit, p) : std::nullopt;
    }
  }
}

std::optional<double> region_roof_gbps(const HybridResults& hybrid,
                                       const std::map<unsigned, double>& data_memories,
                                       std::optional<double> read_share, std::string& why_not) {
  if (!hybrid.fit) {
    why_not = "hybrid.json has no fit" + (hybrid.fit_error.empty() ? "" : ": " + hybrid.fit_error);
    return std::nullopt;
  }
  if (!hybrid.fast || !hybrid.slow) {
    why_not = "hybrid.json names no fast and slow memory";
    return std::nullopt;
  }
  if (data_memories.empty()) {
    why_not = "data not tagged (larm_region_data): its split over the memories is unknown";
    return std::nullopt;
  }
  const auto share_of = [&](unsigned memory) {
    const auto it = data_memories.find(memory);
    return it == data_memories.end() ? 0.0 : it->second;
  };
  const double fast = share_of(hybrid.fast->os_index), slow = share_of(hybrid.slow->os_index);
  if (fast + slow < 0.5) {
    why_not = "most of its pages are on neither memory of the hybrid fit";
    return std::nullopt;
  }
  const double read = read_share.value_or(1.0);
  const Prediction p = predict(*hybrid.fit, quantities(fast / (fast + slow), read, 1e9));
  if (!read_share) why_not = "read share unknown (larm_region_add_rw): taken as all reads";
  return p.piecewise_gbps();
}

}  // namespace larm::hybrid
