// Reading back gnuplot's SVG to check a figure.
#include "report/figure_check.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <map>
#include <optional>
#include <set>
#include <stdexcept>
#include <string_view>

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

// The value of attribute `name` in a tag's text (`name="v"`, `name='v'`, `name = 'v'`); none when
// absent.
std::optional<std::string> attribute(std::string_view tag, std::string_view name) {
  for (std::size_t at = tag.find(name); at != std::string_view::npos; at = tag.find(name, at + 1)) {
    if (at == 0 || !std::isspace(static_cast<unsigned char>(tag[at - 1]))) continue;
    std::size_t i = at + name.size();
    while (i < tag.size() && tag[i] == ' ') ++i;
    if (i >= tag.size() || tag[i] != '=') continue;
    ++i;
    while (i < tag.size() && tag[i] == ' ') ++i;
    if (i >= tag.size() || (tag[i] != '"' && tag[i] != '\'')) continue;
    const char quote = tag[i];
    const std::size_t end = tag.find(quote, i + 1);
    if (end == std::string_view::npos) return std::nullopt;
    return std::string(tag.substr(i + 1, end - i - 1));
  }
  return std::nullopt;
}

// The numbers of a text, in order ("translate(84.00,40.01) rotate(270)" -> 84, 40.01, 270).
std::vector<double> numbers(std::string_view text) {
  std::vector<double> out;
  std::size_t i = 0;
  while (i < text.size()) {
    const char c = text[i];
    const bool starts =
        std::isdigit(static_cast<unsigned char>(c)) ||
        ((c == '-' || c == '.') && i + 1 < text.size() &&
         (std::isdigit(static_cast<unsigned char>(text[i + 1])) || text[i + 1] == '.'));
    if (!starts) {
      ++i;
      continue;
    }
    std::size_t j = i + 1;
    while (j < text.size() &&
           (std::isdigit(static_cast<unsigned char>(text[j])) || text[j] == '.' || text[j] == 'e' ||
            ((text[j] == '-' || text[j] == '+') && text[j - 1] == 'e'))) {
      ++j;
    }
    out.push_back(std::strtod(std::string(text.substr(i, j - i)).c_str(), nullptr));
    i = j;
  }
  return out;
}

// A path's polylines: gnuplot writes absolute M and L commands (and Z); a path with any other
// command is not read.
std::vector<std::vector<std::pair<double, double>>> polylines(std::string_view d) {
  std::vector<std::vector<std::pair<double, double>>> out;
  std::size_t i = 0;
  char command = 0;
  while (i < d.size()) {
    const char c = d[i];
    if (std::isalpha(static_cast<unsigned char>(c))) {
      command = c;
      if (c == 'Z' || c == 'z') {
        if (!out.empty() && !out.back().empty()) out.back().push_back(out.back().front());
      } else if (c != 'M' && c != 'L') {
        return {};
      }
      ++i;
      continue;
    }
    if (std::isspace(static_cast<unsigned char>(c)) || c == ',') {
      ++i;
      continue;
    }
    // A coordinate pair "x,y".
    std::size_t end = i;
    while (end < d.size() && !std::isalpha(static_cast<unsigned char>(d[end])) &&
           !std::isspace(static_cast<unsigned char>(d[end]))) {
      ++end;
    }
    const std::vector<double> xy = numbers(d.substr(i, end - i));
    if (xy.size() != 2) return {};
    if (command == 'M' || out.empty()) out.emplace_back();
    out.back().emplace_back(xy[0], xy[1]);
    if (command == 'M') command = 'L';  // later pairs of one M are line-tos
    i = end;
  }
  return out;
}

std::string strip_tags(std::string_view s) {
  std::string out;
  bool in_tag = false;
  for (char c : s) {
    if (c == '<') in_tag = true;
    if (!in_tag) out += c;
    if (c == '>') in_tag = false;
  }
  return out;
}

// A text's estimated box from its group's transform, font size and anchor.
SvgText text_box(std::string text, std::string_view group) {
  const std::vector<double> transform = numbers(attribute(group, "transform").value_or(""));
  const double x = transform.size() > 0 ? transform[0] : 0;
  const double y = transform.size() > 1 ? transform[1] : 0;
  const double angle = transform.size() > 2 ? transform[2] : 0;
  const std::vector<double> size = numbers(attribute(group, "font-size").value_or("12"));
  const double font = size.empty() ? 12 : size[0];
  const std::string where = attribute(group, "text-anchor").value_or("start");
  SvgText t;
  t.text = std::move(text);
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
  return t;
}

// Whether a word of the text reads as a number that is not one ("nan", "-inf", "Inf").
bool prints_not_a_number(const std::string& text) {
  std::size_t i = 0;
  while (i < text.size()) {
    if (!std::isalpha(static_cast<unsigned char>(text[i]))) {
      ++i;
      continue;
    }
    std::size_t j = i;
    while (j < text.size() && std::isalpha(static_cast<unsigned char>(text[j]))) ++j;
    const std::string word = text.substr(i, j - i);
    if (word == "nan" || word == "NaN" || word == "inf" || word == "Inf") return true;
    i = j;
  }
  return false;
}

// A box shrunk by a tenth of its size on each side (the estimates are generous).
struct Box {
  double left, top, right, bottom;
};
Box shrunk(const SvgText& t, double fraction) {
  const double dx = (t.right - t.left) * fraction, dy = (t.bottom - t.top) * fraction;
  return {t.left + dx, t.top + dy, t.right - dx, t.bottom - dy};
}

// Whether the segment a-b crosses the box (Liang-Barsky clipping).
bool crosses(std::pair<double, double> a, std::pair<double, double> b, const Box& box) {
  double t0 = 0, t1 = 1;
  const double dx = b.first - a.first, dy = b.second - a.second;
  const double p[] = {-dx, dx, -dy, dy};
  const double q[] = {a.first - box.left, box.right - a.first, a.second - box.top,
                      box.bottom - a.second};
  for (int k = 0; k < 4; ++k) {
    if (p[k] == 0) {
      if (q[k] < 0) return false;
      continue;
    }
    const double r = q[k] / p[k];
    if (p[k] < 0) {
      t0 = std::max(t0, r);
    } else {
      t1 = std::min(t1, r);
    }
    if (t0 > t1) return false;
  }
  return true;
}

bool inside(const std::vector<double>& frame, std::pair<double, double> p) {
  constexpr double kEdge = 0.5;
  return p.first >= frame[0] - kEdge && p.first <= frame[2] + kEdge &&
         p.second >= frame[1] - kEdge && p.second <= frame[3] + kEdge;
}

// An item's data polylines: the parts inside a frame (a key's sample line lies outside), every
// part when the figure has no frame.
std::vector<std::vector<std::pair<double, double>>> data_lines(const SvgItem& item,
                                                               const SvgFigure& f) {
  std::vector<std::vector<std::pair<double, double>>> out;
  for (const auto& line : item.polylines) {
    const bool drawn = f.frames.empty() || std::any_of(line.begin(), line.end(), [&](auto p) {
                         return std::any_of(f.frames.begin(), f.frames.end(),
                                            [&](const auto& frame) { return inside(frame, p); });
                       });
    if (drawn && line.size() >= 2) out.push_back(line);
  }
  return out;
}

// The y of a polyline at x, interpolated; none outside its x range or where x is not monotonic.
std::optional<double> y_at(const std::vector<std::pair<double, double>>& line, double x) {
  for (std::size_t i = 1; i < line.size(); ++i) {
    const auto [x0, y0] = line[i - 1];
    const auto [x1, y1] = line[i];
    if (x < std::min(x0, x1) || x > std::max(x0, x1)) continue;
    if (x1 == x0) return std::nullopt;  // a vertical step: no single y
    return y0 + (y1 - y0) * (x - x0) / (x1 - x0);
  }
  return std::nullopt;
}

// How far apart two plotted lines are at most over their common x range, in pixels; none when
// they share less than half of the shorter one's range.
std::optional<double> widest_gap(const std::vector<std::pair<double, double>>& a,
                                 const std::vector<std::pair<double, double>>& b) {
  const auto span = [](const auto& line) {
    const auto [lo, hi] = std::minmax_element(line.begin(), line.end(),
                                              [](auto p, auto q) { return p.first < q.first; });
    return std::pair{lo->first, hi->first};
  };
  const auto [alo, ahi] = span(a);
  const auto [blo, bhi] = span(b);
  const double lo = std::max(alo, blo), hi = std::min(ahi, bhi);
  if (!(hi - lo > 0.5 * std::min(ahi - alo, bhi - blo)) || hi - lo < 10) return std::nullopt;
  double widest = 0;
  int compared = 0;
  for (const auto& [x, y] : a) {
    if (x < lo || x > hi) continue;
    const auto other = y_at(b, x);
    if (!other) continue;
    widest = std::max(widest, std::abs(*other - y));
    ++compared;
  }
  if (compared < 3) return std::nullopt;
  return widest;
}

// Whether a polyline doubles back: x reverses its direction, or two vertical steps in a row go
// opposite ways (the rows of one x joined into a zig-zag).
bool doubles_back(const std::vector<std::pair<double, double>>& line) {
  constexpr double kStill = 0.5;  // pixels
  int x_direction = 0;
  double last_vertical = 0;
  for (std::size_t i = 1; i < line.size(); ++i) {
    const double dx = line[i].first - line[i - 1].first;
    const double dy = line[i].second - line[i - 1].second;
    if (std::abs(dx) > kStill) {
      const int direction = dx > 0 ? 1 : -1;
      if (x_direction != 0 && direction != x_direction) return true;
      x_direction = direction;
      last_vertical = 0;
    } else if (std::abs(dy) > kStill) {
      if (last_vertical * dy < 0) return true;
      last_vertical = dy;
    }
  }
  return false;
}

}  // namespace

SvgFigure read_svg(const std::string& svg) {
  SvgFigure f;
  const std::size_t svg_tag = svg.find("<svg");
  if (svg_tag == std::string::npos)
    throw std::runtime_error("not an SVG drawn by gnuplot (no <svg>)");
  const std::string_view open(svg.data() + svg_tag, svg.find('>', svg_tag) - svg_tag);
  const auto width = numbers(attribute(open, "width").value_or(""));
  const auto height = numbers(attribute(open, "height").value_or(""));
  if (width.size() != 1 || height.size() != 1) {
    throw std::runtime_error("not an SVG drawn by gnuplot (no width and height)");
  }
  f.width = width[0];
  f.height = height[0];
  int depth = 0;
  int item_depth = -1;  // the depth of the plot item's group being read, -1 outside one
  std::string group;    // the last group opened: a text's transform, font and anchor
  std::size_t at = svg_tag;
  while ((at = svg.find('<', at)) != std::string::npos) {
    const std::size_t close = svg.find('>', at);
    if (close == std::string::npos) break;
    const std::string_view tag(svg.data() + at, close - at + 1);
    const auto is = [&](std::string_view name) {
      return tag.substr(0, name.size()) == name &&
             (tag.size() == name.size() ||
              std::isspace(static_cast<unsigned char>(tag[name.size()])) ||
              tag[name.size()] == '>' || tag[name.size()] == '/');
    };
    std::size_t next = close + 1;
    if (is("<g")) {
      ++depth;
      group = std::string(tag);
      if (attribute(tag, "id").value_or("").rfind("gnuplot_plot_", 0) == 0) {
        item_depth = depth;
        f.items.emplace_back();
        const std::size_t title = svg.find("<title>", close);
        const std::size_t title_end = svg.find("</title>", close);
        const std::size_t next_tag = svg.find('<', close);
        if (title != std::string::npos && title == next_tag && title_end != std::string::npos) {
          f.items.back().title = unescape(svg.substr(title + 7, title_end - title - 7));
          next = title_end + 8;
        }
      }
    } else if (is("</g")) {
      if (depth == item_depth) item_depth = -1;
      --depth;
    } else if (is("<text")) {
      const std::size_t end = svg.find("</text>", close);
      if (end == std::string::npos) throw std::runtime_error("an SVG text without its end");
      SvgText t = text_box(
          unescape(strip_tags(std::string_view(svg).substr(close + 1, end - close - 1))), group);
      t.item = item_depth >= 0 ? static_cast<int>(f.items.size()) - 1 : -1;
      f.texts.push_back(std::move(t));
      next = end + 7;
    } else if (is("<path") && !attribute(tag, "id") &&
               attribute(tag, "class").value_or("") != "gridline") {
      auto lines = polylines(attribute(tag, "d").value_or(""));
      const bool closed = tag.find(" Z") != std::string_view::npos && lines.size() == 1 &&
                          lines[0].size() >= 5 && lines[0].size() <= 6;
      if (item_depth >= 0) {
        SvgItem& item = f.items.back();
        if (item.line_colour.empty()) {
          item.line_colour = attribute(tag, "stroke").value_or("");
          item.line_dash = attribute(tag, "stroke-dasharray").value_or("");
        }
        for (auto& line : lines) item.polylines.push_back(std::move(line));
      } else if (closed) {
        double l = 1e300, t = 1e300, r = -1e300, b = -1e300;
        for (const auto& [x, y] : lines[0]) {
          l = std::min(l, x), r = std::max(r, x), t = std::min(t, y), b = std::max(b, y);
        }
        if (r - l > 20 && b - t > 20) f.frames.push_back({l, t, r, b});
      }
    } else if (is("<use") && !attribute(tag, "id") && item_depth >= 0) {
      const std::vector<double> where = numbers(attribute(tag, "transform").value_or(""));
      SvgItem& item = f.items.back();
      if (item.point_colour.empty()) {
        item.point_colour = attribute(tag, "color").value_or("");
        item.point_symbol = attribute(tag, "xlink:href").value_or("");
      }
      if (where.size() >= 2) item.points.emplace_back(where[0], where[1]);
      // translate(x,y) scale(s): gnuplot's symbols span -1 to 1, 2 s pixels across.
      const double across = where.size() >= 3 ? 2 * where[2] : 2;
      if (across > 0 && (item.smallest_marker == 0 || across < item.smallest_marker)) {
        item.smallest_marker = across;
      }
    }
    at = next;
  }
  return f;
}

std::vector<std::string> check_figure(const Figure& figure, const std::string& svg) {
  std::vector<std::string> problems;
  SvgFigure drawn;
  try {
    drawn = read_svg(svg);
  } catch (const std::runtime_error& e) {
    return {e.what()};
  }
  const std::vector<SvgText>& texts = drawn.texts;
  const double width = drawn.width, height = drawn.height;
  constexpr double kSlack = 1.0;  // pixels
  for (const SvgText& t : texts) {
    if (t.left < -kSlack || t.right > width + kSlack || t.top < -kSlack ||
        t.bottom > height + kSlack) {
      char where[160];
      std::snprintf(where, sizeof where,
                    " (x %.0f to %.0f, y %.0f to %.0f on a %.0f × %.0f canvas)", t.left, t.right,
                    t.top, t.bottom, width, height);
      problems.push_back("text outside the canvas: \"" + t.text + "\"" + where);
    }
    if (prints_not_a_number(t.text)) {
      problems.push_back("not a number printed: \"" + t.text + "\"");
    }
  }
  // Two texts over each other (a panel's title on the row above's axis label): their estimated
  // boxes, shrunk by a tenth on each side, must not intersect.
  for (std::size_t i = 0; i < texts.size(); ++i) {
    if (texts[i].text.empty()) continue;
    const Box a = shrunk(texts[i], 0.1);
    for (std::size_t j = i + 1; j < texts.size(); ++j) {
      if (texts[j].text.empty()) continue;
      const Box b = shrunk(texts[j], 0.1);
      if (a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom) {
        problems.push_back("texts over each other: \"" + texts[i].text + "\" and \"" +
                           texts[j].text + "\"");
      }
    }
  }
  // A plotted line through a text: the text's box shrunk by a fifth on each side (a line that
  // grazes a generous estimate is not one that strikes the letters).
  std::vector<std::vector<std::vector<std::pair<double, double>>>> data(drawn.items.size());
  for (std::size_t k = 0; k < drawn.items.size(); ++k) data[k] = data_lines(drawn.items[k], drawn);
  for (const SvgText& t : texts) {
    if (t.text.find_first_not_of(' ') == std::string::npos) continue;
    const Box box = shrunk(t, 0.2);
    for (std::size_t k = 0; k < drawn.items.size(); ++k) {
      const bool crossed = std::any_of(data[k].begin(), data[k].end(), [&](const auto& line) {
        for (std::size_t i = 1; i < line.size(); ++i) {
          if (crosses(line[i - 1], line[i], box)) return true;
        }
        return false;
      });
      if (crossed) {
        problems.push_back("a line through a text: \"" + drawn.items[k].title + "\" crosses \"" +
                           t.text + "\"");
      }
    }
  }
  // Two lines on top of each other: nowhere in their common range farther apart than this.
  constexpr double kDistinctPixels = 2.0;
  for (std::size_t i = 0; i < drawn.items.size() && !figure.lines_may_coincide; ++i) {
    for (std::size_t j = i + 1; j < drawn.items.size(); ++j) {
      bool close = false;
      for (const auto& a : data[i]) {
        for (const auto& b : data[j]) {
          const auto gap = widest_gap(a, b);
          close = close || (gap && *gap < kDistinctPixels);
        }
      }
      if (close) {
        problems.push_back("lines on top of each other: \"" + drawn.items[i].title + "\" and \"" +
                           drawn.items[j].title + "\"");
      }
    }
  }
  for (std::size_t k = 0; k < drawn.items.size(); ++k) {
    if (std::any_of(data[k].begin(), data[k].end(), doubles_back)) {
      problems.push_back("a line that doubles back (not one line per series): \"" +
                         drawn.items[k].title + "\"");
    }
  }
  if (figure.distinct_colours) {
    for (const SvgItem& points : drawn.items) {
      if (points.points.empty() || points.point_colour.empty()) continue;
      for (std::size_t k = 0; k < drawn.items.size(); ++k) {
        if (!data[k].empty() && &drawn.items[k] != &points &&
            drawn.items[k].line_colour == points.point_colour) {
          problems.push_back("points in a line's colour: \"" + points.title + "\" and \"" +
                             drawn.items[k].title + "\"");
        }
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
  for (const SvgItem& item : drawn.items) {
    if (item.points.empty() || item.smallest_marker >= kMinMarkerPixels) continue;
    char size[64];
    std::snprintf(size, sizeof size, "%.1f", item.smallest_marker);
    problems.push_back("markers too small to see: \"" + item.title + "\" (" + size +
                       " px across, at least " +
                       std::to_string(static_cast<int>(kMinMarkerPixels)) + ")");
  }
  // Two key entries drawn alike: the style a reader tells them apart by.
  const auto level = [&](std::size_t k) {
    return !data[k].empty() && std::all_of(data[k].begin(), data[k].end(), [](const auto& line) {
      return std::all_of(line.begin(), line.end(),
                         [&](const auto& p) { return std::fabs(p.second - line[0].second) < 0.5; });
    });
  };
  // Within one panel, among the items drawn in it: panels of a multi-panel figure draw one roof
  // alike, and a shared key's entries (drawn nowhere) name what the panels draw.
  const auto panel_of = [&](std::size_t k) -> int {
    std::optional<std::pair<double, double>> at;
    if (!data[k].empty() && !data[k][0].empty()) at = data[k][0][0];
    for (const auto& p : drawn.items[k].points) {
      if (at) break;
      for (const auto& frame : drawn.frames) {
        if (inside(frame, p)) at = p;
      }
    }
    if (!at) return -1;
    for (std::size_t f = 0; f < drawn.frames.size(); ++f) {
      if (inside(drawn.frames[f], *at)) return static_cast<int>(f);
    }
    return drawn.frames.empty() ? 0 : -1;
  };
  std::map<std::string, std::string> styles;  // panel and style -> the first entry drawn so
  for (std::size_t k = 0; k < drawn.items.size(); ++k) {
    const SvgItem& item = drawn.items[k];
    const int panel = panel_of(k);
    if (item.title.empty() || item.title.rfind("gnuplot_plot_", 0) == 0 ||
        item.title.rfind("(same line)", 0) == 0 || level(k) || panel < 0 ||
        (item.line_colour.empty() && item.point_colour.empty())) {
      continue;
    }
    const std::string style = std::to_string(panel) + "|" + item.line_colour + "|" +
                              item.line_dash + "|" + item.point_colour + "|" + item.point_symbol;
    const auto [first, inserted] = styles.emplace(style, item.title);
    if (!inserted) {
      problems.push_back("two key entries drawn alike (colour, dash and marker): \"" +
                         first->second + "\" and \"" + item.title + "\"");
    }
  }
  // Every item with a title has its key entry: gnuplot drops one silently (a data block it cannot
  // find, a key with more rows than it was given).
  for (const SvgItem& item : drawn.items) {
    if (item.title.empty() || item.title.rfind("gnuplot_plot_", 0) == 0) continue;
    const bool keyed = std::any_of(texts.begin(), texts.end(), [&](const SvgText& t) {
      return !t.text.empty() && item.title.find(t.text) != std::string::npos;
    });
    if (!keyed) problems.push_back("a plot item without its key entry: \"" + item.title + "\"");
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
