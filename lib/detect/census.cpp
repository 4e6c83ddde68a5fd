// Census, coverage and outcome (detection.md §12).
#include "benchhist/detect/census.hpp"

namespace benchhist::detect {

namespace {
constexpr std::array<std::string_view, unjudged_reason_count> reason_tokens{
    "ghost",
    "ignored",
    "too_few_points",
    "too_few_points_since_blessing",
    "not_measured_on_branch",
    "too_few_base_commits",
    "too_few_base_commits_since_blessing",
    "current_base_regime_unresolved",
};
}  // namespace

std::string_view to_string(UnjudgedReason r) noexcept { return reason_tokens[static_cast<std::size_t>(r)]; }

std::optional<UnjudgedReason> parse_unjudged_reason(std::string_view token) noexcept {
  for (std::size_t i = 0; i < reason_tokens.size(); ++i)
    if (reason_tokens[i] == token) return static_cast<UnjudgedReason>(i);
  return std::nullopt;
}

std::optional<UnjudgedReason> unjudged_reason(const ReasonInputs& in) noexcept {
  if (!in.present_at_context) return UnjudgedReason::ghost;
  if (in.matches_ignore_prefix) return UnjudgedReason::ignored;
  if (in.mode == AnalysisMode::history) {
    if (in.active_points < min_series_points)
      return in.active_start > 0 ? UnjudgedReason::too_few_points_since_blessing : UnjudgedReason::too_few_points;
    return std::nullopt;
  }
  if (!in.context_point) return UnjudgedReason::not_measured_on_branch;
  if (in.base_levels < min_series_points) {
    // UPSTREAM (OPEN-2): only when the blessing drain caused the shortfall.
    if (in.blessed && in.base_levels_before_blessing >= min_series_points)
      return UnjudgedReason::too_few_base_commits_since_blessing;
    return UnjudgedReason::too_few_base_commits;
  }
  if (in.regime_unresolved) return UnjudgedReason::current_base_regime_unresolved;
  return std::nullopt;
}

std::string_view to_string(Coverage c) noexcept {
  switch (c) {
    case Coverage::no_series: return "no_series";
    case Coverage::nothing_in_scope: return "nothing_in_scope";
    case Coverage::nothing_judged: return "nothing_judged";
    case Coverage::partial: return "partial";
    case Coverage::full: return "full";
  }
  return "no_series";
}

std::string_view to_string(Outcome o) noexcept {
  switch (o) {
    case Outcome::findings: return "findings";
    case Outcome::nothing_in_scope: return "nothing_in_scope";
    case Outcome::insufficient_baseline: return "insufficient_baseline";
    case Outcome::partial: return "partial";
    case Outcome::clean: return "clean";
  }
  return "clean";
}

Census summarize_census(const CensusCounts& counts) {
  Census c;
  c.judged = counts.judged;
  std::size_t unjudged = 0;
  for (std::size_t i = 0; i < unjudged_reason_count; ++i) {
    unjudged += counts.unjudged[i];
    if (counts.unjudged[i] > 0) c.reasons.emplace_back(static_cast<UnjudgedReason>(i), counts.unjudged[i]);
  }
  c.total = counts.judged + unjudged;
  c.in_scope = c.total - counts.unjudged[static_cast<std::size_t>(UnjudgedReason::ghost)] -
               counts.unjudged[static_cast<std::size_t>(UnjudgedReason::ignored)];
  c.unjudged = c.total - c.judged;
  if (c.total == 0) c.coverage = Coverage::no_series;
  else if (c.in_scope == 0) c.coverage = Coverage::nothing_in_scope;
  else if (c.judged == 0) c.coverage = Coverage::nothing_judged;
  else if (c.judged < c.in_scope) c.coverage = Coverage::partial;
  else c.coverage = Coverage::full;
  c.notable = counts.findings > 0;
  if (c.notable) c.outcome = Outcome::findings;
  else if (c.coverage == Coverage::no_series || c.coverage == Coverage::nothing_in_scope)
    c.outcome = Outcome::nothing_in_scope;
  else if (c.coverage == Coverage::nothing_judged) c.outcome = Outcome::insufficient_baseline;
  else if (c.coverage == Coverage::partial) c.outcome = Outcome::partial;
  else c.outcome = Outcome::clean;
  return c;
}

}  // namespace benchhist::detect
