#pragma once
// The reporter interface (in the spirit of Google Benchmark's BenchmarkReporter): every
// output format renders the same AnalysisReport. Rendering is a pure function of the report,
// so identical input gives byte-identical output (docs/formats.md#outputs,
// docs/statistics.md#ranking-and-determinism).

#include <ostream>
#include <string>
#include <string_view>

#include "benchhist/report/analysis_report.hpp"

namespace benchhist::report {

class Reporter {
 public:
  virtual ~Reporter() = default;
  // Format label used in messages (`text`, `Markdown`, `JSON`, `Markdown summary`, `outcome`,
  // docs/formats.md#storage-selection).
  virtual std::string_view label() const noexcept = 0;
  // The whole rendering. Every format ends with a single '\n' except JSON
  // (docs/reports.md#choices-on-open-items).
  virtual std::string render(const AnalysisReport& report) const = 0;
  // Convenience: write render() to a stream.
  void report(std::ostream& out, const AnalysisReport& r) const { out << render(r); }
};

}  // namespace benchhist::report
