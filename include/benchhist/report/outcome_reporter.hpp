#pragma once
// The outcome file (docs/formats.md#report-formats): the outcome token and '\n'
// (docs/reports.md#choices-on-open-items), nothing else.

#include "benchhist/report/reporter.hpp"

namespace benchhist::report {

class OutcomeReporter final : public Reporter {
 public:
  std::string_view label() const noexcept override { return "outcome"; }
  std::string render(const AnalysisReport& report) const override {
    report.check();
    return std::string(to_string(report.outcome())) + "\n";
  }
};

}  // namespace benchhist::report
