// CSV exports of the result records.
#include "results/csv_writer.h"

#include <cstdio>
#include <sstream>

#include "results/printable_text.h"

namespace larm::results {
namespace {

// Shortest decimal form that reads back to the same double, so CSV and JSON agree.
std::string number(double value) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.17g", value);
  for (int precision = 6; precision < 17; ++precision) {
    char shorter[32];
    std::snprintf(shorter, sizeof shorter, "%.*g", precision, value);
    if (std::stod(shorter) == value) return shorter;
  }
  return buffer;
}

std::string optional(const std::optional<double>& value) {
  return value ? number(*value) : "";
}

std::string stats_or_empty(const SampleStats& s, double SampleStats::*field) {
  return s.count ? number(s.*field) : "";
}

}  // namespace

std::string csv_field(const std::string& text) {
  // Names come from programs and files: no control character or invalid UTF-8 reaches a CSV.
  const std::string value = printable(text);
  if (value.find_first_of(",\"\r\n") == std::string::npos) return value;
  std::string quoted = "\"";
  for (char c : value) {
    if (c == '"') quoted += '"';
    quoted += c;
  }
  return quoted + "\"";
}

std::string csv_number(const std::optional<double>& value, int significant_digits) {
  if (!value) return "";
  std::ostringstream out;
  out.precision(significant_digits);
  out << *value;
  return out.str();
}

std::string roofs_csv(const Results& results) {
  std::ostringstream out;
  out << "domain,memory,level,access,precision,isa,threads,unit,median,min,max,samples,status,"
         "placement,memory_kind,working_set_bytes,spread,placement_fraction,"
         "instructions_per_cycle,documented_ipc,roof\n";
  for (const Roof& r : results.roofs) {
    out << r.domain << ',' << memory_text(r.memory) << ',' << name(r.level) << ',' << r.operation()
        << ',' << name_or_empty(r.precision) << ',' << name(r.isa) << ',' << r.threads << ','
        << r.unit() << ',' << stats_or_empty(r.stats, &SampleStats::median) << ','
        << stats_or_empty(r.stats, &SampleStats::min) << ','
        << stats_or_empty(r.stats, &SampleStats::max) << ',' << r.stats.count << ','
        << csv_field(status_text(r.status, r.status_reason)) << ',' << name_or_empty(r.placement)
        << ',' << csv_field(r.memory_kind) << ',' << r.working_set_bytes << ','
        << stats_or_empty(r.stats, &SampleStats::spread) << ',' << optional(r.placement_fraction)
        << ',' << optional(r.instructions_per_cycle) << ',' << optional(r.documented_ipc) << ','
        << optional(r.present() ? std::optional(r.roof) : std::nullopt) << '\n';
  }
  return out.str();
}

std::string sweep_csv(const Results& results) {
  std::ostringstream out;
  out << "domain,access,isa,threads,working_set_bytes,unit,median,min,max,samples,status\n";
  for (const SweepPoint& p : results.sweep) {
    out << p.domain << ',' << name(p.access) << ',' << name(p.isa) << ',' << p.threads << ','
        << p.working_set_bytes << ",GB/s," << stats_or_empty(p.stats, &SampleStats::median) << ','
        << stats_or_empty(p.stats, &SampleStats::min) << ','
        << stats_or_empty(p.stats, &SampleStats::max) << ',' << p.stats.count << ','
        << csv_field(status_text(p.status, p.status_reason)) << '\n';
  }
  return out.str();
}

std::string latency_csv(const Results& results) {
  std::ostringstream out;
  // pages: "base" for a memory's chase on base pages, "" for the latency roofs' own.
  out << "domain,memory,level,working_set_bytes,median_ns,min_ns,max_ns,median_cycles,samples,"
         "status,pages\n";
  for (const LatencyPoint& p : results.latency) {
    out << p.domain << ',' << memory_text(p.memory) << ',' << name(p.level) << ','
        << p.working_set_bytes << ',' << stats_or_empty(p.stats, &SampleStats::median) << ','
        << stats_or_empty(p.stats, &SampleStats::min) << ','
        << stats_or_empty(p.stats, &SampleStats::max) << ','
        << (p.stats.count ? number(p.cycles) : "") << ',' << p.stats.count << ','
        << csv_field(status_text(p.status, p.status_reason)) << ',' << (p.base_pages ? "base" : "")
        << '\n';
  }
  return out.str();
}

std::string validation_csv(const Results& results) {
  std::ostringstream out;
  out << "domain,roof,ai,gflops,roof_gflops,relative_error,level,memory,placement,access,op,"
         "precision,isa,threads,working_set_bytes,roof_gbps,ceiling_gflops,samples,status,"
         "estimator\n";
  for (const ValidationPoint& p : results.validation) {
    out << p.domain << ',' << csv_field(p.roof) << ',' << number(p.ai) << ','
        << (p.stats.count ? number(p.gflops) : "") << ',' << number(p.predicted_gflops) << ','
        << (p.stats.count ? number(p.relative_error) : "") << ',' << name(p.level) << ','
        << memory_text(p.memory) << ',' << name_or_empty(p.placement) << ',' << name(p.access)
        << ',' << name(p.op) << ',' << name(p.precision) << ',' << name(p.isa) << ',' << p.threads
        << ',' << p.working_set_bytes << ',' << number(p.roof_gbps) << ','
        << number(p.ceiling_gflops) << ',' << p.stats.count << ','
        << csv_field(status_text(p.status, p.status_reason)) << ',' << name(p.estimator) << '\n';
  }
  return out.str();
}

std::vector<std::string> split_csv_line(const std::string& line) {
  std::vector<std::string> fields(1);
  bool quoted = false;
  for (std::size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (quoted) {
      if (c == '"' && i + 1 < line.size() && line[i + 1] == '"') {
        fields.back() += '"';
        ++i;
      } else if (c == '"') {
        quoted = false;
      } else {
        fields.back() += c;
      }
    } else if (c == '"') {
      quoted = true;
    } else if (c == ',') {
      fields.emplace_back();
    } else {
      fields.back() += c;
    }
  }
  for (std::string& f : fields) {
    const auto begin = f.find_first_not_of(" \t\r");
    f = begin == std::string::npos ? "" : f.substr(begin, f.find_last_not_of(" \t\r") - begin + 1);
  }
  return fields;
}

}  // namespace larm::results
