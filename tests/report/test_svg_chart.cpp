// The SVG chart renderer: pure geometry (axis ranges, gaps, degenerate series) and its text.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <string>

#include "benchhist/report/chart_spec.hpp"
#include "benchhist/report/svg_chart.hpp"

using namespace benchhist;
using namespace benchhist::report;
using namespace benchhist::report::svg;

namespace {

ChartSpec marks_at(const std::vector<std::pair<std::size_t, double>>& pts, std::size_t last) {
  ChartSpec s;
  for (const auto& [i, v] : pts) s.marks.push_back({i, v});
  s.first = pts.front().first;
  s.last = last;
  return s;
}

std::size_t count(const std::string& text, const std::string& needle) {
  std::size_t n = 0;
  for (auto pos = text.find(needle); pos != std::string::npos; pos = text.find(needle, pos + needle.size())) ++n;
  return n;
}

}  // namespace

TEST_CASE("the value axis encloses the data on nice ticks", "[report][svg]") {
  const auto a = nice_axis(96.9, 135.1);
  CHECK(a.lo <= 96.9);
  CHECK(a.hi >= 135.1);
  CHECK(a.step == 10);
  CHECK(a.lo == 90);
  CHECK(a.hi == 140);
  REQUIRE(a.ticks.size() == 6);
  CHECK(a.ticks.front() == 90);
  CHECK(a.ticks.back() == 140);
  // Small magnitudes and a 2.5 step.
  const auto b = nice_axis(0.001, 0.011);
  CHECK(b.step == Approx(0.0025));
  CHECK(b.lo <= 0.001);
  CHECK(b.hi >= 0.011);
  // Arguments in either order.
  CHECK(nice_axis(10, 0).lo == nice_axis(0, 10).lo);
}

TEST_CASE("a series of one repeated value plots as a level in the middle of a widened axis", "[report][svg]") {
  const auto a = nice_axis(100, 100);
  CHECK(a.lo < 100);
  CHECK(a.hi > 100);
  CHECK((a.lo + a.hi) / 2 == Approx(100));
  const auto zero = nice_axis(0, 0);
  CHECK(zero.lo < 0);
  CHECK(zero.hi > 0);

  auto spec = marks_at({{0, 7}, {1, 7}, {2, 7}, {3, 7}}, 3);
  const auto g = layout(spec);
  for (const auto& m : g.marks) {
    CHECK(std::isfinite(m.y));
    CHECK(m.y == Approx((g.plot_top() + g.plot_bottom()) / 2));
  }
  REQUIRE(g.line.size() == 1);
  CHECK(g.line[0].size() == 4);
}

TEST_CASE("x positions follow first-parent indices and the trailing gap keeps its room", "[report][svg]") {
  auto spec = marks_at({{10, 1}, {11, 2}, {12, 3}}, 20);  // analyzed commit 20 has no point
  const auto g = layout(spec);
  REQUIRE(g.marks.size() == 3);
  CHECK(g.marks[0].x == Approx(g.plot_left()));
  CHECK(g.marks[1].x - g.marks[0].x == Approx((g.plot_right() - g.plot_left()) / 10));
  CHECK(g.marks[2].x < g.plot_right() - 100);  // the trailing gap is drawn, not collapsed
  CHECK(g.x_of(20) == Approx(g.plot_right()));
  // Higher values are drawn higher (smaller y).
  CHECK(g.marks[2].y < g.marks[0].y);
  // Every mark lies inside the plot area.
  for (const auto& m : g.marks) {
    CHECK(m.y >= g.plot_top());
    CHECK(m.y <= g.plot_bottom());
  }
}

TEST_CASE("a commit without a measurement breaks the series line into pieces joined by a gap link",
          "[report][svg]") {
  auto spec = marks_at({{0, 1}, {1, 2}, {2, 3}, {5, 3}, {6, 4}, {9, 5}}, 9);
  const auto g = layout(spec);
  REQUIRE(g.line.size() == 3);
  CHECK(g.line[0].size() == 3);
  CHECK(g.line[1].size() == 2);
  CHECK(g.line[2].size() == 1);  // a lone observation: a mark, no segment
  REQUIRE(g.gaps.size() == 2);
  CHECK(g.gaps[0].first == g.line[0].back());
  CHECK(g.gaps[0].second == g.line[1].front());
  const auto text = render(spec, g, Embedding::inline_html);
  CHECK(count(text, "<circle") == 6);
  CHECK(count(text, "class=\"c-gap\"") == 1);
  // The line path has one M per piece of two or more points.
  const auto line_at = text.find("class=\"c-line\" d=\"");
  REQUIRE(line_at != std::string::npos);
  const auto d = text.substr(line_at, text.find('"', line_at + 18) - line_at);
  CHECK(count(d, "M") == 2);
}

TEST_CASE("several observations at one commit share its x and the line passes through their mean",
          "[report][svg]") {
  auto spec = marks_at({{0, 10}, {1, 10}, {1, 20}, {2, 10}}, 2);
  const auto g = layout(spec);
  CHECK(g.marks[1].x == g.marks[2].x);
  REQUIRE(g.line.size() == 1);
  REQUIRE(g.line[0].size() == 3);
  CHECK(g.line[0][1].y == Approx(g.y_of(15)));
}

TEST_CASE("a dirty snapshot stands apart: the line passes through the commit's clean run, not a mean with it",
          "[report][svg]") {
  auto spec = marks_at({{0, 10}, {1, 10}, {1, 20}, {2, 10}}, 2);
  spec.marks[2].dirty = true;
  const auto g = layout(spec);
  REQUIRE(g.marks.size() == 4);  // the dirty point is still drawn
  REQUIRE(g.line.size() == 1);
  REQUIRE(g.line[0].size() == 3);
  CHECK(g.line[0][1].y == Approx(g.y_of(10)));
  // A commit with only a dirty snapshot is a gap in the line.
  auto only_dirty = marks_at({{0, 10}, {1, 20}, {2, 10}}, 2);
  only_dirty.marks[1].dirty = true;
  CHECK(layout(only_dirty).line.size() == 2);
}

TEST_CASE("levels, bands and excesses widen the value axis so they are never clipped", "[report][svg]") {
  auto spec = marks_at({{0, 100}, {1, 101}, {2, 99}}, 3);
  spec.band = Band{0, 3, 90, 103, "range"};
  spec.excess = Excess{3, 103, 130};
  const auto g = layout(spec);
  CHECK(g.y.lo <= 90);
  CHECK(g.y.hi >= 130);
  REQUIRE(g.band);
  CHECK(g.band->first.y < g.band->second.y);
  REQUIRE(g.excess);
  CHECK(g.excess->second.y < g.excess->first.y);
}

TEST_CASE("a single commit is centred instead of dividing by a zero-width domain", "[report][svg]") {
  auto spec = marks_at({{4, 1}, {4, 2}}, 4);
  const auto g = layout(spec);
  CHECK(g.marks[0].x == Approx((g.plot_left() + g.plot_right()) / 2));
  CHECK(std::isfinite(g.marks[1].y));
}

TEST_CASE("chart text escapes labels and tooltips and is identical on every render", "[report][svg]") {
  auto spec = marks_at({{0, 1}, {1, 2}}, 1);
  spec.marks[0].tooltip = "a<b & \"c\" 'd'";
  spec.title = "bench<1> & co";
  spec.first_label = "<x>";
  const auto a = render(spec, Embedding::inline_html);
  CHECK(a.find("a&lt;b &amp; &quot;c&quot; &#39;d&#39;") != std::string::npos);
  CHECK(a.find("bench&lt;1&gt; &amp; co") != std::string::npos);
  CHECK(a.find("<x>") == std::string::npos);
  CHECK(a.find("xmlns") == std::string::npos);  // inline: no namespace URL in the page
  CHECK(a == render(spec, Embedding::inline_html));
  const auto s = render(spec, Embedding::standalone);
  CHECK(s.rfind("<svg xmlns=\"http://www.w3.org/2000/svg\"", 0) == 0);
  CHECK(s.find("<style>") != std::string::npos);
  CHECK(s.find("prefers-color-scheme:dark") != std::string::npos);
}

TEST_CASE("coordinates are written with one decimal and never as negative zero", "[report][svg]") {
  CHECK(coord(12.0) == "12");
  CHECK(coord(12.25) == "12.2");  // binary 12.25 is exact: half-to-even on the printed digit
  CHECK(coord(-0.01) == "0");
  CHECK(coord(-3.46) == "-3.5");
  CHECK(coord(std::nan("")) == "0");
}

TEST_CASE("sparklines bin commits like the text chart, break at empty columns and keep lone points as dots",
          "[report][svg]") {
  std::vector<ChartPoint> pts{{0, 1}, {1, 2}, {2, 3}, {5, 2}, {7, 1}, {8, 1}};
  const auto pieces = sparkline(pts, 8, SparkFrame{});
  REQUIRE(pieces.size() == 3);
  CHECK(pieces[0].size() == 3);
  CHECK(pieces[1].size() == 1);
  CHECK(pieces[2].size() == 2);
  const auto d = path_data(pieces);
  CHECK(d.find("h0") != std::string::npos);
  CHECK(d.front() == 'M');
  // Many commits: at most max_columns columns.
  std::vector<ChartPoint> many;
  for (std::size_t i = 0; i < 1000; ++i) many.push_back({i, static_cast<double>(i % 7)});
  std::size_t columns = 0;
  for (const auto& p : sparkline(many, 999, SparkFrame{})) columns += p.size();
  CHECK(columns == 60);
  // One repeated value: a flat line in the middle.
  const auto flat = sparkline({{0, 5}, {1, 5}, {2, 5}}, 2, SparkFrame{});
  REQUIRE(flat.size() == 1);
  for (const auto& p : flat[0]) CHECK(p.y == Approx(14));
  CHECK(sparkline({}, 0, SparkFrame{}).empty());
}

TEST_CASE("a change point chart marks the baseline, the latest level and the attributed commit", "[report][svg]") {
  std::vector<ChartPoint> pts;
  for (std::size_t i = 0; i < 20; ++i) pts.push_back({i, i < 10 ? 100.0 : 130.0});
  ChartOverlay o;
  o.method = FindingMethod::change_point;
  o.baseline = 100;
  o.latest = 130;
  o.split_index = 10;
  o.blessed_index = 3;
  std::vector<LineCommit> line;
  for (int i = 0; i < 25; ++i) line.push_back({"commit" + std::to_string(i), "2026-06-01T00:00:00Z", "subject"});
  const auto spec = chart_spec(pts, 24, MetricKind::wall_time, o, &line);
  CHECK(spec.first == 0);
  CHECK(spec.last == 24);
  REQUIRE(spec.levels.size() == 2);
  CHECK(spec.levels[0].from == 0);
  CHECK(spec.levels[0].to == 10);
  CHECK(spec.levels[1].from == 10);
  CHECK(spec.levels[1].to == 19);
  REQUIRE(spec.rules.size() == 2);
  CHECK(spec.rules[0].kind == RuleKind::blessing);
  CHECK(spec.rules[1].kind == RuleKind::split);
  CHECK(spec.rules[1].label == "near commit10");
  CHECK(spec.marks[10].tooltip == "commit10 \u00b7 130 ns\nsubject\n2026-06-01T00:00:00Z");
  CHECK(spec.last_label == "commit24");
}

TEST_CASE("a level label sits above every point under it, not across them", "[report][svg]") {
  // The newest points rise well above the latest level: its label must clear them. (An outlier at
  // 2 keeps them off the top edge, where the label is clamped into the plot.)
  std::vector<ChartPoint> pts;
  for (std::size_t i = 0; i < 20; ++i) pts.push_back({i, i == 2 ? 220.0 : i < 10 ? 100.0 : (i >= 16 ? 160.0 : 130.0)});
  ChartOverlay o;
  o.method = FindingMethod::change_point;
  o.baseline = 100;
  o.latest = 130;
  o.split_index = 10;
  const auto spec = chart_spec(pts, 19, MetricKind::wall_time, o, nullptr);
  const auto g = layout(spec);
  const auto text = render(spec, g, Embedding::inline_html);
  REQUIRE(spec.levels.size() == 2);
  const std::string label = ">" + spec.levels[1].label + "</text>";
  const auto end = text.find(label);
  REQUIRE(end != std::string::npos);
  const auto y_at = text.rfind(" y=\"", end);
  const double y = std::stod(text.substr(y_at + 4));
  double highest = 1e9;  // the smallest y of the points at 16..19, the ones the label spans
  for (std::size_t i = 16; i < 20; ++i) highest = std::min(highest, g.marks[i].y);
  CHECK(y < highest);
  CHECK(y >= g.plot_top());
}

TEST_CASE("a branch chart draws the observed range from the current regime to the tip", "[report][svg]") {
  std::vector<ChartPoint> pts;
  for (std::size_t i = 0; i < 20; ++i) pts.push_back({i, i < 10 ? 100.0 : 130.0});
  pts.push_back({21, 100, true});
  ChartOverlay o;
  o.method = FindingMethod::branch_excursion;
  o.direction = Direction::improvement;
  o.baseline = 125;
  o.latest = 100;
  o.range = std::pair<double, double>{125, 135};
  o.range_from = 10;
  o.tip_index = 21;
  const auto spec = chart_spec(pts, 21, MetricKind::wall_time, o, nullptr);
  REQUIRE(spec.band);
  CHECK(spec.band->from == 10);
  CHECK(spec.band->to == 21);
  CHECK(spec.tone == Tone::improvement);
  CHECK(spec.marks.back().emphasis);
  CHECK(spec.marks.back().dirty);
  CHECK(spec.marks.back().tooltip == "#21 \u00b7 100 ns\ndirty snapshot");
  REQUIRE(spec.excess);
  CHECK(spec.excess->index == 21);
  const auto text = render(spec, Embedding::inline_html);
  CHECK(text.find("class=\"c-pt dirty tip\"") != std::string::npos);
  CHECK(text.find("class=\"chart good\"") != std::string::npos);
}
