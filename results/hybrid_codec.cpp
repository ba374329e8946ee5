// hybrid.json and hybrid.csv.
#include "results/hybrid_codec.h"

#include <fstream>
#include <sstream>

#include "results/atomic_file.h"
#include "results/csv_writer.h"
#include "results/input_file.h"
#include "results/json_output.h"
#include "results/json_schema.h"
#include "results/records.h"

namespace larm::hybrid {
namespace {

using nlohmann::json;

json per_transfer_json(const PerTransfer& values) {
  json out = json::object();
  for (Transfer t : kTransfers) out[name(t)] = values[t];
  return out;
}

PerTransfer per_transfer_from(const json& j) {
  PerTransfer values;
  for (Transfer t : kTransfers) values[t] = j.at(name(t)).get<double>();
  return values;
}

json point_json(const MeasuredPoint& p) {
  json out = {{"kernel", p.kernel},
              {"ratio_fast", p.ratio_fast},
              {"ratio_read", p.ratio_read},
              {"q", per_transfer_json(p.sample.bytes)},
              {"seconds", p.sample.seconds > 0 ? json(p.sample.seconds) : json(nullptr)},
              {"gbps", p.gbps},
              {"stats", p.stats.count ? results::stats_json(p.stats) : json(nullptr)},
              {"placed_fraction", p.placed_fraction},
              {"status", status_text(p.status, p.status_reason)}};
  out["ratio_fast_found"] =
      p.sample.total_bytes() > 0 ? json(p.sample.ratio_fast()) : json(nullptr);
  if (const auto& m = p.model) {
    const double measured = p.sample.gbps();
    out["model"] = {{"piece", name(m->piece)},
                    {"t_min_s", m->t_min_s},
                    {"t_max_s", m->t_max_s},
                    {"bound_max_gbps", m->bound_max_gbps},
                    {"bound_min_gbps", m->bound_min_gbps},
                    {"monolithic_gbps", m->monolithic_gbps},
                    {"piecewise_gbps", m->piecewise_gbps},
                    {"monolithic_residual", m->monolithic_gbps / measured - 1},
                    {"piecewise_residual", m->piecewise_gbps / measured - 1}};
  } else {
    out["model"] = nullptr;
  }
  return out;
}

MeasuredPoint point_from(const json& j) {
  MeasuredPoint p;
  p.kernel = j.at("kernel").get<std::string>();
  p.ratio_fast = j.at("ratio_fast").get<double>();
  p.ratio_read = j.at("ratio_read").get<double>();
  p.sample.bytes = per_transfer_from(j.at("q"));
  const json& seconds = j.at("seconds");
  p.sample.seconds = seconds.is_null() ? 0 : seconds.get<double>();
  p.gbps = j.at("gbps").get<std::vector<double>>();
  p.stats = results::summarize(p.gbps);
  p.placed_fraction = j.at("placed_fraction").get<double>();
  std::tie(p.status, p.status_reason) = parse_status_text(j.at("status").get<std::string>());
  if (const json& m = j.at("model"); !m.is_null()) {
    const auto piece = parse<Transfer>(m.at("piece").get<std::string>());
    if (!piece) throw std::runtime_error("bad piece " + m.at("piece").dump());
    p.model = PointModel{*piece,
                         m.at("t_min_s").get<double>(),
                         m.at("t_max_s").get<double>(),
                         m.at("bound_max_gbps").get<double>(),
                         m.at("bound_min_gbps").get<double>(),
                         m.at("monolithic_gbps").get<double>(),
                         m.at("piecewise_gbps").get<double>()};
  }
  return p;
}

json memory_json(const std::optional<MemoryChoice>& m) {
  if (!m) return nullptr;
  return {{"memory", std::to_string(m->os_index)}, {"kind", m->kind}, {"why", m->why}};
}

std::optional<MemoryChoice> memory_from(const json& j) {
  if (j.is_null()) return std::nullopt;
  return MemoryChoice{results::parse_index(j.at("memory").get<std::string>(), "memory"),
                      j.at("kind").get<std::string>(), j.at("why").get<std::string>()};
}

json fit_json(const Fit& fit) {
  json piecewise = json::object();
  json pieces = json::object();
  for (Transfer k : kTransfers) {
    json theta = json::object();
    for (Transfer j : kTransfers) {
      if (j != k) theta[name(j)] = fit.piecewise[static_cast<std::size_t>(k)][j];
    }
    piecewise[name(k)] = theta;
    pieces[name(k)] = fit.piece_samples[static_cast<std::size_t>(k)];
  }
  return {{"samples", fit.samples},
          {"method", "linear least squares on the relative time error"},
          {"bandwidths_gbps", per_transfer_json(fit.bandwidth_gbps)},
          {"monolithic",
           {{"theta", per_transfer_json(fit.monolithic)},
            {"mean_relative_error", fit.monolithic_error.mean},
            {"max_relative_error", fit.monolithic_error.max}}},
          {"piecewise",
           {{"theta", piecewise},
            {"piece_samples", pieces},
            {"mean_relative_error", fit.piecewise_error.mean},
            {"max_relative_error", fit.piecewise_error.max}}}};
}

Fit fit_from(const json& j) {
  Fit fit;
  fit.samples = j.at("samples").get<int>();
  fit.bandwidth_gbps = per_transfer_from(j.at("bandwidths_gbps"));
  const json& mono = j.at("monolithic");
  fit.monolithic = per_transfer_from(mono.at("theta"));
  fit.monolithic_error = {mono.at("mean_relative_error").get<double>(),
                          mono.at("max_relative_error").get<double>()};
  const json& piece = j.at("piecewise");
  for (Transfer k : kTransfers) {
    const auto kk = static_cast<std::size_t>(k);
    for (Transfer other : kTransfers) {
      fit.piecewise[kk][other] =
          other == k ? 0 : piece.at("theta").at(name(k)).at(name(other)).get<double>();
    }
    fit.piece_samples[kk] = piece.at("piece_samples").at(name(k)).get<int>();
  }
  fit.piecewise_error = {piece.at("mean_relative_error").get<double>(),
                         piece.at("max_relative_error").get<double>()};
  return fit;
}

std::string number_or_empty(std::optional<double> v) {
  return results::csv_number(v, 10);
}

}  // namespace

json to_json(const HybridResults& r) {
  json out = {{"schema_version", kHybridSchemaVersion},
              {"kind", "larm-hybrid"},
              {"provenance", results::to_json(r.provenance)},
              {"status", name(r.status)},
              {"reason", r.reason},
              {"complete", r.complete},
              {"incomplete_reason", r.incomplete_reason},
              {"domain", r.domain},
              {"fast", memory_json(r.fast)},
              {"slow", memory_json(r.slow)},
              {"isa", name_or_empty(r.isa)},
              {"threads", r.threads},
              {"bytes_per_thread", r.bytes_per_thread},
              {"warnings", r.warnings},
              {"samples_source", r.samples_source}};
  out["bandwidths_gbps"] =
      r.bandwidth_gbps.sum() > 0 ? per_transfer_json(r.bandwidth_gbps) : json(nullptr);
  out["sweep"] = json::array();
  for (const MeasuredPoint& p : r.sweep) out["sweep"].push_back(point_json(p));
  out["fit"] = r.fit ? fit_json(*r.fit) : json(nullptr);
  out["fit_error"] = r.fit_error;
  out["validation"] = json::array();
  for (const MeasuredPoint& p : r.validation) out["validation"].push_back(point_json(p));
  return out;
}

json fit_to_json(const Fit& fit) {
  return fit_json(fit);
}

HybridResults hybrid_from_json(const json& document) {
  if (results::text_member(document, "kind") != "larm-hybrid") {
    throw std::runtime_error("not a larm hybrid results file");
  }
  const std::string version = results::text_member(document, "schema_version");
  if (version.substr(0, version.find('.')) != "1") {
    throw std::runtime_error("hybrid schema version " + version + " is not readable (1.x is)");
  }
  results::check_against_schema(document, results::FileFormat::hybrid);
  try {
    HybridResults r;
    r.provenance = results::provenance_from_json(document.at("provenance"));
    const std::string status = document.at("status").get<std::string>();
    const auto known = parse<Status>(status);
    if (known != Status::ok && known != Status::not_applicable) {
      throw std::runtime_error("bad status '" + status + "' (ok, not_applicable)");
    }
    r.status = *known;
    r.reason = document.at("reason").get<std::string>();
    r.complete = document.at("complete").get<bool>();
    r.incomplete_reason = document.at("incomplete_reason").get<std::string>();
    r.domain = document.at("domain").get<int>();
    r.fast = memory_from(document.at("fast"));
    r.slow = memory_from(document.at("slow"));
    if (const std::string isa = document.at("isa").get<std::string>(); !isa.empty()) {
      r.isa = parse<Isa>(isa);
      if (!r.isa) throw std::runtime_error("bad isa '" + isa + "' (" + word_list<Isa>() + ")");
    }
    r.threads = document.at("threads").get<int>();
    r.bytes_per_thread = document.at("bytes_per_thread").get<std::uint64_t>();
    r.warnings = document.at("warnings").get<std::vector<std::string>>();
    r.samples_source = document.at("samples_source").get<std::string>();
    if (const json& b = document.at("bandwidths_gbps"); !b.is_null()) {
      r.bandwidth_gbps = per_transfer_from(b);
    }
    for (const json& p : document.at("sweep")) r.sweep.push_back(point_from(p));
    if (const json& f = document.at("fit"); !f.is_null()) r.fit = fit_from(f);
    r.fit_error = document.at("fit_error").get<std::string>();
    for (const json& p : document.at("validation")) r.validation.push_back(point_from(p));
    return r;
  } catch (const json::exception& e) {
    throw std::runtime_error(std::string("malformed hybrid results: ") + e.what());
  }
}

std::string hybrid_csv(const HybridResults& r) {
  std::ostringstream out;
  out.precision(10);
  out << "set,kernel,ratio_fast,ratio_read,ratio_fast_found,q_ll,q_lr,q_el,q_er,seconds,gbps,"
         "gbps_min,gbps_max,samples,placed_fraction,status,piece,t_min_s,t_max_s,bound_max_gbps,"
         "bound_min_gbps,monolithic_gbps,piecewise_gbps,monolithic_residual,piecewise_residual\n";
  const auto rows = [&](const char* set, const std::vector<MeasuredPoint>& points) {
    for (const MeasuredPoint& p : points) {
      const bool measured = p.stats.count > 0;
      out << set << ',' << p.kernel << ',' << p.ratio_fast << ',' << p.ratio_read << ','
          << number_or_empty(p.sample.total_bytes() > 0 ? std::optional(p.sample.ratio_fast())
                                                        : std::nullopt);
      for (Transfer t : kTransfers) out << ',' << p.sample.bytes[t];
      out << ',' << number_or_empty(measured ? std::optional(p.sample.seconds) : std::nullopt)
          << ',' << number_or_empty(measured ? std::optional(p.stats.median) : std::nullopt) << ','
          << number_or_empty(measured ? std::optional(p.stats.min) : std::nullopt) << ','
          << number_or_empty(measured ? std::optional(p.stats.max) : std::nullopt) << ','
          << p.stats.count << ',' << p.placed_fraction << ','
          << results::csv_field(status_text(p.status, p.status_reason));
      if (const auto& m = p.model) {
        const double gbps = p.sample.gbps();
        out << ',' << name(m->piece) << ',' << m->t_min_s << ',' << m->t_max_s << ','
            << m->bound_max_gbps << ',' << m->bound_min_gbps << ',' << m->monolithic_gbps << ','
            << m->piecewise_gbps << ',' << m->monolithic_gbps / gbps - 1 << ','
            << m->piecewise_gbps / gbps - 1;
      } else {
        out << ",,,,,,,,,";
      }
      out << '\n';
    }
  };
  rows("sweep", r.sweep);
  rows("validation", r.validation);
  return out.str();
}

void save_hybrid(const std::filesystem::path& dir, const HybridResults& results) {
  results::write_file_atomically(dir / kHybridCsvFile, hybrid_csv(results));
  results::write_json_output(dir / kHybridFile, to_json(results), results::FileFormat::hybrid, 2);
}

HybridResults load_hybrid(const std::filesystem::path& dir_or_file) {
  const std::filesystem::path file =
      std::filesystem::is_directory(dir_or_file) ? dir_or_file / kHybridFile : dir_or_file;
  const json document = results::read_json_file(file);
  try {
    return hybrid_from_json(document);
  } catch (const json::exception& e) {
    throw std::runtime_error(file.string() + ": " + e.what());
  } catch (const std::runtime_error& e) {
    throw std::runtime_error(file.string() + ": " + e.what());
  }
}

}  // namespace larm::hybrid
