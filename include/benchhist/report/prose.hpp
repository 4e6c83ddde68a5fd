#pragma once
// The sentences and lines shared by the human-readable reports (docs/formats.md#tokens,
// #report-formats), so text, Markdown and the summary word everything identically.

#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "benchhist/report/analysis_report.hpp"

namespace benchhist::report {

// First line of a report without findings, by coverage state.
std::string verdict_sentence(Coverage);

// The coverage sentence then, when anything is unjudged, the breakdown sentence.
std::vector<std::string> qualification_sentences(const Census&);

// `Not judged: 2 series not measured at ...; 3 series with too few points ....`, or empty.
std::string breakdown_sentence(const Census&);
// `Skipped 2 unreadable stored objects (--skip-unreadable): <key>, <key>.`; empty when none.
std::string skipped_unreadable_sentence(const std::vector<std::string>& keys);

// `Warning: comparison base is 3 commits behind base (discriminant set mismatch)`.
std::string lag_warning(const ComparisonBaseLag&);

// The per-set historical comparison sentence (branch mode).
std::string historical_comparison_sentence(const std::optional<BranchComparison>&,
                                           bool any_included_finding);

// `--engine <e> --target-triple <t> --machine-key <k>`.
std::string filter_arguments(const DiscriminantSet&);

// History: `+29.57% wall_time`; branch: `130 wall_time - slower than all 20 current-base
// observations`. `markdown` adds the bold/code decoration of docs/formats.md#report-formats.
std::string finding_headline(const Finding&, bool markdown = false);

// `regression via change point · 100.4 → 130.1 · somewhere near commit10`, or the branch
// detail line.
std::string finding_detail(const Finding&);

// `between <A> and <B>: 12 unmeasured commits — cargo bench-history bisect pins it`, or empty
// (docs/bisect.md#reports). `code` decorates the commits and the command (a Markdown code span, an
// HTML <code> element); the rest of the sentence needs no escaping.
std::string unmeasured_line(const Finding&, const std::function<std::string(std::string_view)>& code = {});

// `blessed at <short>[ (<time>)]`, or empty.
std::string blessing_line(const Finding&);

// `The branch value matches the regime preceding base commit <short>.`, or empty.
std::string previous_regime_line(const Finding&);

// `slower than all` / `faster than all` / `higher than all` / `lower than all`.
std::string branch_relation(MetricKind, Direction);

}  // namespace benchhist::report
