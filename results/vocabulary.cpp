// Status texts of the result files.
#include "results/vocabulary.h"

#include <algorithm>
#include <cctype>

namespace larm {
namespace {
constexpr std::string_view kMisplacedPrefix = "misplaced: ";
constexpr std::string_view kIndistinctPrefix = "indistinct: ";
}  // namespace

bool is_high_bandwidth_kind(const std::string& kind) {
  std::string upper = kind;
  std::transform(upper.begin(), upper.end(), upper.begin(),
                 [](unsigned char c) { return static_cast<char>(std::toupper(c)); });
  return upper.find("HBM") != std::string::npos || upper.find("MCDRAM") != std::string::npos;
}

std::string status_text(Status status, const std::string& reason) {
  switch (status) {
    case Status::absent:
      return reason;
    case Status::misplaced:
      return reason.empty() ? name(status) : std::string(kMisplacedPrefix) + reason;
    case Status::indistinct:
      return reason.empty() ? name(status) : std::string(kIndistinctPrefix) + reason;
    case Status::ok:
    case Status::unstable:
    case Status::not_applicable:
      break;
  }
  return name(status);
}

std::pair<Status, std::string> parse_status_text(const std::string& text) {
  if (text.starts_with(kMisplacedPrefix)) {
    return {Status::misplaced, text.substr(kMisplacedPrefix.size())};
  }
  if (text.starts_with(kIndistinctPrefix)) {
    return {Status::indistinct, text.substr(kIndistinctPrefix.size())};
  }
  const std::optional<Status> status = parse<Status>(text);
  if (status && *status != Status::absent) return {*status, ""};
  return {Status::absent, text};
}

}  // namespace larm
