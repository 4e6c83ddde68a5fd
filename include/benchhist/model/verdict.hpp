#pragma once
// The verdict vocabulary: the words detection, the reports and the pipeline share (analysis
// mode, finding method, direction, unjudged and lag reasons, coverage, outcome) and the census
// that counts them (docs/statistics.md#comparison-base-lag, #census, #ranking-and-determinism,
// docs/formats.md#tokens). One definition each, one token spelling each (`to_string`/`parse_*`);
// the spellings are a contract of the JSON report.
// Header-only, no dependency beyond the standard library.

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace benchhist {

// The enumerator of E whose token is `token`, given E's token table in declaration order.
template <typename E, std::size_t N>
constexpr std::optional<E> parse_enum_token(const std::array<std::string_view, N>& tokens,
                                            std::string_view token) noexcept {
  for (std::size_t i = 0; i < N; ++i)
    if (tokens[i] == token) return static_cast<E>(i);
  return std::nullopt;
}

// ---- Analysis mode ------------------------------------------------------------------------

enum class AnalysisMode { history, branch };
inline constexpr std::array<std::string_view, 2> analysis_mode_tokens{"history", "branch"};
constexpr std::string_view to_string(AnalysisMode m) noexcept { return analysis_mode_tokens[static_cast<std::size_t>(m)]; }
constexpr std::optional<AnalysisMode> parse_analysis_mode(std::string_view t) noexcept {
  return parse_enum_token<AnalysisMode>(analysis_mode_tokens, t);
}

// ---- Finding method -----------------------------------------------------------------------

// Declaration order = ranking order (docs/statistics.md#ranking-and-determinism): change points
// before drift.
enum class FindingMethod { change_point, drift, branch_excursion };
inline constexpr std::array<std::string_view, 3> finding_method_tokens{"change_point", "drift", "branch_excursion"};
constexpr std::string_view to_string(FindingMethod m) noexcept { return finding_method_tokens[static_cast<std::size_t>(m)]; }
constexpr std::optional<FindingMethod> parse_finding_method(std::string_view t) noexcept {
  return parse_enum_token<FindingMethod>(finding_method_tokens, t);
}
// The prose form, e.g. `change point`.
constexpr std::string_view method_label(FindingMethod m) noexcept {
  constexpr std::array<std::string_view, 3> labels{"change point", "drift", "branch excursion"};
  return labels[static_cast<std::size_t>(m)];
}

// ---- Direction ----------------------------------------------------------------------------

enum class Direction { regression, improvement };
inline constexpr std::array<std::string_view, 2> direction_tokens{"regression", "improvement"};
constexpr std::string_view to_string(Direction d) noexcept { return direction_tokens[static_cast<std::size_t>(d)]; }
constexpr std::optional<Direction> parse_direction(std::string_view t) noexcept {
  return parse_enum_token<Direction>(direction_tokens, t);
}
// Every metric is lower-is-better: a positive move is a regression (docs/statistics.md#constants).
constexpr Direction direction_of(double delta) noexcept {
  return delta > 0 ? Direction::regression : Direction::improvement;
}

// ---- Unjudged reasons (docs/statistics.md#census)
// -------------------------------------------------------------

// Declaration order = pipeline order = report order.
enum class UnjudgedReason {
  ghost,
  ignored,
  too_few_points,
  too_few_points_since_blessing,
  not_measured_on_branch,
  too_few_base_commits,
  too_few_base_commits_since_blessing,
  current_base_regime_unresolved,
};
inline constexpr std::size_t unjudged_reason_count = 8;
inline constexpr std::array<UnjudgedReason, unjudged_reason_count> all_unjudged_reasons{
    UnjudgedReason::ghost,
    UnjudgedReason::ignored,
    UnjudgedReason::too_few_points,
    UnjudgedReason::too_few_points_since_blessing,
    UnjudgedReason::not_measured_on_branch,
    UnjudgedReason::too_few_base_commits,
    UnjudgedReason::too_few_base_commits_since_blessing,
    UnjudgedReason::current_base_regime_unresolved};
inline constexpr std::array<std::string_view, unjudged_reason_count> unjudged_reason_tokens{
    "ghost",
    "ignored",
    "too_few_points",
    "too_few_points_since_blessing",
    "not_measured_on_branch",
    "too_few_base_commits",
    "too_few_base_commits_since_blessing",
    "current_base_regime_unresolved",
};
constexpr std::string_view to_string(UnjudgedReason r) noexcept {
  return unjudged_reason_tokens[static_cast<std::size_t>(r)];
}
constexpr std::optional<UnjudgedReason> parse_unjudged_reason(std::string_view t) noexcept {
  return parse_enum_token<UnjudgedReason>(unjudged_reason_tokens, t);
}
// The prose form, e.g. `with too few points in the analyzed window`.
constexpr std::string_view reason_phrase(UnjudgedReason r) noexcept {
  constexpr std::array<std::string_view, unjudged_reason_count> phrases{
      "not measured at the analyzed context commit",
      "ignored by configuration",
      "with too few points in the analyzed window",
      "with too few points since being blessed",
      "not measured on the branch",
      "with too few base-ref commits to compare against",
      "with too few base-ref commits remaining since being blessed",
      "whose current base regime is unresolved",
  };
  return phrases[static_cast<std::size_t>(r)];
}

// ---- Comparison-base lag (docs/statistics.md#comparison-base-lag)
// ------------------------------------------------------------

// Declaration order = report order for equal gaps (mismatch before no-data).
enum class LagReason { discriminant_set_mismatch, no_recent_base_data };
inline constexpr std::array<std::string_view, 2> lag_reason_tokens{"discriminant_set_mismatch", "no_recent_base_data"};
constexpr std::string_view to_string(LagReason r) noexcept { return lag_reason_tokens[static_cast<std::size_t>(r)]; }
constexpr std::optional<LagReason> parse_lag_reason(std::string_view t) noexcept {
  return parse_enum_token<LagReason>(lag_reason_tokens, t);
}
// The prose form, e.g. `discriminant set mismatch`.
constexpr std::string_view lag_phrase(LagReason r) noexcept {
  return r == LagReason::discriminant_set_mismatch ? "discriminant set mismatch"
                                                   : "no base data at more recent commits";
}

// How far a branch finding's comparison base is behind the base ref, and why. Advisory only.
struct ComparisonBaseLag {
  std::int64_t commits_behind = 0;  // base-ref index − comparison-base index (commits)
  std::optional<LagReason> reason;  // nullopt when not lagging
  constexpr bool lags() const noexcept { return commits_behind > 0 && reason.has_value(); }
  friend bool operator==(const ComparisonBaseLag&, const ComparisonBaseLag&) = default;
};

// The lagging entries of one set, deduplicated, by commits_behind descending, then mismatch
// before no-data (docs/statistics.md#comparison-base-lag). Non-lagging entries are dropped.
inline std::vector<ComparisonBaseLag> ordered_lags(std::span<const ComparisonBaseLag> lags) {
  std::vector<ComparisonBaseLag> out;
  for (const auto& l : lags) {
    if (!l.lags()) continue;
    bool seen = false;
    for (const auto& o : out) seen = seen || o == l;
    if (!seen) out.push_back(l);
  }
  // Insertion sort: a set has a handful of lags, and the order is total after deduplication.
  for (std::size_t i = 1; i < out.size(); ++i)
    for (std::size_t j = i; j > 0; --j) {
      const auto& a = out[j - 1];
      const auto& b = out[j];
      const bool b_first = b.commits_behind != a.commits_behind ? b.commits_behind > a.commits_behind : *b.reason < *a.reason;
      if (!b_first) break;
      std::swap(out[j - 1], out[j]);
    }
  return out;
}

// ---- Coverage and outcome (docs/statistics.md#census)
// ---------------------------------------------------------

enum class Coverage { no_series, nothing_in_scope, nothing_judged, partial, full };
inline constexpr std::array<std::string_view, 5> coverage_tokens{"no_series", "nothing_in_scope", "nothing_judged",
                                                                 "partial", "full"};
constexpr std::string_view to_string(Coverage c) noexcept { return coverage_tokens[static_cast<std::size_t>(c)]; }
constexpr std::optional<Coverage> parse_coverage(std::string_view t) noexcept {
  return parse_enum_token<Coverage>(coverage_tokens, t);
}

// Declaration order = derivation order (docs/statistics.md#census, first match).
enum class Outcome { findings, nothing_in_scope, insufficient_baseline, partial, clean };
inline constexpr std::array<std::string_view, 5> outcome_tokens{"findings", "nothing_in_scope", "insufficient_baseline",
                                                                "partial", "clean"};
constexpr std::string_view to_string(Outcome o) noexcept { return outcome_tokens[static_cast<std::size_t>(o)]; }
constexpr std::optional<Outcome> parse_outcome(std::string_view t) noexcept {
  return parse_enum_token<Outcome>(outcome_tokens, t);
}
// Outcome from the finding count and the coverage.
constexpr Outcome outcome_of(std::size_t finding_count, Coverage coverage) noexcept {
  if (finding_count > 0) return Outcome::findings;
  switch (coverage) {
    case Coverage::no_series:
    case Coverage::nothing_in_scope: return Outcome::nothing_in_scope;
    case Coverage::nothing_judged: return Outcome::insufficient_baseline;
    case Coverage::partial: return Outcome::partial;
    case Coverage::full: return Outcome::clean;
  }
  return Outcome::nothing_in_scope;
}

// ---- Census (docs/statistics.md#census)
// -------------------------------------------------------------------------

// One reason per unjudged series; the counts derive every other census number, so they can
// never be inconsistent.
struct Census {
  std::uint64_t judged = 0;
  std::array<std::uint64_t, unjudged_reason_count> unjudged_by_reason{};
  // Keys of stored objects left out because they could not be read (--skip-unreadable),
  // sorted. Their series are not counted anywhere above: they were never seen.
  std::vector<std::string> skipped_unreadable;

  // Counts one series: judged (nullopt) or unjudged for `reason`.
  constexpr void add(std::optional<UnjudgedReason> reason) noexcept {
    if (reason) ++unjudged_by_reason[static_cast<std::size_t>(*reason)];
    else ++judged;
  }
  constexpr std::uint64_t count(UnjudgedReason r) const noexcept {
    return unjudged_by_reason[static_cast<std::size_t>(r)];
  }
  constexpr void set(UnjudgedReason r, std::uint64_t n) noexcept { unjudged_by_reason[static_cast<std::size_t>(r)] = n; }
  // Every unjudged series (out-of-scope included).
  constexpr std::uint64_t unjudged() const noexcept {
    std::uint64_t n = 0;
    for (auto c : unjudged_by_reason) n += c;
    return n;
  }
  constexpr std::uint64_t total() const noexcept { return judged + unjudged(); }
  // total − ghost − ignored
  constexpr std::uint64_t in_scope() const noexcept {
    return total() - count(UnjudgedReason::ghost) - count(UnjudgedReason::ignored);
  }
  // docs/statistics.md#census, first match.
  constexpr Coverage coverage() const noexcept {
    if (total() == 0) return Coverage::no_series;
    if (in_scope() == 0) return Coverage::nothing_in_scope;
    if (judged == 0) return Coverage::nothing_judged;
    if (judged < in_scope()) return Coverage::partial;
    return Coverage::full;
  }
  constexpr Outcome outcome(std::size_t finding_count) const noexcept { return outcome_of(finding_count, coverage()); }
  // The non-zero reasons in pipeline order.
  std::vector<std::pair<UnjudgedReason, std::uint64_t>> reasons() const {
    std::vector<std::pair<UnjudgedReason, std::uint64_t>> out;
    for (auto r : all_unjudged_reasons)
      if (count(r) > 0) out.emplace_back(r, count(r));
    return out;
  }
  friend bool operator==(const Census&, const Census&) = default;
};

}  // namespace benchhist
