#pragma once
// The full Markdown report (docs/formats.md#report-formats), always ending with the Coverage
// section.

#include "benchhist/report/reporter.hpp"

namespace benchhist::report {

class MarkdownReporter final : public Reporter {
 public:
  std::string_view label() const noexcept override { return "Markdown"; }
  std::string render(const AnalysisReport& report) const override;
};

}  // namespace benchhist::report
