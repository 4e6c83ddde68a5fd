// The terminal report (docs/formats.md#report-formats).

#include "benchhist/report/text_reporter.hpp"

#include <algorithm>

#include "benchhist/report/chart.hpp"
#include "benchhist/report/prose.hpp"
#include "benchhist/report/value_format.hpp"
#include "render_common.hpp"

namespace benchhist::report {

namespace {

// SGR sequences as common terminal-color libraries emit them (not a contract,
// docs/formats.md#report-formats).
constexpr const char* bold = "\x1b[1m";
constexpr const char* bold_red = "\x1b[1;31m";
constexpr const char* bold_green = "\x1b[1;32m";
constexpr const char* dim = "\x1b[2m";
constexpr const char* reset = "\x1b[0m";

class Writer {
 public:
  Writer(const AnalysisReport& r, const TextOptions& o) : r_(r), o_(o) {}

  std::string run() {
    header();
    if (r_.findings.empty()) {
      line(verdict_sentence(r_.census.coverage()));
      for (const auto& q : qualification_sentences(r_.census)) line("  " + q);
      paragraph(r_.hint);
      for (const auto* s : detail::sets_to_render(r_)) set_section(*s);
    } else {
      for (const auto* s : detail::sets_to_render(r_)) set_section(*s);
      paragraph(r_.hint);
    }
    paragraph(r_.warning);
    return std::move(out_);
  }

 private:
  void line(const std::string& s) { out_ += s + "\n"; }
  void styled(const std::string& s, const char* style) {
    if (o_.color)
      out_ += std::string(style) + s + reset + "\n";
    else
      line(s);
  }
  void paragraph(const std::optional<std::string>& text) {
    if (!text || text->empty()) return;
    out_ += "\n" + *text;
    if (text->back() != '\n') out_ += "\n";
  }

  void header() {
    const auto& c = r_.census;
    line("Analyzed project " + r_.project + " (" + std::string(to_string(r_.mode)) + " mode)");
    line("  commit: " + r_.context_commit + (r_.context_dirty ? " + uncommitted changes" : ""));
    std::string runs = "  runs: " + format_run_span(r_.runs.runs, r_.runs.oldest, r_.runs.newest);
    if (c.in_scope() > 0)
      runs += "  in-scope series judged: " + std::to_string(c.judged) + " of " + std::to_string(c.in_scope());
    // Beside findings only: without findings the breakdown sentence carries it
    // (docs/formats.md#report-formats).
    if (!r_.findings.empty() && c.count(UnjudgedReason::ignored) > 0)
      runs += "  ignored by configuration: " + plural(c.count(UnjudgedReason::ignored), "series");
    runs += "  regressions: " + std::to_string(r_.regressions());
    if (r_.reports_improvements()) runs += "  improvements: " + std::to_string(r_.improvements());
    line(runs);
    if (auto s = skipped_unreadable_sentence(c.skipped_unreadable); !s.empty()) line("  " + s);
  }

  void set_section(const SetReport& s) {
    const auto fs = r_.findings_in(s.set);
    out_ += "\n";
    line(s.set.label());
    std::string counts = "  runs: " + std::to_string(s.runs) + "  regressions: " + std::to_string(r_.regressions_in(s.set));
    if (r_.reports_improvements()) counts += "  improvements: " + std::to_string(r_.improvements_in(s.set));
    line(counts);
    line("  filter: " + filter_arguments(s.set));
    for (const auto& lag : ordered_lags(s.lags)) line("  " + lag_warning(lag));
    const bool branch = r_.mode == AnalysisMode::branch;
    if (branch) line("  " + historical_comparison_sentence(s.comparison, detail::any_included(fs)));
    std::vector<const Finding*> primary, other;
    detail::split_primary(fs, s.comparison.has_value(), primary, other);
    for (const auto* f : primary) block(*f);
    if (!other.empty()) {
      out_ += "\n";
      line("  Additional excursions outside this comparison:");
      for (const auto* f : other) block(*f);
    }
  }

  void block(const Finding& f) {
    out_ += "\n";
    styled(f.benchmark.qualified(), bold);
    styled("  " + finding_headline(f), f.direction == Direction::regression ? bold_red : bold_green);
    styled("    " + finding_detail(f), dim);
    if (auto b = blessing_line(f); !b.empty()) styled("    " + b, dim);
    if (auto p = previous_regime_line(f); !p.empty()) styled("    " + p, dim);
    if (f.chart) {
      // Narrow terminals get fewer columns; at 80 columns the spec's 48 always fit.
      const std::size_t cols = std::clamp<std::size_t>(o_.width > 32 ? o_.width - 32 : 8, 8, max_chart_columns);
      if (auto chart = plot_chart(finding_columns(*f.chart, f.branch.has_value(), cols))) line(*chart);
    }
  }

  const AnalysisReport& r_;
  const TextOptions& o_;
  std::string out_;
};

}  // namespace

std::string TextReporter::render(const AnalysisReport& report) const {
  report.check();
  return Writer(report, options_).run();
}

}  // namespace benchhist::report
