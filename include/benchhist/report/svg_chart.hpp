#pragma once
// The one SVG chart renderer of the graphical outputs: the HTML report (report/html_reporter.hpp)
// and the documentation figures (tools/figures). It draws a series in first-parent order, one x
// position per commit, so a commit without a measurement stays a gap; on top of it the marks a
// verdict needs: baseline and latest levels, the split, a drift window, an observed-range band,
// blessings, dirty points and the branch tip.
//
// Two layers: layout() is pure geometry (data → pixel coordinates, unit-tested), render() turns
// a laid-out chart into SVG text. Nothing here knows about findings; report/chart_spec.hpp
// builds ChartSpecs from the report model.

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "benchhist/report/analysis_report.hpp"

namespace benchhist::report::svg {

// ---- What to draw, in data coordinates (first-parent index, metric value) ----------------

struct Mark {
  std::size_t index = 0;
  double value = 0;
  bool dirty = false;     // from a dirty snapshot: drawn hollow
  bool emphasis = false;  // the value being judged (branch tip): drawn larger, not joined to the line
  std::string tooltip{};  // plain text, one line per '\n'; escaped when written
};

enum class LevelKind { baseline, latest, fit };

// A straight segment from (from, from_value) to (to, to_value): a regime level or a fitted line.
struct Level {
  std::size_t from = 0;
  std::size_t to = 0;
  double from_value = 0;
  double to_value = 0;
  LevelKind kind = LevelKind::baseline;
  std::string label{};
};

// A value band over an index range (branch mode: the observed current-base range).
struct Band {
  std::size_t from = 0;
  std::size_t to = 0;
  double low = 0;
  double high = 0;
  std::string label{};
};

enum class RuleKind { split, blessing, regime_start };

// A vertical marker at one commit.
struct Rule {
  std::size_t index = 0;
  RuleKind kind = RuleKind::split;
  std::string label{};
};

// A shaded index range (a drift's accumulated window).
struct Window {
  std::size_t from = 0;
  std::size_t to = 0;
  std::string label{};
};

// A dashed vertical segment at one index between two values (branch: range edge → tip).
struct Excess {
  std::size_t index = 0;
  double from_value = 0;
  double to_value = 0;
};

// How the judged move is coloured: a regression, an improvement, or neither (a quiet verdict).
enum class Tone { regression, improvement, neutral };

struct ChartSpec {
  std::vector<Mark> marks;  // ascending by index; several marks may share an index
  std::size_t first = 0;    // x domain, inclusive; `last` may lie past the newest mark
  std::size_t last = 0;     //   (the trailing gap up to the analyzed commit)
  std::vector<Level> levels{};
  std::optional<Band> band{};
  std::vector<Rule> rules{};
  std::optional<Window> window{};
  std::optional<Excess> excess{};
  std::string unit{};          // y-axis unit
  std::string title{};         // accessible name
  std::string first_label{};   // x-axis labels at both ends (e.g. short commits)
  std::string last_label{};
  std::vector<std::string> caption{};  // lines beneath the plot (documentation figures)
  Tone tone = Tone::regression;  // colour of the latest level, the split and the tip
};

// ---- Geometry --------------------------------------------------------------------------

struct Frame {
  double width = 640;
  double height = 220;
  double left = 58;    // room for the y labels
  double right = 14;
  double top = 22;     // room for rule labels
  double bottom = 24;  // room for the x labels
  double inset = 6;    // keeps end marks off the frame
  double caption_line = 17;  // height of one caption line (added below `height`)
};

// A "nice" value axis: bounds and ticks on multiples of 1, 2, 2.5 or 5 × 10^k enclosing
// [min, max]. A zero-width range (a series of one repeated value) is widened around the value
// so it plots as a level line in the middle, not as a division by zero.
struct YAxis {
  double lo = 0;
  double hi = 1;
  double step = 1;
  std::vector<double> ticks;
};
YAxis nice_axis(double min, double max, int target_ticks = 4);

struct Pt {
  double x = 0;
  double y = 0;
  friend bool operator==(const Pt&, const Pt&) = default;
};

struct Geometry {
  Frame frame;
  YAxis y;
  std::size_t first = 0;
  std::size_t last = 0;
  // The series line through the mean of each index's marks (emphasised marks apart). A piece
  // ends where the next index has no mark; `gaps` joins the two sides of each gap (drawn faint,
  // so the gap stays visible).
  std::vector<std::vector<Pt>> line;
  std::vector<std::pair<Pt, Pt>> gaps;
  std::vector<Pt> marks;                    // one per spec mark, same order
  std::vector<std::pair<Pt, Pt>> levels;    // one per spec level
  std::optional<std::pair<Pt, Pt>> band;    // top-left, bottom-right
  std::vector<double> rules;                // x per spec rule
  std::optional<std::pair<double, double>> window;  // x from, x to
  std::optional<std::pair<Pt, Pt>> excess;

  double plot_left() const noexcept { return frame.left + frame.inset; }
  double plot_right() const noexcept { return frame.width - frame.right - frame.inset; }
  double plot_top() const noexcept { return frame.top; }
  double plot_bottom() const noexcept { return frame.height - frame.bottom; }
  double x_of(std::size_t index) const noexcept;
  double y_of(double value) const noexcept;
};

Geometry layout(const ChartSpec& spec, const Frame& frame = {});

// ---- SVG text ----------------------------------------------------------------------------

// inline_html: an <svg> element for an HTML page, styled by the page (chart_css()); no
// namespace attribute, so the page carries no URL at all. standalone: a complete SVG file with
// its namespace and its own <style> (light and dark schemes), for documentation figures.
enum class Embedding { inline_html, standalone };

std::string render(const ChartSpec& spec, const Geometry& geometry, Embedding embedding);
inline std::string render(const ChartSpec& spec, Embedding embedding, const Frame& frame = {}) {
  return render(spec, layout(spec, frame), embedding);
}

// ---- Sparklines (the HTML report's small charts) ---------------------------------------------

struct SparkFrame {
  double width = 120;
  double height = 28;
  double pad = 2;
  std::size_t max_columns = 60;  // commits are grouped into at most this many columns
};

// Points ascending by index; `target` the analyzed commit's index (a trailing gap keeps its
// room). Columns = floor binning of indices as in the text chart, mean per column; a column
// without points breaks the line. Empty when there is no point.
std::vector<std::vector<Pt>> sparkline(const std::vector<ChartPoint>& points, std::size_t target,
                                       const SparkFrame& frame = {});

// Compact SVG path data for line pieces, in whole pixels with relative steps (`M0 14l2-3 2 1…`);
// a one-point piece becomes a dot (`M1 2h0`, visible with round line caps).
std::string path_data(const std::vector<std::vector<Pt>>& pieces);

// ---- Shared pieces --------------------------------------------------------------------------

// The chart classes (`.c-line`, `.c-pt`, …) in terms of CSS variables (`--c-…`).
std::string_view chart_css();
// The variables for the light scheme under `selector` (`:root`, `svg`), and with `dark` the
// dark scheme's under a prefers-color-scheme query.
std::string chart_palette_css(std::string_view selector, bool dark = true);

// Text and attribute escaping for HTML and SVG: & < > " '.
std::string escape(std::string_view text);
// A coordinate: one decimal, trailing `.0` dropped, never `-0`.
std::string coord(double v);

}  // namespace benchhist::report::svg
