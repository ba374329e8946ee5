#include "instrument/monitor/trace.h"

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <stdexcept>
#include <system_error>

#include <nlohmann/json.hpp>

#include "results/atomic_file.h"
#include "results/csv_writer.h"
#include "results/number_text.h"

namespace larm::monitor {
namespace {

std::string number(double value) {
  return results::format_number("%.15g", value);  // integer counts exact below 1e15
}

}  // namespace

TraceWriter::TraceWriter(const std::filesystem::path& file, std::uint64_t max_json_bytes)
    : file_(file), max_json_bytes_(max_json_bytes) {
  std::error_code ignored;
  std::filesystem::remove(file, ignored);  // a link planted there: the link, not its target
  fd_ = results::create_new_file(file);
  const std::string header = "time_s,monitor,level,object,value_name,value\n";
  if (::write(fd_, header.data(), header.size()) != static_cast<ssize_t>(header.size())) {
    const int error = errno;
    ::close(fd_);
    throw std::system_error(error, std::generic_category(), "writing " + file.string());
  }
}

TraceWriter::~TraceWriter() {
  if (fd_ >= 0) ::close(fd_);
}

void TraceWriter::write(double seconds, const MonitorSet& monitors) {
  if (full_) {
    ++samples_left_out_;
    return;
  }
  std::string rows;
  std::uint64_t json_bytes = 0, added = 0;
  const std::string time = number(seconds);
  for (const MonitorInstance& m : monitors.monitors()) {
    if (!m.spec.output) continue;
    for (std::size_t o = 0; o < m.objects.size(); ++o) {
      const std::string object = object_name(m.objects[o]);
      for (std::size_t v = 0; v < m.value_names.size(); ++v) {
        const double value = m.values[o][v];
        rows += time + "," + results::csv_field(m.spec.name) + "," +
                results::csv_field(m.spec.object) + "," + results::csv_field(object) + "," +
                results::csv_field(m.value_names[v]) + "," + number(value) + "\n";
        // The row as trace.json holds it (",\n  " and the array), names escaped as JSON's.
        json_bytes += 4 + nlohmann::json::array({seconds, m.spec.name, m.spec.object, object,
                                                 m.value_names[v], value})
                              .dump()
                              .size();
        ++added;
      }
    }
  }
  if (json_bytes_ + json_bytes + std::min(kTraceDescriptionReserveBytes, max_json_bytes_ / 2) >
      max_json_bytes_) {
    full_ = true;
    ++samples_left_out_;
    return;
  }
  json_bytes_ += json_bytes;
  rows_ += added;
  for (const MonitorInstance& m : monitors.monitors()) {
    if (!m.spec.output) continue;
    for (std::size_t o = 0; o < m.objects.size(); ++o) {
      const std::string object = object_name(m.objects[o]);
      for (std::size_t v = 0; v < m.value_names.size(); ++v) {
        peaks_.add(m.spec.name, m.spec.object, m.value_names[v], object, o, m.objects.size(),
                   m.values[o][v], seconds);
      }
    }
  }
  std::size_t written = 0;
  while (written < rows.size()) {
    const ssize_t n = ::write(fd_, rows.data() + written, rows.size() - written);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) throw std::runtime_error("writing " + file_.string() + ": " + std::strerror(errno));
    written += static_cast<std::size_t>(n);
  }
}

void PeakTracker::add(const std::string& monitor, const std::string& level,
                      const std::string& value_name, const std::string& object_name,
                      std::size_t object, std::size_t objects, double value, double seconds) {
  const std::string key = monitor + "\n" + value_name;
  std::vector<double>& per_object = object_peaks_[key];
  if (per_object.empty()) per_object.assign(objects, value);
  per_object[object] = std::max(per_object[object], value);
  auto found = peak_index_.find(key);
  if (found == peak_index_.end()) {
    found = peak_index_.emplace(key, peaks_.size()).first;
    peaks_.push_back({monitor, level, value_name, object_name, value, seconds});
  }
  Peak& peak = peaks_[found->second];
  if (value > peak.value) {
    peak.value = value;
    peak.object = object_name;
    peak.seconds = seconds;
  }
}

std::vector<double> PeakTracker::object_peaks(const std::string& monitor,
                                              const std::string& value_name) const {
  const auto found = object_peaks_.find(monitor + "\n" + value_name);
  return found == object_peaks_.end() ? std::vector<double>() : found->second;
}

}  // namespace larm::monitor
