// The full Markdown report (docs/formats.md#report-formats) and the condensed summary. Both share
// the header and the finding block; the summary differs in heading level, capping and
// flattening.

#include "benchhist/report/markdown_reporter.hpp"

#include <algorithm>

#include "benchhist/report/chart.hpp"
#include "benchhist/report/markdown_text.hpp"
#include "benchhist/report/prose.hpp"
#include "benchhist/report/summary_reporter.hpp"
#include "benchhist/report/value_format.hpp"
#include "render_common.hpp"

namespace benchhist::report {

namespace {

class MdWriter {
 public:
  explicit MdWriter(const AnalysisReport& r) : r_(r) {}

  std::string full() {
    header(false);
    if (r_.findings.empty()) {
      silent_paragraphs();
      for (const auto* s : detail::sets_to_render(r_)) set_section(*s);
    } else {
      for (const auto* s : detail::sets_to_render(r_)) set_section(*s);
      paragraph(r_.hint);
    }
    paragraph(r_.warning);
    coverage();
    return std::move(out_);
  }

  std::string summary() {
    header(true);
    const bool branch = r_.mode == AnalysisMode::branch;
    if (r_.findings.empty()) {
      silent_paragraphs();
      if (branch) {
        for (const auto* sp : detail::ordered_sets(r_)) {
          const auto& s = *sp;
          out_ += "\n## " + s.set.label() + "\n";
          for (const auto& lag : ordered_lags(s.lags)) para("> " + lag_warning(lag));
          para("**Historical comparison:** " +
               historical_comparison_sentence(s.comparison, detail::any_included(r_.findings_in(s.set))));
          para("_Filter:_ `" + filter_arguments(s.set) + "`");
        }
      }
    } else {
      const std::size_t n = r_.findings.size();
      if (n > summary_finding_cap)
        para("> Showing the top " + std::to_string(summary_finding_cap) + " of " + std::to_string(n) +
             " findings by magnitude.");
      std::vector<DiscriminantSet> introduced;
      for (std::size_t i = 0; i < n && i < summary_finding_cap; ++i) {
        const Finding& f = r_.findings[i];
        const SetReport* s = detail::set_of(r_, f.set);
        const bool has_comparison = s && s->comparison.has_value();
        bool first_of_set = true;
        for (const auto& d : introduced)
          if (d == f.set) first_of_set = false;
        if (first_of_set) {
          introduced.push_back(f.set);
          if (s) {
            for (const auto& lag : ordered_lags(s->lags)) para("> " + lag_warning(lag));
            if (branch)
              para("> **Historical comparison for " + f.set.label() + ":** " +
                   historical_comparison_sentence(s->comparison, detail::any_included(r_.findings_in(f.set))));
          }
        }
        if (!f.is_primary(has_comparison))
          para("> **Outside the historical comparison:** This excursion did not meet the shared-history "
               "requirements of the compared family.");
        block(f, "##");
        para("_Filter:_ `" + filter_arguments(f.set) + "`");
      }
      paragraph(r_.hint);
    }
    paragraph(r_.warning);
    return std::move(out_);
  }

 private:
  void line(const std::string& s) { out_ += s + "\n"; }
  void para(const std::string& s) { out_ += "\n" + s + "\n"; }
  void paragraph(const std::optional<std::string>& text) {
    if (!text || text->empty()) return;
    out_ += "\n" + *text;
    if (text->back() != '\n') out_ += "\n";
  }

  void header(bool summary) {
    const auto& c = r_.census;
    line("# Benchmark history analysis: " + r_.project);
    out_ += "\n";
    line("- Commit: " + r_.context_commit + (r_.context_dirty ? " + uncommitted changes" : ""));
    line("- Mode: " + std::string(to_string(r_.mode)));
    line("- Runs analyzed: " + format_run_span(r_.runs.runs, r_.runs.oldest, r_.runs.newest));
    if (c.in_scope() > 0) {
      std::string judged = "- In-scope series judged: " + std::to_string(c.judged) + " of " + std::to_string(c.in_scope());
      // The summary points to the full report instead of repeating the breakdown
      // (docs/formats.md#report-formats; wording OPEN, docs/reports.md#choices-on-open-items).
      if (summary && !r_.findings.empty() && c.judged < c.in_scope())
        judged += " (the full report's Coverage section lists the unjudged series)";
      line(judged);
    }
    // Compact disclosure of configured exclusions beside findings (docs/formats.md#report-formats;
    // wording OPEN).
    if (!r_.findings.empty() && c.count(UnjudgedReason::ignored) > 0)
      line("- Ignored by configuration: " + plural(c.count(UnjudgedReason::ignored), "series"));
    line("- Regressions: " + std::to_string(r_.regressions()));
    if (r_.reports_improvements()) line("- Improvements: " + std::to_string(r_.improvements()));
    if (auto s = skipped_unreadable_sentence(c.skipped_unreadable); !s.empty()) line("- " + s);
  }

  void silent_paragraphs() {
    para(verdict_sentence(r_.census.coverage()));
    for (const auto& q : qualification_sentences(r_.census)) para(q);
    paragraph(r_.hint);
  }

  void set_section(const SetReport& s) {
    const auto fs = r_.findings_in(s.set);
    out_ += "\n## " + s.set.label() + "\n\n";
    line("- Runs: " + std::to_string(s.runs));
    line("- Regressions: " + std::to_string(r_.regressions_in(s.set)));
    if (r_.reports_improvements()) line("- Improvements: " + std::to_string(r_.improvements_in(s.set)));
    line("- Filter: `" + filter_arguments(s.set) + "`");
    for (const auto& lag : ordered_lags(s.lags)) para("> " + lag_warning(lag));
    if (r_.mode == AnalysisMode::branch)
      para("**Historical comparison:** " + historical_comparison_sentence(s.comparison, detail::any_included(fs)));
    std::vector<const Finding*> primary, other;
    detail::split_primary(fs, s.comparison.has_value(), primary, other);
    for (const auto* f : primary) block(*f, "###");
    if (!other.empty()) {
      para("### Additional excursions outside this comparison");
      for (const auto* f : other) block(*f, "####");
    }
  }

  void block(const Finding& f, const std::string& heading) {
    para(heading + " " + code_span(f.benchmark.qualified()));
    line(finding_headline(f, true));
    para(finding_detail(f));
    if (auto u = unmeasured_line(f, code_span); !u.empty()) para(u);
    if (auto b = blessing_line(f); !b.empty()) para(b);
    if (auto p = previous_regime_line(f); !p.empty()) para(p);
    if (f.chart) {
      if (auto chart = plot_chart(finding_columns(*f.chart, f.branch.has_value())))
        para("```text\n" + *chart + "\n```");
    }
  }

  void coverage() {
    const auto& c = r_.census;
    para("## Coverage");
    out_ += "\n";
    line("- State: `" + std::string(to_string(c.coverage())) + "`");
    line("- Metric series accounted for: " + std::to_string(c.total()));
    line("- In scope: " + std::to_string(c.in_scope()));
    line("- Judged: " + std::to_string(c.judged));
    line("- Unjudged (including out-of-scope series): " + std::to_string(c.unjudged()));
    if (c.unjudged() == 0) return;  // empty table omitted (docs/reports.md#choices-on-open-items)
    out_ += "\n";
    line("| Unjudged reason | Metric series |");
    line("| --- | --- |");
    for (auto r : all_unjudged_reasons)
      if (c.count(r) > 0) line("| " + std::string(reason_phrase(r)) + " | " + std::to_string(c.count(r)) + " |");
  }

  const AnalysisReport& r_;
  std::string out_;
};

}  // namespace

std::string MarkdownReporter::render(const AnalysisReport& report) const {
  report.check();
  return MdWriter(report).full();
}

std::string SummaryReporter::render(const AnalysisReport& report) const {
  report.check();
  return MdWriter(report).summary();
}

}  // namespace benchhist::report
