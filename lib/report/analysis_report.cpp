// Tokens, census arithmetic and per-set views of the report model (formats.md §7.2,
// detection.md §11–§12).

#include "benchhist/report/analysis_report.hpp"

#include <algorithm>

namespace benchhist::report {

std::string_view to_string(AnalysisMode m) noexcept {
  return m == AnalysisMode::branch ? "branch" : "history";
}

std::string_view to_string(CoverageState c) noexcept {
  switch (c) {
    case CoverageState::no_series: return "no_series";
    case CoverageState::nothing_in_scope: return "nothing_in_scope";
    case CoverageState::nothing_judged: return "nothing_judged";
    case CoverageState::partial: return "partial";
    case CoverageState::full: return "full";
  }
  return "no_series";
}

std::string_view to_string(Outcome o) noexcept {
  switch (o) {
    case Outcome::findings: return "findings";
    case Outcome::clean: return "clean";
    case Outcome::partial: return "partial";
    case Outcome::insufficient_baseline: return "insufficient_baseline";
    case Outcome::nothing_in_scope: return "nothing_in_scope";
  }
  return "nothing_in_scope";
}

std::string_view to_string(FindingMethod m) noexcept {
  switch (m) {
    case FindingMethod::change_point: return "change_point";
    case FindingMethod::drift: return "drift";
    case FindingMethod::branch_excursion: return "branch_excursion";
  }
  return "change_point";
}

std::string_view method_label(FindingMethod m) noexcept {
  switch (m) {
    case FindingMethod::change_point: return "change point";
    case FindingMethod::drift: return "drift";
    case FindingMethod::branch_excursion: return "branch excursion";
  }
  return "change point";
}

std::string_view to_string(Direction d) noexcept {
  return d == Direction::improvement ? "improvement" : "regression";
}

std::string_view to_string(LagReason r) noexcept {
  return r == LagReason::discriminant_set_mismatch ? "discriminant_set_mismatch" : "no_recent_base_data";
}

std::string_view lag_phrase(LagReason r) noexcept {
  return r == LagReason::discriminant_set_mismatch ? "discriminant set mismatch"
                                                   : "no base data at more recent commits";
}

std::string_view to_string(UnjudgedReason r) noexcept {
  switch (r) {
    case UnjudgedReason::ghost: return "ghost";
    case UnjudgedReason::ignored: return "ignored";
    case UnjudgedReason::too_few_points: return "too_few_points";
    case UnjudgedReason::too_few_points_since_blessing: return "too_few_points_since_blessing";
    case UnjudgedReason::not_measured_on_branch: return "not_measured_on_branch";
    case UnjudgedReason::too_few_base_commits: return "too_few_base_commits";
    case UnjudgedReason::too_few_base_commits_since_blessing: return "too_few_base_commits_since_blessing";
    case UnjudgedReason::current_base_regime_unresolved: return "current_base_regime_unresolved";
  }
  return "ghost";
}

std::string_view reason_phrase(UnjudgedReason r) noexcept {
  switch (r) {
    case UnjudgedReason::ghost: return "not measured at the analyzed context commit";
    case UnjudgedReason::ignored: return "ignored by configuration";
    case UnjudgedReason::too_few_points: return "with too few points in the analyzed window";
    case UnjudgedReason::too_few_points_since_blessing: return "with too few points since being blessed";
    case UnjudgedReason::not_measured_on_branch: return "not measured on the branch";
    case UnjudgedReason::too_few_base_commits: return "with too few base-ref commits to compare against";
    case UnjudgedReason::too_few_base_commits_since_blessing:
      return "with too few base-ref commits remaining since being blessed";
    case UnjudgedReason::current_base_regime_unresolved: return "whose current base regime is unresolved";
  }
  return "";
}

std::optional<UnjudgedReason> parse_unjudged_reason(std::string_view token) noexcept {
  for (auto r : all_unjudged_reasons)
    if (to_string(r) == token) return r;
  return std::nullopt;
}

std::string_view to_string(GateVerdict v) noexcept {
  switch (v) {
    case GateVerdict::passed: return "passed";
    case GateVerdict::declined: return "declined";
    case GateVerdict::not_run: return "not run";
    case GateVerdict::skipped: return "skipped";
  }
  return "passed";
}

std::uint64_t Census::unjudged() const noexcept {
  std::uint64_t n = 0;
  for (auto c : unjudged_by_reason) n += c;
  return n;
}

std::uint64_t Census::total() const noexcept { return judged + unjudged(); }

std::uint64_t Census::in_scope() const noexcept {
  return total() - count(UnjudgedReason::ghost) - count(UnjudgedReason::ignored);
}

CoverageState Census::coverage() const noexcept {
  if (total() == 0) return CoverageState::no_series;
  if (in_scope() == 0) return CoverageState::nothing_in_scope;
  if (judged == 0) return CoverageState::nothing_judged;
  if (judged < in_scope()) return CoverageState::partial;
  return CoverageState::full;
}

Outcome outcome_of(std::size_t finding_count, CoverageState coverage) noexcept {
  if (finding_count > 0) return Outcome::findings;
  switch (coverage) {
    case CoverageState::no_series:
    case CoverageState::nothing_in_scope: return Outcome::nothing_in_scope;
    case CoverageState::nothing_judged: return Outcome::insufficient_baseline;
    case CoverageState::partial: return Outcome::partial;
    case CoverageState::full: return Outcome::clean;
  }
  return Outcome::nothing_in_scope;
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

std::vector<const Finding*> AnalysisReport::findings_in(const DiscriminantSet& s) const {
  std::vector<const Finding*> out;
  for (const auto& f : findings)
    if (f.set == s) out.push_back(&f);
  return out;
}

std::vector<ComparisonBaseLag> ordered_lags(const std::vector<ComparisonBaseLag>& lags) {
  std::vector<ComparisonBaseLag> out;
  for (const auto& l : lags)
    if (std::find(out.begin(), out.end(), l) == out.end()) out.push_back(l);
  std::sort(out.begin(), out.end(), [](const ComparisonBaseLag& a, const ComparisonBaseLag& b) {
    if (a.commits_behind != b.commits_behind) return a.commits_behind > b.commits_behind;
    // mismatch before generic
    return a.reason == LagReason::discriminant_set_mismatch && b.reason != LagReason::discriminant_set_mismatch;
  });
  return out;
}

}  // namespace benchhist::report
