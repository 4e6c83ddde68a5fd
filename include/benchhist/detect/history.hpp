#pragma once
// History mode, one series end to end (docs/pipeline.md#reconstruction,
// docs/statistics.md#change-point-ladder, #drift-ladder, #arbitration) and the family level
// (docs/statistics.md#benjamini-hochberg Benjamini-Hochberg,
// docs/statistics.md#ranking-and-determinism ranking). Pure: the caller supplies values and maps
// point indices back to commits.

#include <cstddef>
#include <optional>
#include <span>
#include <vector>

#include "benchhist/detect/candidate.hpp"
#include "benchhist/detect/census.hpp"
#include "benchhist/detect/departures.hpp"
#include "benchhist/detect/gate.hpp"
#include "benchhist/detect/split_correction.hpp"
#include "benchhist/model/benchmark_id.hpp"
#include "benchhist/model/discriminant.hpp"
#include "benchhist/model/metric.hpp"
#include "benchhist/model/series.hpp"

namespace benchhist::detect {

inline constexpr double max_change_chance_level = 0.05;          // alpha, strict <
inline constexpr double history_detector_count = 2;              // chance levels doubled
inline constexpr double target_false_discovery_rate = 0.10;      // q
inline constexpr double practical_relative = 0.03;               // inclusive >=
inline constexpr double residual_noise_multiple = 3.0;           // strict >
inline constexpr double min_regime_separation = 0.85;            // inclusive >=
inline constexpr double noise_band_multiple = 2.0;               // strict >
inline constexpr double current_level_share = 0.5;               // inclusive >=, S5 (docs/divergences.md)

// Absolute floor by metric kind (docs/statistics.md#constants), in the metric's unit
// (unit_of(kind)): 1 ns for wall_time and processor_time, 5 instructions or branches for the
// instruction and branch counts, 1 byte or 1 allocation for the allocation metrics. A move smaller
// than this is never a finding, so series must be passed in these units (nanoseconds, not seconds).
double absolute_floor(MetricKind kind) noexcept;

// One series as history mode sees it: every reconstructed point oldest first
// (docs/pipeline.md#reconstruction), an optional interval per point (empty span = none carries
// one), and the blessing start. Values and intervals are in the metric's unit (unit_of(kind),
// model/metric.hpp: ns, bytes or a count). A non-owning view; detect::Series (detect/detector.hpp)
// owns one.
struct SeriesInput {
  std::span<const double> values;                      // in unit_of(kind)
  std::span<const std::optional<Interval>> intervals;  // empty, or one per value (same unit)
  MetricKind kind = MetricKind::wall_time;
  std::size_t active_start = 0;                        // index of the first active point (docs/pipeline.md#reconstruction)
};

// The analysed view: newest min(len(active), 1000) active points (docs/pipeline.md#reconstruction).
struct AnalysedView {
  std::size_t offset = 0;  // index of the view's first point in the full series
  std::size_t length = 0;
};
AnalysedView analysed_view(const SeriesInput& s) noexcept;

// Testability (docs/statistics.md#census rows 3-4): nullopt = judged.
std::optional<UnjudgedReason> history_testability(const SeriesInput& s) noexcept;


// Change-point cheap gates (docs/statistics.md#change-point-ladder steps 1-8, and
// docs/divergences.md S3, S4, S5); carries what arbitration and docs/statistics.md#selection-correction
// need. The most likely split (S3; Pettitt's without it) decides min_regime; gates 3-8 and the
// candidate are taken at the new level's estimated start (S2), the two-median refinement of it.
struct ChangePointStage {
  GateLadder ladder;
  std::optional<Candidate> candidate;  // set when every cheap gate passed
  std::optional<double> step_residual;
  std::optional<std::size_t> level_start;  // the new level's estimated start, once min_regime passed
};
// `shared_tables` (optional) shares exact tables across the series of one analysis (speed only).
ChangePointStage change_point_cheap_gates(std::span<const double> x,
                                          std::span<const std::optional<Interval>> intervals, MetricKind kind,
                                          detail::Departures departures = {},
                                          const detail::SharedExactTables* shared_tables = nullptr);

struct DriftStage {
  GateLadder ladder;
  std::optional<Candidate> candidate;  // set when every drift gate passed
  std::optional<double> line_residual;
};
// With the wander guard (S4) a significant Mann-Kendall trend is retested with its variance
// inflated for the series' autocorrelation. With the shape guard (S6) the line must keep its
// slope within the levels either side of `level_start`, the change-point ladder's estimate of
// where a new level begins (ChangePointStage::level_start); without one the gate abstains.
DriftStage drift_detector(std::span<const double> x, std::span<const std::optional<Interval>> intervals,
                          MetricKind kind, detail::Departures departures = {},
                          std::optional<std::size_t> level_start = std::nullopt);

struct HistoryJudgement {
  std::optional<UnjudgedReason> unjudged;  // nullopt = judged
  AnalysedView view;
  GateLadder change_point;                 // full logged ladders
  GateLadder drift;
  std::optional<Candidate> candidate;      // after arbitration and significance (any direction)
  std::optional<double> tainted_p;         // when the selection adjustment ran
  std::optional<double> adjusted_p;
  bool judged() const noexcept { return !unjudged; }
};

// Judges series of one analysis; `family_size` (m, docs/statistics.md#benjamini-hochberg) sets the
// docs/statistics.md#budgets calibration (0 is taken as 1: a series judged alone). judge() only reads the judge, so threads may share one
// (judge_history_batch's workers do).
class HistoryJudge {
 public:
  explicit HistoryJudge(std::size_t family_size, detail::Departures departures = {});
  std::size_t family_size() const noexcept { return family_size_; }
  const SplitCalibration& calibration() const noexcept { return calibration_; }
  // Throws Error{usage} (subject "SeriesInput.intervals") when intervals is neither empty nor one
  // per value or an interval is inverted or not finite, (subject "SeriesInput.values") for a value
  // that is not finite; Error{internal} on a bug (no reportable split after the min_regime gate).
  HistoryJudgement judge(const SeriesInput& series) const;

 private:
  std::size_t family_size_;
  detail::Departures departures_;
  SplitCalibration calibration_;
};

// Family size m = number of series history testability judges
// (docs/statistics.md#benjamini-hochberg).
std::size_t history_family_size(std::span<const SeriesInput> series) noexcept;

// Judges every series with `threads` workers (>= 1); results are in input order and do not
// depend on thread timing. `family_size` defaults to history_family_size(series).
// Throws as HistoryJudge::judge does (the error of the lowest failing series).
std::vector<HistoryJudgement> judge_history_batch(std::span<const SeriesInput> series, unsigned threads,
                                                  std::optional<std::size_t> family_size = std::nullopt,
                                                  detail::Departures departures = {});

// docs/statistics.md#benjamini-hochberg step-up on chance levels (input order kept); thresholds are
// (k/m)*q.
// Throws Error{usage} when family_size is smaller than the number of chance levels, q is not in
// (0, 1], or a chance level is NaN.
std::vector<bool> benjamini_hochberg(std::span<const double> chance_levels, std::size_t family_size, double q);
// (rank/family_size)*q; requires 1 <= rank <= family_size (no check: the step-up's inner loop).
double bh_rank_threshold(std::size_t rank, std::size_t family_size, double q) noexcept;

struct Finding {
  std::size_t series = 0;  // index into the judged batch
  Candidate candidate;
};

enum class DropReason { direction_filter, benjamini_hochberg };

struct FamilyResult {
  std::size_t family_size = 0;
  std::vector<Finding> findings;                          // ranked (docs/statistics.md#ranking-and-determinism)
  std::vector<std::optional<DropReason>> dropped;         // per series; set when a candidate was dropped
};

// docs/statistics.md#ranking-and-determinism order of two findings; `keys` (one per series, may be
// empty) break ties after method, otherwise the series index does (callers pass series already in
// (set, id, kind) order).
bool finding_ranks_before(const Finding& a, const Finding& b, std::span<const SeriesKey> keys);

// Direction filter, then BH over the regressions with the family size m, then ranking.
// Throws Error{usage} when `keys` is non-empty and its length differs from `judgements`;
// Error{usage} when family_size is smaller than the regression candidates (benjamini_hochberg).
FamilyResult select_history_findings(std::span<const HistoryJudgement> judgements, std::size_t family_size,
                                     std::span<const SeriesKey> keys = {});

// One history family end to end, as `analyze` judges it: the family size is the number of
// series testability judges, every series is judged with that calibration on `threads`
// workers, then the direction filter, Benjamini-Hochberg and ranking. Same result for every
// thread count. `keys` (one per series, or none) break ranking ties.
// judge_history_family throws Error{usage} for keys of the wrong length before judging anything;
// for intervals of the wrong length, a value that is not finite, or an interval that is inverted
// or not finite, it returns nothing and names the lowest such series (by its key when `keys` are
// given; the same one for every thread count) and the point (see HistoryJudge::judge). Each series
// is checked as it is judged, so the refusal comes after the family's other series were judged:
// judging reads each value once. Error{internal} on a bug.
struct HistoryFamily {
  std::vector<HistoryJudgement> judgements;  // in input order
  FamilyResult result;
};
HistoryFamily judge_history_family(std::span<const SeriesInput> series, unsigned threads,
                                   std::span<const SeriesKey> keys = {}, detail::Departures departures = {});

}  // namespace benchhist::detect

#ifdef BENCHHIST_HEADER_ONLY
#include "benchhist/detect/detail/history_impl.hpp"
#endif
