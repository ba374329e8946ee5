// Reading back gnuplot's SVG to check a figure.
#include "report/figure_check.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <regex>
#include <set>
#include <stdexcept>

namespace larm::report {
namespace {

// The advance of a character in DejaVu Sans (the "Sans" gnuplot's terminals find on Debian), in
// ems, rounded up: narrow punctuation and i, l, wide m, w, M, W, %, capitals and digits, the rest.
double char_width(unsigned char c) {
  if (c >= 0x80) return 0.35;  // a byte of a UTF-8 sequence: two or three make one glyph
  switch (c) {
    case ' ':
    case '.':
    case ',':
    case ':':
    case ';':
    case '\'':
    case '|':
    case 'i':
    case 'l':
    case 'j':
    case '!':
      return 0.34;
    case 'f':
    case 't':
    case 'r':
    case '(':
    case ')':
    case '[':
    case ']':
    case '{':
    case '}':
    case '-':
    case '/':
    case '\\':
      return 0.42;
    case 'm':
    case 'w':
    case 'M':
    case 'W':
    case '%':
    case '@':
      return 1.0;
    default:
      break;
  }
  if (std::isupper(c)) return 0.78;
  if (std::isdigit(c)) return 0.64;
  return 0.62;
}

std::string unescape(std::string s) {
  const std::pair<const char*, const char*> entities[] = {{"&lt;", "<"},    {"&gt;", ">"},
                                                          {"&quot;", "\""}, {"&apos;", "'"},
                                                          {"&#39;", "'"},   {"&amp;", "&"}};
  for (const auto& [from, to] : entities) {
    for (std::size_t at = s.find(from); at != std::string::npos; at = s.find(from, at + 1)) {
      s.replace(at, std::string_view(from).size(), to);
    }
  }
  return s;
}

}  // namespace

std::vector<SvgText> svg_texts(const std::string& svg, double& width, double& height) {
  std::smatch size;
  if (!std::regex_search(svg, size,
                         std::regex(R"re(<svg[^>]*width="([0-9.]+)"[^>]*height="([0-9.]+)")re"))) {
    throw std::runtime_error("not an SVG drawn by gnuplot (no width and height)");
  }
  width = std::stod(size[1]);
  height = std::stod(size[2]);
  // gnuplot writes each text as <g transform="translate(X,Y)[ rotate(A)]" ... font-size="S"
  // [text-anchor="A"]> then <text>…</text>.
  static const std::regex group(
      R"re(<g transform="translate\(([-0-9.]+),([-0-9.]+)\)(?: rotate\(([-0-9.]+)\))?"([^>]*)>\s*<text>([\s\S]*?)</text>)re");
  static const std::regex font_size(R"re(font-size="([0-9.]+)")re");
  static const std::regex anchor(R"re(text-anchor="([a-z]+)")re");
  static const std::regex tag("<[^>]*>");
  std::vector<SvgText> out;
  for (auto it = std::sregex_iterator(svg.begin(), svg.end(), group); it != std::sregex_iterator();
       ++it) {
    const std::smatch& m = *it;
    const double x = std::stod(m[1]), y = std::stod(m[2]);
    const double angle = m[3].matched ? std::stod(m[3]) : 0;
    const std::string attributes = m[4];
    std::smatch a;
    const double font = std::regex_search(attributes, a, font_size) ? std::stod(a[1]) : 12;
    const std::string where =
        std::regex_search(attributes, a, anchor) ? std::string(a[1]) : "start";
    SvgText t;
    t.text = unescape(std::regex_replace(std::string(m[5]), tag, ""));
    double w = 0;
    for (unsigned char c : t.text) w += char_width(c) * font;
    const double before = where == "end" ? w : where == "middle" ? w / 2 : 0;
    // Along the text's direction: [−before, w − before]; across it: [−0.8, +0.25] × font.
    const double along_low = -before, along_high = w - before;
    const double across_low = -0.8 * font, across_high = 0.25 * font;
    const double radians = angle * M_PI / 180;
    const double c = std::cos(radians), s = std::sin(radians);
    double xs[4], ys[4];
    int k = 0;
    for (double u : {along_low, along_high}) {
      for (double v : {across_low, across_high}) {
        xs[k] = x + u * c - v * s;
        ys[k] = y + u * s + v * c;
        ++k;
      }
    }
    t.left = *std::min_element(xs, xs + 4);
    t.right = *std::max_element(xs, xs + 4);
    t.top = *std::min_element(ys, ys + 4);
    t.bottom = *std::max_element(ys, ys + 4);
    out.push_back(std::move(t));
  }
  return out;
}

std::vector<std::string> check_figure(const Figure& figure, const std::string& svg) {
  std::vector<std::string> problems;
  double width = 0, height = 0;
  std::vector<SvgText> texts;
  try {
    texts = svg_texts(svg, width, height);
  } catch (const std::runtime_error& e) {
    return {e.what()};
  }
  constexpr double kSlack = 1.0;  // pixels
  static const std::regex not_a_number(R"re((^|[^A-Za-z])(nan|NaN|-?inf|Inf)([^A-Za-z]|$))re");
  for (const SvgText& t : texts) {
    if (t.left < -kSlack || t.right > width + kSlack || t.top < -kSlack ||
        t.bottom > height + kSlack) {
      char where[160];
      std::snprintf(where, sizeof where,
                    " (x %.0f to %.0f, y %.0f to %.0f on a %.0f × %.0f canvas)", t.left, t.right,
                    t.top, t.bottom, width, height);
      problems.push_back("text outside the canvas: \"" + t.text + "\"" + where);
    }
    if (std::regex_search(t.text, not_a_number)) {
      problems.push_back("not a number printed: \"" + t.text + "\"");
    }
  }
  // Two texts over each other (a panel's title on the row above's axis label): their estimated
  // boxes, shrunk by a fifth (the estimates are generous), must not intersect.
  for (std::size_t i = 0; i < texts.size(); ++i) {
    for (std::size_t j = i + 1; j < texts.size(); ++j) {
      const SvgText& a = texts[i];
      const SvgText& b = texts[j];
      const auto shrink = [](double low, double high) {
        const double margin = (high - low) * 0.1;
        return std::pair{low + margin, high - margin};
      };
      const auto [al, ar] = shrink(a.left, a.right);
      const auto [bl, br] = shrink(b.left, b.right);
      const auto [at, ab] = shrink(a.top, a.bottom);
      const auto [bt, bb] = shrink(b.top, b.bottom);
      if (al < br && bl < ar && at < bb && bt < ab && !a.text.empty() && !b.text.empty()) {
        problems.push_back("texts over each other: \"" + a.text + "\" and \"" + b.text + "\"");
      }
    }
  }
  for (const auto& item : figure.must_show) {
    const std::string& name = item.first;    // the roof's own name
    const std::string& entry = item.second;  // or the merged entry standing for it
    const bool shown = std::any_of(texts.begin(), texts.end(), [&](const SvgText& t) {
      return t.text.find(name) != std::string::npos ||
             (!entry.empty() && t.text.find(entry) != std::string::npos);
    });
    if (!shown) problems.push_back("\"" + name + "\" is in the results but not in the figure");
  }
  for (std::size_t panel = 0; panel < figure.key_values.size(); ++panel) {
    std::set<std::string> seen;
    for (const std::string& value : figure.key_values[panel]) {
      if (!seen.insert(value).second) {
        problems.push_back("panel " + std::to_string(panel + 1) + " has two key entries \"" +
                           value + "\"");
      }
    }
  }
  return problems;
}

}  // namespace larm::report
