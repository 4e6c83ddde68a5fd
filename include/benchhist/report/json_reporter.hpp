#pragma once
// The JSON report (docs/formats.md#report-formats): pretty-printed (2-space indent), member order
// as the spec lists, full-precision numbers in shortest round-trip spelling, no trailing newline
// (docs/reports.md#choices-on-open-items). The per-commit chart series is never part of it.

#include "benchhist/report/reporter.hpp"

namespace benchhist::report {

class JsonReporter final : public Reporter {
 public:
  std::string_view label() const noexcept override { return "JSON"; }
  // Throws Error{internal} only on a bug: a non-finite number reached the report (the JSON
  // writer refuses it; the detectors never produce one).
  std::string render(const AnalysisReport& report) const override;
};

}  // namespace benchhist::report
