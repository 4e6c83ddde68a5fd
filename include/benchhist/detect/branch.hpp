#pragma once
// Branch mode, the SEED version (docs/statistics.md#branch-excursion, #excursion-gates, #census
// rows 5-8). Pure: no I/O, no clock, no git, no storage. The caller (analysis/pipeline)
// reconstructs the inputs (docs/branch-mode.md#inputs-one-branchseriesinput-per-series).
//
// ENTRY POINTS (in the order the analyze pipeline calls them)
//   1. judge_branch_batch(inputs, threads)        -> one BranchJudgement per series (docs/statistics.md),
//      or judge_branch(input) for a single series. Census reason = BranchJudgement::unjudged;
//      the finding (if any) = BranchJudgement::finding; the logged ladder = excursion.gates.
//   2. compare_historical_turns_by_set(inputs, judgements, sets)
//      -> the docs/statistics.md#historical-turn-comparison report-wide comparison per discriminant set (nullopt = "could not be
//      formed"); it also says which series are included_in_historical_comparison.
//      The sentence is prose and lives with the reports (report/prose.hpp).
//      rank_branch_findings() orders the findings for the report (docs/statistics.md#ranking-and-determinism).
//   3. detect/lag.hpp: comparison_base_lag() per finding; ordered_lags() (model/verdict.hpp) per set (docs/statistics.md#comparison-base-lag).
// Building blocks, in detect::detail (not API; exposed so tests can pin them):
// select_current_regime, evaluate_excursion, is_stable_regime
// (docs/statistics.md#historical-turn-comparison step 1), candidate_commits
// (docs/statistics.md#historical-turn-comparison step 2).
//
// Inputs are one series each: its base window (already collapsed to one level per commit,
// capped to the newest 128 and blessing-drained, oldest first), the tip observation (the
// context commit's latest run) and the blessing facts. Nothing here looks at the branch's
// intermediate commits.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "benchhist/detect/candidate.hpp"
#include "benchhist/detect/census.hpp"
#include "benchhist/detect/gate.hpp"
#include "benchhist/detect/history.hpp"
#include "benchhist/model/discriminant.hpp"
#include "benchhist/model/metric.hpp"

namespace benchhist::detect {

// docs/statistics.md#constants branch constants.
inline constexpr std::size_t min_branch_base_commits = min_series_points;
inline constexpr std::size_t min_branch_regime_selection_commits = 20;   // 2 x MIN_SERIES_POINTS
inline constexpr std::size_t branch_min_regime = 5;                      // MIN_REGIME (levels)
inline constexpr double branch_practical_relative = 0.05;                // inclusive >=
inline constexpr double min_base_split_separation = 0.95;                // inclusive >=
inline constexpr double max_branch_regime_chance_level = 0.05;           // whole recursive search
inline constexpr std::uint64_t branch_search_budget = 259'200;           // MIN_CHANGE_PERMUTATION_ORDER
inline constexpr std::size_t min_unresolved_branch_regime_points = 2;    // trailing 2..4
inline constexpr std::size_t max_unresolved_branch_regime_points = 4;
inline constexpr double branch_noise_band_multiple = 2.0;                // strict >
inline constexpr std::size_t min_branch_comparison_commits = 5;          // family minimum
inline constexpr std::size_t max_branch_multiway_seeds = 1024;
inline constexpr std::size_t max_branch_pairwise_seeds = 512;
inline constexpr double mann_kendall_stability_alpha = 0.05;             // docs/statistics.md#historical-turn-comparison step 1 (not doubled)

// One base level (docs/branch-mode.md#inputs-one-branchseriesinput-per-series): a base-line
// commit's clean runs collapsed to their median. Values and intervals are in the series metric's
// unit (unit_of(kind): ns, bytes or a count).
struct BranchBaseLevel {
  std::int64_t topo = 0;                  // first-parent index on the base line
  std::string commit;
  double value = 0;                       // in unit_of(kind)
  std::optional<Interval> interval;       // same unit
  friend bool operator==(const BranchBaseLevel&, const BranchBaseLevel&) = default;
};

// The context commit's latest run (docs/branch-mode.md#inputs-one-branchseriesinput-per-series).
struct BranchObservation {
  double value = 0;                  // in unit_of(kind)
  std::optional<Interval> interval;  // same unit
  friend bool operator==(const BranchObservation&, const BranchObservation&) = default;
};

// docs/statistics.md#branch-excursion inputs of one series.
struct BranchSeriesInput {
  std::vector<BranchBaseLevel> base;          // the base window, oldest first (the pipeline passes the newest 128)
  std::size_t base_history_count = 0;         // levels before cap and blessing drain (>= base.size())
  bool blessed = false;                       // a blessing drained this window (docs/pipeline.md#reconstruction)
  std::optional<std::string> blessing_commit; // the blessed commit, reported as the regime start
  std::optional<BranchObservation> tip;       // nullopt = not measured on the branch
  MetricKind kind = MetricKind::wall_time;
};

// docs/statistics.md#current-regime result. Positions are window positions (indices into `base`).
struct RegimeSelection {
  bool ran = false;                            // >= 20 levels: lanes and boundary search
  std::optional<double> search_alpha;          // shared per-search alpha, when it ran
  std::vector<std::size_t> selector_boundaries;  // ascending indices into the selector lane
  std::size_t current_start = 0;               // first window position of the current regime
  std::optional<std::pair<double, double>> previous_range;  // (min, max) of the previous regime
  bool unresolved = false;                     // docs/statistics.md#current-regime unresolved check fired
};

namespace detail {
// docs/statistics.md#current-regime on the window values (oldest first) and their base-line topo
// indices. Building block of judge_branch, exposed so tests can pin it.
// Throws Error{usage} when values and topo differ in length; Error{internal} on a bug (the Pettitt
// split disagrees with the selection adjustment).
RegimeSelection select_current_regime(std::span<const double> values, std::span<const std::int64_t> topo,
                                      MetricKind kind);
}  // namespace detail

enum class Relation { inside, above, below };
constexpr std::string_view to_string(Relation r) noexcept {
  return r == Relation::inside ? "inside" : r == Relation::above ? "above" : "below";
}

// docs/statistics.md#excursion-gates for one candidate value against a set of references.
struct Excursion {
  Relation relation = Relation::inside;
  std::size_t reference_count = 0;
  double reference_min = 0;
  double reference_max = 0;
  std::optional<double> edge;             // lo (below) or hi (above); none when inside
  std::optional<double> excess;           // y - edge (signed)
  std::optional<double> relative_excess;  // relative(excess, edge)
  GateLadder gates;                       // the full logged ladder (docs/statistics.md#excursion-gates gates 2-6)
  bool passed = false;                    // every gate passed: a finding
};

namespace detail {
// `references` must be non-empty; `reference_intervals` is empty or one per reference.
// Building block of judge_branch, exposed so tests can pin it.
// Throws Error{usage} when `references` is empty.
Excursion evaluate_excursion(double y, const std::optional<Interval>& y_interval, std::span<const double> references,
                             std::span<const std::optional<Interval>> reference_intervals, MetricKind kind);
}  // namespace detail

inline constexpr std::string_view branch_method_token = "branch_excursion";

// docs/statistics.md#excursion-gates finding fields (the commit is the context commit, which the
// caller knows).
struct BranchFinding {
  Direction direction = Direction::regression;
  Relation relation = Relation::above;
  double baseline = 0;        // = edge
  double latest = 0;          // = tip value
  double delta = 0;           // = excess
  double relative_delta = 0;  // = relative excess
  std::size_t reference_count = 0;
  double reference_min = 0;
  double reference_max = 0;
  std::optional<std::string> current_regime_start;  // boundary commit, else blessing commit, else none
  bool matches_previous_regime = false;
  bool included_in_historical_comparison = false;   // set by compare_historical_turns*
  std::int64_t comparison_base_index = 0;           // topo of the newest base level (docs/statistics.md#comparison-base-lag)
};

struct BranchJudgement {
  std::optional<UnjudgedReason> unjudged;  // nullopt = judged (docs/statistics.md#judgment-order)
  RegimeSelection regime;                  // filled from step 3 on (also when unresolved)
  Excursion excursion;                     // judged only
  std::optional<BranchFinding> finding;    // judged and every gate passed
  std::optional<std::size_t> current_regime_start_index;  // judged only (window position)
  std::optional<std::string> current_regime_start_commit; // boundary commit (no blessing fallback)
  bool matches_previous_regime = false;
  bool stable_for_comparison = false;      // docs/statistics.md#historical-turn-comparison step 1 (judged only)
  std::optional<std::int64_t> comparison_base_index;      // judged only
  std::vector<std::int64_t> candidate_commits;            // docs/statistics.md#historical-turn-comparison step 2 (judged only), ascending
  bool judged() const noexcept { return !unjudged; }
};

// One series end to end (docs/statistics.md#judgment-order, #current-regime, #excursion-gates).
// Throws Error{usage} (subject = the commit, or "context observation") for a non-finite tip or
// base level or a base window out of first-parent order; Error{internal} on a bug.
BranchJudgement judge_branch(const BranchSeriesInput& input);

// Every series with `threads` workers (0 = 1); results in input order, independent of timing.
// Throws as judge_branch does (the error of the lowest failing series).
std::vector<BranchJudgement> judge_branch_batch(std::span<const BranchSeriesInput> inputs, unsigned threads);

namespace detail {
// docs/statistics.md#historical-turn-comparison step 1 on the current regime's level values
// (building block, exposed for tests).
bool is_stable_regime(std::span<const double> regime_values);

// docs/statistics.md#historical-turn-comparison step 2: topo indices of the reference-lane (odd
// window position) levels from `start`.
std::vector<std::int64_t> candidate_commits(std::span<const BranchBaseLevel> base, std::size_t start);
}  // namespace detail

// docs/statistics.md#historical-turn-comparison per discriminant set.
struct HistoricalComparison {
  std::vector<std::size_t> members;      // series indices (ascending) forming the family
  std::vector<std::int64_t> commits;     // the family's common candidate commits, ascending
  double branch_score = 0;
  std::vector<double> base_scores;       // one per commit, ascending commit order
  std::size_t evaluated_base_commits() const noexcept { return commits.size(); }
  std::size_t at_least_as_much = 0;      // historical turns with score >= branch score
  std::size_t series() const noexcept { return members.size(); }
};

// One set: `inputs`/`judgements` are that set's series (same order). nullopt = could not be formed.
// Throws Error{usage} when inputs and judgements differ in length.
std::optional<HistoricalComparison> compare_historical_turns(std::span<const BranchSeriesInput> inputs,
                                                             std::span<const BranchJudgement> judgements);

struct SetComparison {
  DiscriminantSet set;
  std::optional<HistoricalComparison> comparison;  // member indices refer to the whole batch
};

// Every set present among `sets` (one per series), in set order. Marks members' findings
// included_in_historical_comparison in `judgements`.
// Throws Error{usage} when inputs, judgements and sets differ in length.
std::vector<SetComparison> compare_historical_turns_by_set(std::span<const BranchSeriesInput> inputs,
                                                           std::span<BranchJudgement> judgements,
                                                           std::span<const DiscriminantSet> sets);

// docs/statistics.md#ranking-and-determinism branch ranking: indices of the series with a finding,
// by descending |relative_delta| (total order), then (set, id, kind) from `keys` (one per series;
// empty = input order).
// Throws Error{usage} when `keys` is non-empty and its length differs from `judgements`.
std::vector<std::size_t> rank_branch_findings(std::span<const BranchJudgement> judgements,
                                              std::span<const SeriesKey> keys = {});


}  // namespace benchhist::detect

#ifdef BENCHHIST_HEADER_ONLY
#include "benchhist/detect/detail/branch_impl.hpp"
#endif
