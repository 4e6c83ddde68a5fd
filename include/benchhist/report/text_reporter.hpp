#pragma once
// The terminal report (docs/formats.md#report-formats).

#include <cstddef>

#include "benchhist/report/reporter.hpp"

namespace benchhist::report {

struct TextOptions {
  // Terminal width. At the default 80 every chart keeps its 48 columns; narrower terminals
  // get fewer chart columns (never below 8) so rows do not wrap.
  std::size_t width = 80;
  // ANSI styling (only when stdout is a terminal and NO_COLOR is unset: the caller decides).
  // Charts are never colored.
  bool color = false;
};

class TextReporter final : public Reporter {
 public:
  explicit TextReporter(TextOptions options = {}) : options_(options) {}
  std::string_view label() const noexcept override { return "text"; }
  std::string render(const AnalysisReport& report) const override;

 private:
  TextOptions options_;
};

}  // namespace benchhist::report
