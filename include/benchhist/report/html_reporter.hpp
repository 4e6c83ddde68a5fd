#pragma once
// The self-contained HTML report (`analyze --html`, `examine --html`; docs/reports.md). One file
// with no external script, stylesheet, font or image, so it opens from a CI artifact or an
// e-mail: the outcome and coverage first, the census with every unjudged reason, each finding
// in the order of the other formats with an SVG chart of its series, then a filterable table of
// every judged series with small charts. Light and dark schemes, phone widths, print.
//
// It renders the same AnalysisReport as every other reporter. Charts with commit tooltips and
// the judged-series table need report.charts (pipeline::chart_data); without it the findings
// are still charted, labelled by first-parent position.
//
// Size stays bounded on large reports: finding charts are inline SVG with one mark and tooltip
// per point for the first `detailed_findings` findings; later findings and the series table get
// compact path charts that a small inline script draws when they scroll into view (or before
// printing). The geometry of both is computed here (report/svg_chart.hpp); the script only
// inserts it.

#include <cstddef>

#include "benchhist/report/examine_output.hpp"
#include "benchhist/report/reporter.hpp"

namespace benchhist::report {

struct HtmlOptions {
  std::size_t detailed_findings = 100;  // findings charted point by point, in rank order
};

class HtmlReporter final : public Reporter {
 public:
  explicit HtmlReporter(HtmlOptions options = {}) : options_(options) {}
  std::string_view label() const noexcept override { return "HTML"; }
  // A complete document ending with "\n"; byte-identical for identical input.
  std::string render(const AnalysisReport& report) const override;

 private:
  HtmlOptions options_;
};

// `examine --html`: every stored point of one benchmark metric per set, charted (dirty points
// marked, gaps kept) and tabulated.
std::string render_examine_html(const ExamineData& data);

}  // namespace benchhist::report
