#pragma once
// Shared statistical primitives of history detection (docs/statistics.md#numeric-conventions,
// #primitives). Pure functions: no I/O, no clock, no global state. Ranks are kept "doubled" so
// every rank sum is an exact integer (docs/statistics.md#ranks).

#include <bit>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "benchhist/model/metric.hpp"

namespace benchhist::detect {

inline constexpr double machine_epsilon = 2.220446049250313e-16;
inline constexpr double p_value_floor = 1e-15;

// IEEE totalOrder key (docs/statistics.md#numeric-conventions): -0 sorts before +0, ties are
// bit-identical values.
// Negative values flip their magnitude bits so more negative sorts first; the map is its own
// inverse (from_total_order_key), so a selection may run on keys and return the exact value.
constexpr std::int64_t total_order_key(double x) noexcept {
  const auto bits = std::bit_cast<std::int64_t>(x);
  return bits ^ static_cast<std::int64_t>(static_cast<std::uint64_t>(bits >> 63) >> 1);
}
constexpr double from_total_order_key(std::int64_t key) noexcept {
  return std::bit_cast<double>(key ^ static_cast<std::int64_t>(static_cast<std::uint64_t>(key >> 63) >> 1));
}
inline bool total_less(double a, double b) noexcept { return total_order_key(a) < total_order_key(b); }

// Median under the total order; even count -> (a + b) / 2 literally
// (docs/statistics.md#numeric-conventions). Requires non-empty.
double median(std::vector<double> xs);
// relative(delta, base): delta / base, or sign(delta) when |base| <= machine epsilon
// (docs/statistics.md#numeric-conventions).
double relative(double delta, double base) noexcept;
// clamp_p (docs/statistics.md#numeric-conventions): non-finite -> 1, else clamp into [1e-15, 1].
double clamp_p(double p) noexcept;
// Two-sided normal p for a statistic z: clamp_p(erfc(|z| / sqrt 2)).
double normal_two_sided_p(double z) noexcept;

// Doubled average ranks (docs/statistics.md#ranks), in input order.
std::vector<std::int64_t> doubled_ranks(std::span<const double> xs);
// Tie term T = sum over tie groups (t^3 - t), read from doubled ranks (equal rank = tie group).
double tie_term_from_doubled_ranks(std::span<const std::int64_t> doubled);

// Pettitt split location (docs/statistics.md#pettitt-split) on doubled ranks (n >= 2).
struct PettittSplit {
  std::size_t index = 1;  // tau: first index of the "after" part
  std::int64_t d_tau = 0;  // sum of the first tau doubled ranks
  std::int64_t k = 0;      // max |U_t| (doubled units; equals Pettitt's K)
  double p_value = 1.0;    // reported for completeness only, never evidence
};
PettittSplit pettitt_from_ranks(std::span<const std::int64_t> doubled);
std::optional<PettittSplit> pettitt(std::span<const double> xs);

// Mann-Whitney U (docs/statistics.md#mann-whitney-u).
bool exact_mw_feasible(std::size_t n1, std::size_t n2) noexcept;
// Normal approximation from an ordinary (not doubled) rank sum of the left sample.
double mw_normal_p(std::size_t n1, std::size_t n2, double rank_sum_left, double tie_term) noexcept;
// Its p is clamp_p(erfc(w)) with this w (= z / sqrt 2); nullopt when the variance is not positive (p = 1).
std::optional<double> mw_normal_erfc_argument(std::size_t n1, std::size_t n2, double rank_sum_left,
                                              double tie_term) noexcept;

// The docs/statistics.md#mann-whitney-u normal p without clamp_p
// (docs/divergences.md#s1--the-analytic-certificate-at-the-unclamped-observed-p): min(erfc(z / sqrt
// 2), 1), or 1 when the variance is not positive. Positive for every z an n <= 1000 series can
// reach.
double mw_normal_p_unclamped(std::size_t n1, std::size_t n2, double rank_sum_left, double tie_term) noexcept;

// "unclamped normal p <= limit", answered mostly without erfc: erfc decreases, so an argument
// clearly past the crossing decides at once and only arguments within a relative 1e-7 of it
// are evaluated. For a limit >= 1e-15 this is exactly "mw_normal_p(...) <= limit" (the clamp
// cannot change the answer there); below it only the unclamped p can reach the limit, which is
// what the sharp analytic certificate needs. The selection adjustment asks it thousands of times
// per series with one limit.
class NormalPLimit {
 public:
  // mw_normal_erfc_argument's constants for one (n1, n2, tie term): a search over rank sums
  // at one split size computes them once.
  struct Sizes {
    Sizes(std::size_t n1, std::size_t n2, double tie_term) noexcept;
    double u_offset = 0, pairs = 0, mu = 0, sd = 0;
    bool positive_variance = false;
    std::optional<double> erfc_argument(double rank_sum_left) const noexcept;
  };
  explicit NormalPLimit(double limit) noexcept;
  bool reaches(std::size_t n1, std::size_t n2, double rank_sum_left, double tie_term) const noexcept;
  bool reaches(const Sizes& sizes, double rank_sum_left) const noexcept;

 private:
  double limit_;
  bool searched_ = false;
  double certainly_above_ = 0;        // w at or below: erfc(w) > limit
  double certainly_at_or_below_ = 0;  // w at or above: erfc(w) <= limit
};
struct MannWhitney {
  double two_sided_p = 1.0;
  double superiority = 0.5;  // P(right > left), ties 1/2
};
MannWhitney mann_whitney(std::span<const double> left, std::span<const double> right);

// Mann-Kendall trend test (docs/statistics.md#mann-kendall-trend).
struct MannKendall {
  double s = 0;
  double p_value = 1.0;
};
// `variance_factor` inflates the variance of S (docs/divergences.md#s4--wander-is-not-a-step's
// Hamed-Rao factor); 1 is the plain test.
MannKendall mann_kendall(std::span<const double> xs, double variance_factor = 1.0);

// Theil-Sen line over positions 0..n-1 (docs/statistics.md#theil-sen-line), n >= 2.
struct TheilSen {
  double slope = 0;
  double intercept = 0;
};
std::optional<TheilSen> theil_sen(std::span<const double> xs);

namespace detail {
// Theil-Sen's slope: the median of the pairwise slopes. A deterministic sample of
// `bracket_samples` slopes brackets the middle so one pass keeps only the slopes near it; fewer
// than 4 samples (or a bracket that misses) stores and selects every slope. Same value either
// way; exposed so tests can force both paths.
inline constexpr std::size_t theil_sen_bracket_samples = 8192;
double median_pairwise_slope(std::span<const double> xs, std::size_t bracket_samples);
// The same median from the slopes between `low` and `high` listed by inversions, the path the
// bracket takes first; nullopt when that path cannot answer exactly (then another decides).
// Exposed so tests see it answer.
std::optional<double> median_pairwise_slope_by_inversions(std::span<const double> xs, double low, double high);
}  // namespace detail

// Residual measures (docs/statistics.md#residuals): plain median absolute residuals.
std::optional<double> step_residual(std::span<const double> xs, std::size_t tau);
std::optional<double> line_residual(std::span<const double> xs, const TheilSen& line);

// Interval summaries (docs/statistics.md#interval-summaries). An empty span means "no point carries
// an interval".
std::optional<Interval> regime_interval(std::span<const std::optional<Interval>> intervals);
std::optional<double> median_half_width(std::span<const std::optional<Interval>> intervals);

}  // namespace benchhist::detect

#ifdef BENCHHIST_HEADER_ONLY
#include "benchhist/detect/detail/stats_impl.hpp"
#endif
