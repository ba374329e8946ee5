// How larm's --help reads.
#include "tools/help_formatter.h"

#include <algorithm>
#include <cstdlib>
#include <sstream>

namespace larm::cli {
namespace {
constexpr std::size_t kNameColumn = 30;

std::size_t terminal_width() {
  if (const char* columns = std::getenv("COLUMNS"); columns != nullptr) {
    char* end = nullptr;
    const long value = std::strtol(columns, &end, 10);
    if (end != columns && *end == '\0')
      return static_cast<std::size_t>(std::clamp(value, 60L, 200L));
  }
  return 80;
}
}  // namespace

std::string clean_type_name(const std::string& type_name) {
  const std::size_t colon = type_name.find(':');
  if (colon == std::string::npos) return type_name;
  const std::string rest = type_name.substr(colon + 1);
  if (rest.starts_with("{")) {
    const std::size_t close = rest.find('}');
    if (close != std::string::npos) return rest.substr(0, close + 1);
  }
  return type_name.substr(0, colon);
}

std::string wrapped(const std::string& text, std::size_t width, std::size_t indent) {
  std::istringstream words(text);
  std::string out, line, word;
  const std::size_t room = width > indent + 20 ? width - indent : 20;
  while (words >> word) {
    if (!line.empty() && line.size() + 1 + word.size() > room) {
      out += line + "\n" + std::string(indent, ' ');
      line.clear();
    }
    line += (line.empty() ? "" : " ") + word;
  }
  return out + line;
}

namespace {
// Columns on the screen: UTF-8 continuation bytes take none ("±" is two bytes, one column).
std::size_t columns(const std::string& text) {
  return static_cast<std::size_t>(std::count_if(text.begin(), text.end(), [](char c) {
    return (static_cast<unsigned char>(c) & 0xC0) != 0x80;
  }));
}
}  // namespace

std::string wrap_long_lines(const std::string& text) {
  const std::size_t width = terminal_width();
  std::istringstream lines(text);
  std::string out, line;
  while (std::getline(lines, line)) {
    const std::size_t indent = line.find_first_not_of(' ');
    const std::size_t lead = indent == std::string::npos ? 0 : indent;
    // A table's row (columns aligned by runs of spaces, two where its cells are full) is left
    // whole.
    if (columns(line) <= width || line.find("  ", lead) != std::string::npos) {
      out += line + "\n";
      continue;
    }
    out += std::string(lead, ' ') + wrapped(line.substr(lead), width - lead, lead + 2) + "\n";
  }
  if (!text.empty() && text.back() != '\n' && !out.empty()) out.pop_back();
  return out;
}

HelpFormatter::HelpFormatter() : width_(terminal_width()) {
  column_width(kNameColumn);
}

std::string HelpFormatter::make_option_opts(const CLI::Option* opt) const {
  std::string out;
  if (!opt->get_option_text().empty()) return " " + opt->get_option_text();
  if (opt->get_type_size() == 0) return out;
  if (!opt->get_type_name().empty()) out += " " + clean_type_name(opt->get_type_name());
  if (!opt->get_default_str().empty()) out += "=" + opt->get_default_str();
  if (opt->get_expected_max() == CLI::detail::expected_max_vector_size) out += " ...";
  if (opt->get_required()) out += " " + get_label("REQUIRED");
  return out;
}

std::string HelpFormatter::make_option(const CLI::Option* opt, bool is_positional) const {
  const std::string name = "  " + make_option_name(opt, is_positional) + make_option_opts(opt);
  const std::string description = make_option_desc(opt);
  std::string out = name;
  if (!description.empty()) {
    if (name.size() >= kNameColumn) {
      out += "\n" + std::string(kNameColumn, ' ');
    } else {
      out += std::string(kNameColumn - name.size(), ' ');
    }
    out += wrapped(description, width_, kNameColumn);
  }
  return out + "\n";
}

std::string HelpFormatter::make_subcommand(const CLI::App* sub) const {
  const std::string name = "  " + sub->get_display_name(true);
  std::string out = name;
  if (name.size() >= kNameColumn) {
    out += "\n" + std::string(kNameColumn, ' ');
  } else {
    out += std::string(kNameColumn - name.size(), ' ');
  }
  return out + wrapped(sub->get_description(), width_, kNameColumn) + "\n";
}

std::string HelpFormatter::make_description(const CLI::App* app) const {
  const std::string description = app->get_description();
  if (description.empty()) return "";
  return wrapped(description, width_, 0) + "\n";
}

std::string HelpFormatter::make_footer(const CLI::App* app) const {
  const std::string footer = app->get_footer();
  if (footer.empty()) return "";
  return "\n" + wrapped(footer, width_, 0) + "\n";
}

}  // namespace larm::cli
