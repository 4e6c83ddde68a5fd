// The SVG chart renderer (report/svg_chart.hpp): geometry first, then text. Every number is
// written with a fixed number of decimals so a chart is byte-identical on every run.

#include "benchhist/report/svg_chart.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

#include "benchhist/report/chart.hpp"
#include "benchhist/report/value_format.hpp"

namespace benchhist::report::svg {

// ---------------------------------------------------------------- small helpers

std::string escape(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&#39;"; break;
      default: out += c;
    }
  }
  return out;
}

std::string coord(double v) {
  if (!std::isfinite(v)) v = 0;
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.1f", v);
  std::string s = buf;
  if (s == "-0.0") s = "0.0";
  if (s.size() > 2 && s.compare(s.size() - 2, 2, ".0") == 0) s.erase(s.size() - 2);
  return s;
}

namespace {

std::string attr(std::string_view name, double v) { return " " + std::string(name) + "=\"" + coord(v) + "\""; }

}  // namespace

// ---------------------------------------------------------------- axis

YAxis nice_axis(double min, double max, int target_ticks) {
  YAxis a;
  if (!std::isfinite(min) || !std::isfinite(max)) return a;  // lo 0, hi 1
  if (max < min) std::swap(min, max);
  if (max == min) {
    // One repeated value: widen around it so it sits mid-plot.
    const double pad = min != 0 ? std::fabs(min) * 0.05 : 1.0;
    min -= pad;
    max += pad;
  }
  target_ticks = std::max(target_ticks, 1);
  const double raw = (max - min) / target_ticks;
  const double mag = std::pow(10.0, std::floor(std::log10(raw)));
  const double norm = raw / mag;
  const double nice = norm <= 1 ? 1 : norm <= 2 ? 2 : norm <= 2.5 ? 2.5 : norm <= 5 ? 5 : 10;
  a.step = nice * mag;
  const double first = std::floor(min / a.step);
  const double last = std::ceil(max / a.step);
  a.lo = first * a.step;
  a.hi = last * a.step;
  if (a.hi <= a.lo) a.hi = a.lo + a.step;
  for (double k = first; k <= last + 1e-9; k += 1) a.ticks.push_back(k * a.step);
  return a;
}

// ---------------------------------------------------------------- geometry

double Geometry::x_of(std::size_t index) const noexcept {
  const double l = plot_left(), r = plot_right();
  if (last <= first) return (l + r) / 2;
  const std::size_t i = std::clamp(index, first, last);
  return l + static_cast<double>(i - first) / static_cast<double>(last - first) * (r - l);
}

double Geometry::y_of(double value) const noexcept {
  const double t = plot_top(), b = plot_bottom();
  if (!(y.hi > y.lo)) return (t + b) / 2;
  return t + (y.hi - value) / (y.hi - y.lo) * (b - t);
}

Geometry layout(const ChartSpec& spec, const Frame& frame) {
  Geometry g;
  g.frame = frame;
  g.first = spec.first;
  g.last = std::max(spec.last, spec.first);
  double lo = std::numeric_limits<double>::infinity();
  double hi = -lo;
  auto take = [&](double v) {
    if (!std::isfinite(v)) return;
    lo = std::min(lo, v);
    hi = std::max(hi, v);
  };
  for (const auto& m : spec.marks) {
    take(m.value);
    g.first = std::min(g.first, m.index);
    g.last = std::max(g.last, m.index);
  }
  for (const auto& l : spec.levels) {
    take(l.from_value);
    take(l.to_value);
  }
  if (spec.band) {
    take(spec.band->low);
    take(spec.band->high);
  }
  if (spec.excess) {
    take(spec.excess->from_value);
    take(spec.excess->to_value);
  }
  g.y = std::isfinite(lo) ? nice_axis(lo, hi) : nice_axis(0, 1);

  for (const auto& m : spec.marks) g.marks.push_back({g.x_of(m.index), g.y_of(m.value)});

  // The line: the mean of each index's clean marks; consecutive indices join, a missing index is a
  // gap. The judged value and dirty snapshots stand apart as points: a mean of a commit's clean run
  // and an uncommitted experiment on top of it is a value nobody measured.
  std::vector<const Mark*> sorted;
  for (const auto& m : spec.marks)
    if (std::isfinite(m.value) && !m.emphasis && !m.dirty) sorted.push_back(&m);
  std::stable_sort(sorted.begin(), sorted.end(), [](const Mark* a, const Mark* b) { return a->index < b->index; });
  std::optional<std::size_t> prev;
  Pt prev_pt;
  for (std::size_t i = 0; i < sorted.size();) {
    const std::size_t index = sorted[i]->index;
    double sum = 0;
    std::size_t n = 0;
    for (; i < sorted.size() && sorted[i]->index == index; ++i) {
      sum += sorted[i]->value;
      ++n;
    }
    const Pt p{g.x_of(index), g.y_of(sum / static_cast<double>(n))};
    if (prev && index == *prev + 1) {
      g.line.back().push_back(p);
    } else {
      if (prev) g.gaps.push_back({prev_pt, p});
      g.line.push_back({p});
    }
    prev = index;
    prev_pt = p;
  }

  for (const auto& l : spec.levels)
    g.levels.push_back({{g.x_of(l.from), g.y_of(l.from_value)}, {g.x_of(l.to), g.y_of(l.to_value)}});
  if (spec.band)
    g.band = std::pair<Pt, Pt>{{g.x_of(spec.band->from), g.y_of(spec.band->high)},
                               {g.x_of(spec.band->to), g.y_of(spec.band->low)}};
  for (const auto& r : spec.rules) g.rules.push_back(g.x_of(r.index));
  if (spec.window) g.window = std::pair<double, double>{g.x_of(spec.window->from), g.x_of(spec.window->to)};
  if (spec.excess)
    g.excess = std::pair<Pt, Pt>{{g.x_of(spec.excess->index), g.y_of(spec.excess->from_value)},
                                 {g.x_of(spec.excess->index), g.y_of(spec.excess->to_value)}};
  return g;
}

// ---------------------------------------------------------------- text

namespace {

std::string_view level_class(LevelKind k) {
  switch (k) {
    case LevelKind::baseline: return "c-level c-baseline";
    case LevelKind::latest: return "c-level c-latest";
    case LevelKind::fit: return "c-level c-fit";
  }
  return "c-level";
}

std::string_view rule_class(RuleKind k) {
  switch (k) {
    case RuleKind::split: return "c-rule c-split";
    case RuleKind::blessing: return "c-rule c-blessing";
    case RuleKind::regime_start: return "c-rule c-regime";
  }
  return "c-rule";
}

// A label next to x: to the right of it in the left part of the plot, to the left otherwise.
std::string label_at(const Geometry& g, double x, double y, const std::string& text, std::string_view cls = "c-lbl") {
  const bool right_half = x > (g.plot_left() + g.plot_right()) / 2;
  return "<text class=\"" + std::string(cls) + "\"" + attr("x", right_half ? x - 4 : x + 4) + attr("y", y) +
         (right_half ? " text-anchor=\"end\"" : "") + ">" + escape(text) + "</text>";
}

std::string segment(std::string_view cls, const Pt& a, const Pt& b) {
  return "<line class=\"" + std::string(cls) + "\"" + attr("x1", a.x) + attr("y1", a.y) + attr("x2", b.x) +
         attr("y2", b.y) + "/>";
}

}  // namespace

std::string render(const ChartSpec& spec, const Geometry& g, Embedding embedding) {
  const Frame& f = g.frame;
  const bool standalone = embedding == Embedding::standalone;
  const double caption_height = spec.caption.empty() ? 0 : 8 + f.caption_line * static_cast<double>(spec.caption.size());
  const double height = f.height + caption_height;
  std::string out;
  out.reserve(4096 + spec.marks.size() * 96);
  out += "<svg";
  if (standalone) out += " xmlns=\"http://www.w3.org/2000/svg\"";
  out += " viewBox=\"0 0 " + coord(f.width) + " " + coord(height) + "\"";
  if (standalone) out += attr("width", f.width) + attr("height", height);
  out += std::string(spec.tone == Tone::improvement ? " class=\"chart good\""
                     : spec.tone == Tone::neutral   ? " class=\"chart neutral\""
                                                    : " class=\"chart\"") +
         " role=\"img\" aria-label=\"" + escape(spec.title) + "\">";
  if (standalone) {
    out += "<title>" + escape(spec.title) + "</title><style>";
    out += chart_palette_css("svg");
    out += chart_css();
    out += "</style>";
    out += "<rect class=\"c-bg\" x=\"0\" y=\"0\"" + attr("width", f.width) + attr("height", height) + " rx=\"6\"/>";
  }

  // Value grid and labels.
  std::string grid;
  for (double t : g.y.ticks) {
    const double y = g.y_of(t);
    grid += "M" + coord(f.left) + " " + coord(y) + "H" + coord(f.width - f.right);
  }
  out += "<path class=\"c-grid\" d=\"" + grid + "\"/>";
  for (double t : g.y.ticks)
    out += "<text class=\"c-tick\"" + attr("x", f.left - 6) + attr("y", g.y_of(t) + 4) + " text-anchor=\"end\">" +
           escape(format_value(t)) + "</text>";
  if (!spec.unit.empty())
    out += "<text class=\"c-tick\"" + attr("x", f.left - 6) + attr("y", 12) + " text-anchor=\"end\">" +
           escape(spec.unit) + "</text>";

  if (g.window && spec.window) {
    const double x0 = g.window->first, x1 = std::max(g.window->second, g.window->first + 1);
    out += "<rect class=\"c-win\"" + attr("x", x0) + attr("y", g.plot_top()) + attr("width", x1 - x0) +
           attr("height", g.plot_bottom() - g.plot_top()) + "/>";
    if (!spec.window->label.empty()) out += label_at(g, x0, g.plot_bottom() - 6, spec.window->label);
  }
  if (g.band && spec.band) {
    const auto& [a, b] = *g.band;
    const double x1 = std::max(b.x, a.x + 1);
    out += "<rect class=\"c-band\"" + attr("x", a.x) + attr("y", a.y) + attr("width", x1 - a.x) +
           attr("height", std::max(b.y - a.y, 1.0)) + "/>";
    if (!spec.band->label.empty()) out += label_at(g, a.x, b.y + 13, spec.band->label);
  }
  for (std::size_t i = 0; i < spec.rules.size() && i < g.rules.size(); ++i) {
    const double x = g.rules[i];
    out += segment(rule_class(spec.rules[i].kind), {x, g.plot_top()}, {x, g.plot_bottom()});
    if (spec.rules[i].label.empty()) continue;
    // Blessing labels sit at the bottom so they never collide with a split's label above.
    const double y = spec.rules[i].kind == RuleKind::blessing ? g.plot_bottom() - 6 : g.plot_top() - 7;
    out += label_at(g, x, y, spec.rules[i].label);
  }
  for (std::size_t i = 0; i < spec.levels.size() && i < g.levels.size(); ++i)
    out += segment(level_class(spec.levels[i].kind), g.levels[i].first, g.levels[i].second);

  if (!g.gaps.empty()) {
    std::string d;
    for (const auto& [a, b] : g.gaps) d += "M" + coord(a.x) + " " + coord(a.y) + "L" + coord(b.x) + " " + coord(b.y);
    out += "<path class=\"c-gap\" d=\"" + d + "\"/>";
  }
  {
    std::string d;
    for (const auto& piece : g.line) {
      if (piece.size() < 2) continue;  // a lone observation is its mark
      for (std::size_t i = 0; i < piece.size(); ++i)
        d += (i ? "L" : "M") + coord(piece[i].x) + " " + coord(piece[i].y);
    }
    if (!d.empty()) out += "<path class=\"c-line\" d=\"" + d + "\"/>";
  }
  if (g.excess) out += segment("c-excess", g.excess->first, g.excess->second);

  const double radius = spec.marks.size() > 150 ? 1.9 : 2.7;
  for (std::size_t i = 0; i < spec.marks.size(); ++i) {
    const auto& m = spec.marks[i];
    if (!std::isfinite(m.value)) continue;
    std::string cls = "c-pt";
    if (m.dirty) cls += " dirty";
    if (m.emphasis) cls += " tip";
    out += "<circle class=\"" + cls + "\"" + attr("cx", g.marks[i].x) + attr("cy", g.marks[i].y) +
           attr("r", m.emphasis ? 4.6 : radius);
    if (m.tooltip.empty())
      out += "/>";
    else
      out += "><title>" + escape(m.tooltip) + "</title></circle>";
  }

  // Level labels last, each lifted above every point under its span (a label across the data hid
  // the newest points, the ones that matter), clamped to the plot; the halo keeps it readable
  // where the clamp leaves it over the data.
  for (std::size_t i = 0; i < spec.levels.size() && i < g.levels.size(); ++i) {
    const auto& l = spec.levels[i];
    if (l.label.empty()) continue;
    const auto& [a, b] = g.levels[i];
    const bool at_end = l.kind != LevelKind::baseline;
    const Pt p = at_end ? b : a;
    const double x = at_end ? p.x - 2 : p.x + 2;
    const double width = 6.2 * static_cast<double>(l.label.size());  // 11px text, generous
    const double from = at_end ? x - width : x, to = at_end ? x : x + width;
    double y = p.y - 6;
    for (std::size_t m = 0; m < g.marks.size() && m < spec.marks.size(); ++m)
      if (std::isfinite(spec.marks[m].value) && g.marks[m].x >= from - radius && g.marks[m].x <= to + radius)
        y = std::min(y, g.marks[m].y - radius - 4);
    y = std::max(y, g.plot_top() + 11);
    out += "<text class=\"c-lbl\"" + attr("x", x) + attr("y", y) + (at_end ? " text-anchor=\"end\"" : "") + ">" +
           escape(l.label) + "</text>";
  }

  const double xl = f.height - 6;
  if (!spec.first_label.empty())
    out += "<text class=\"c-tick\"" + attr("x", g.plot_left()) + attr("y", xl) + ">" + escape(spec.first_label) +
           "</text>";
  if (!spec.last_label.empty())
    out += "<text class=\"c-tick\"" + attr("x", g.plot_right()) + attr("y", xl) + " text-anchor=\"end\">" +
           escape(spec.last_label) + "</text>";
  for (std::size_t i = 0; i < spec.caption.size(); ++i)
    out += "<text class=\"" + std::string(i == 0 ? "c-cap c-cap1" : "c-cap") + "\"" + attr("x", f.left) +
           attr("y", f.height + 4 + f.caption_line * static_cast<double>(i + 1) - 4) + ">" + escape(spec.caption[i]) +
           "</text>";
  out += "</svg>";
  return out;
}

// ---------------------------------------------------------------- sparklines

std::vector<std::vector<Pt>> sparkline(const std::vector<ChartPoint>& points, std::size_t target,
                                       const SparkFrame& frame) {
  std::vector<std::vector<Pt>> pieces;
  if (points.empty()) return pieces;
  std::vector<ChartPoint> sorted = points;
  std::stable_sort(sorted.begin(), sorted.end(),
                   [](const ChartPoint& a, const ChartPoint& b) { return a.index < b.index; });
  // The text chart's column rule (floor binning, mean per column, gaps kept).
  const ChartColumns cols = history_columns(sorted, target, std::max<std::size_t>(frame.max_columns, 1));
  double lo = std::numeric_limits<double>::infinity(), hi = -lo;
  for (const auto& c : cols)
    if (c && std::isfinite(*c)) {
      lo = std::min(lo, *c);
      hi = std::max(hi, *c);
    }
  if (!std::isfinite(lo)) return pieces;
  const double x0 = frame.pad, x1 = frame.width - frame.pad;
  const double y0 = frame.pad, y1 = frame.height - frame.pad;
  const std::size_t n = cols.size();
  bool open = false;
  for (std::size_t i = 0; i < n; ++i) {
    if (!cols[i] || !std::isfinite(*cols[i])) {
      open = false;
      continue;
    }
    const double x = n > 1 ? x0 + static_cast<double>(i) / static_cast<double>(n - 1) * (x1 - x0) : (x0 + x1) / 2;
    const double y = hi > lo ? y0 + (hi - *cols[i]) / (hi - lo) * (y1 - y0) : (y0 + y1) / 2;
    if (!open) pieces.emplace_back();
    pieces.back().push_back({x, y});
    open = true;
  }
  return pieces;
}

std::string path_data(const std::vector<std::vector<Pt>>& pieces) {
  // Whole pixels and relative steps: a small chart needs no finer resolution, and the report's
  // size is dominated by these strings on large stores. Positions are rounded before the steps
  // are taken, so rounding never accumulates.
  std::string d;
  auto whole = [](double v) { return static_cast<long>(std::lround(std::isfinite(v) ? v : 0.0)); };
  auto step = [&d](long dx, long dy) {
    const std::string x = std::to_string(dx), y = std::to_string(dy);
    d += x;
    if (dy >= 0) d += ' ';
    d += y;  // a negative value's '-' separates it from the previous number
  };
  for (const auto& piece : pieces) {
    if (piece.empty()) continue;
    long px = whole(piece[0].x), py = whole(piece[0].y);
    d += "M" + std::to_string(px) + " " + std::to_string(py);
    if (piece.size() == 1) {
      d += "h0";
      continue;
    }
    d += "l";
    for (std::size_t i = 1; i < piece.size(); ++i) {
      const long x = whole(piece[i].x), y = whole(piece[i].y);
      if (i > 1 && x - px >= 0) d += ' ';
      step(x - px, y - py);
      px = x;
      py = y;
    }
  }
  return d;
}

// ---------------------------------------------------------------- styles

std::string_view chart_css() {
  return ".chart{display:block;width:100%;height:auto;font-family:system-ui,-apple-system,\"Segoe UI\",Roboto,"
         "sans-serif;font-size:12px}"
         ".chart text{fill:var(--c-text)}"
         ".chart .c-tick{fill:var(--c-muted);font-size:11px}"
         ".c-bg{fill:var(--c-bg)}"
         ".c-grid{stroke:var(--c-grid);stroke-width:1;fill:none}"
         ".c-line{stroke:var(--c-series);stroke-width:1.6;fill:none;stroke-linejoin:round;stroke-linecap:round}"
         ".c-gap{stroke:var(--c-series);stroke-width:1;stroke-dasharray:2 3;opacity:.5;fill:none}"
         ".c-pt{fill:var(--c-series);stroke:var(--c-bg);stroke-width:.8}"
         ".c-pt.dirty{fill:var(--c-bg);stroke:var(--c-dirty);stroke-width:1.6}"
         ".c-pt.tip{fill:var(--c-tip);stroke:var(--c-bg);stroke-width:1.2}"
         ".c-pt.tip.dirty{fill:var(--c-bg);stroke:var(--c-tip);stroke-width:2}"
         ".c-pt:hover{stroke:var(--c-text);stroke-width:1.6}"
         ".c-level{stroke-width:2;fill:none}"
         ".c-baseline{stroke:var(--c-baseline)}"
         ".c-latest{stroke:var(--c-latest)}"
         ".c-fit{stroke:var(--c-latest);stroke-dasharray:7 4}"
         ".c-band{fill:var(--c-band);stroke:var(--c-band-edge);stroke-width:1;stroke-dasharray:3 2}"
         ".c-win{fill:var(--c-window)}"
         ".c-rule{stroke-width:1.2;stroke-dasharray:4 3}"
         ".c-split{stroke:var(--c-latest)}"
         ".c-blessing{stroke:var(--c-blessing)}"
         ".c-regime{stroke:var(--c-muted)}"
         ".c-excess{stroke:var(--c-tip);stroke-width:1.6;stroke-dasharray:3 2}"
         ".chart .c-lbl{font-size:11px;paint-order:stroke;stroke:var(--c-bg);stroke-width:3px;stroke-linejoin:round}"
         ".chart .c-cap{font-size:13px}"
         ".chart .c-cap1{font-weight:600}"
         ".chart.good{--c-latest:var(--c-good);--c-tip:var(--c-good)}"
         ".chart.neutral{--c-latest:var(--c-muted);--c-tip:var(--c-series)}";
}

std::string chart_palette_css(std::string_view selector, bool dark) {
  const std::string sel(selector);
  std::string light = sel +
         "{--c-bg:#ffffff;--c-text:#1f2328;--c-muted:#59636e;--c-grid:#e3e7eb;--c-series:#0969da;"
         "--c-dirty:#9a6700;--c-tip:#cf222e;--c-good:#1a7f37;--c-baseline:#59636e;--c-latest:#cf222e;"
         "--c-band:rgba(9,105,218,.11);--c-band-edge:#54aeff;--c-window:rgba(191,135,0,.11);--c-blessing:#1a7f37}";
  if (!dark) return light;
  return light + "@media (prefers-color-scheme:dark){" +
         sel +
         "{--c-bg:#0d1117;--c-text:#e6edf3;--c-muted:#9198a1;--c-grid:#262c36;--c-series:#4493f8;"
         "--c-dirty:#d29922;--c-tip:#f85149;--c-good:#3fb950;--c-baseline:#9198a1;--c-latest:#f85149;"
         "--c-band:rgba(68,147,248,.16);--c-band-edge:#316dca;--c-window:rgba(210,153,34,.14);--c-blessing:#3fb950}}";
}

}  // namespace benchhist::report::svg
