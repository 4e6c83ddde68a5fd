#pragma once
// Internal helpers shared by the report renderers (not installed).

#include <algorithm>
#include <string>
#include <vector>

#include "benchhist/report/analysis_report.hpp"

namespace benchhist::report::detail {

// Sets in report order: engine name, triple, machine key (docs/formats.md#outputs). The pipeline
// already delivers them so; sorting here keeps every format identical even if it did not.
inline std::vector<const SetReport*> ordered_sets(const AnalysisReport& r) {
  std::vector<const SetReport*> out;
  for (const auto& s : r.sets) out.push_back(&s);
  std::stable_sort(out.begin(), out.end(), [](const SetReport* a, const SetReport* b) { return a->set < b->set; });
  return out;
}

// Sets that get a section (docs/formats.md#report-formats): with findings, every set that has
// findings or (branch mode) a comparison or lag; without findings, history renders none and branch
// renders every set.
inline std::vector<const SetReport*> sets_to_render(const AnalysisReport& r) {
  std::vector<const SetReport*> out;
  const bool branch = r.mode == AnalysisMode::branch;
  for (const auto* sp : ordered_sets(r)) {
    const auto& s = *sp;
    const bool has_findings = !r.findings_in(s.set).empty();
    bool show = false;
    if (r.findings.empty())
      show = branch;
    else
      show = has_findings || (branch && (s.comparison.has_value() || !s.lags.empty()));
    if (show) out.push_back(&s);
  }
  return out;
}

inline bool any_included(const std::vector<const Finding*>& fs) {
  for (const auto* f : fs)
    if (f->branch && f->branch->included_in_historical_comparison) return true;
  return false;
}

inline const SetReport* set_of(const AnalysisReport& r, const DiscriminantSet& s) {
  for (const auto& x : r.sets)
    if (x.set == s) return &x;
  return nullptr;
}

// Split a set's findings into primary and additional excursions (docs/formats.md#tokens).
inline void split_primary(const std::vector<const Finding*>& fs, bool has_comparison,
                          std::vector<const Finding*>& primary, std::vector<const Finding*>& other) {
  for (const auto* f : fs) (f->is_primary(has_comparison) ? primary : other).push_back(f);
}

}  // namespace benchhist::report::detail
