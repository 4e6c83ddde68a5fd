#pragma once
// The condensed Markdown summary (docs/formats.md#report-formats): lossy, capped at the top 10
// findings, for a size-limited destination such as a pull-request comment.

#include <cstddef>

#include "benchhist/report/reporter.hpp"

namespace benchhist::report {

inline constexpr std::size_t summary_finding_cap = 10;  // fixed by the spec

class SummaryReporter final : public Reporter {
 public:
  std::string_view label() const noexcept override { return "Markdown summary"; }
  std::string render(const AnalysisReport& report) const override;
};

}  // namespace benchhist::report
