#pragma once
// What publication needs from an `analyze --json` report (docs/formats.md#report-formats), and the
// publication state the guide's "Read the reports" derives from it: findings, clean, or
// inconclusive. A complete all-clear needs both a clean analysis outcome (every in-scope series
// judged, no finding) and successful collection on every expected platform; everything else
// without findings — too little history, partial coverage, nothing in scope, or a missing
// collection leg — is inconclusive, never clean.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "benchhist/report/analysis_report.hpp"

namespace benchhist::publish {

struct ReportFacts {
  std::string project;     // raw project id
  std::string tip_commit;  // the analyzed context commit
  benchhist::AnalysisMode mode = benchhist::AnalysisMode::history;
  benchhist::Outcome outcome = benchhist::Outcome::clean;
  std::uint64_t regressions = 0;
  std::optional<std::uint64_t> improvements;
  benchhist::Coverage coverage = benchhist::Coverage::no_series;
  std::uint64_t in_scope = 0;
  std::uint64_t judged = 0;
};

// Reads the members above from the JSON report text.
// Throws Error{decode} `<path> is not an analyze JSON report` (subject = path, cause = the
// offending member).
ReportFacts read_report_facts(std::string_view json_text, const std::string& path);

enum class PublicationState { findings, clean, inconclusive };
std::string_view to_string(PublicationState state) noexcept;

// Findings take precedence; clean requires outcome `clean` and `collection_complete`.
PublicationState publication_state(const ReportFacts& facts, bool collection_complete) noexcept;

// One sentence saying why a report without findings is inconclusive (empty for findings and
// clean), e.g. `only 3 of 6 in-scope series could be judged`.
std::string inconclusive_reason(const ReportFacts& facts, bool collection_complete);

}  // namespace benchhist::publish
