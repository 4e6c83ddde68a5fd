// Tokens, census arithmetic and per-set views of the report model (docs/formats.md#tokens,
// docs/statistics.md#comparison-base-lag, #census).

#include "benchhist/report/analysis_report.hpp"

#include <algorithm>

#include "benchhist/error.hpp"

namespace benchhist::report {

std::string_view to_string(GateVerdict v) noexcept {
  switch (v) {
    case GateVerdict::passed: return "passed";
    case GateVerdict::declined: return "declined";
    case GateVerdict::not_run: return "not run";
    case GateVerdict::skipped: return "skipped";
  }
  return "passed";
}

std::uint64_t AnalysisReport::regressions() const noexcept {
  return static_cast<std::uint64_t>(std::count_if(findings.begin(), findings.end(), [](const Finding& f) {
    return f.direction == Direction::regression;
  }));
}

std::uint64_t AnalysisReport::improvements() const noexcept {
  return findings.size() - regressions();
}

std::uint64_t AnalysisReport::regressions_in(const DiscriminantSet& s) const noexcept {
  return static_cast<std::uint64_t>(std::count_if(findings.begin(), findings.end(), [&](const Finding& f) {
    return f.set == s && f.direction == Direction::regression;
  }));
}

std::uint64_t AnalysisReport::improvements_in(const DiscriminantSet& s) const noexcept {
  return static_cast<std::uint64_t>(std::count_if(findings.begin(), findings.end(), [&](const Finding& f) {
    return f.set == s && f.direction == Direction::improvement;
  }));
}

void AnalysisReport::check() const {
  for (const auto& f : findings)
    if (std::none_of(sets.begin(), sets.end(), [&](const SetReport& s) { return s.set == f.set; }))
      throw Error(ErrorKind::usage,
                  "the report's finding " + f.benchmark.qualified() + " is in the discriminant set " + f.set.label() +
                      ", which AnalysisReport::sets does not list",
                  f.benchmark.qualified(), {},
                  "add a SetReport for every set a finding is in (pipeline::analyze does; docs/reports.md)");
}

std::vector<const Finding*> AnalysisReport::findings_in(const DiscriminantSet& s) const {
  std::vector<const Finding*> out;
  for (const auto& f : findings)
    if (f.set == s) out.push_back(&f);
  return out;
}

}  // namespace benchhist::report
