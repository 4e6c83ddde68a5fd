#pragma once
// The wander guard of history detection (docs/divergences.md#s4--wander-is-not-a-step): slowly
// wandering (autocorrelated) noise changes level for a while and a rank test cannot tell that from
// a step, so when a series shows lag-one autocorrelation in both its first differences and its
// model residuals, the residual gates demand more. It can only remove candidates: rho = 0 leaves
// every gate exactly as it was.

#include <cstddef>
#include <optional>
#include <span>

namespace benchhist::detect {

inline constexpr std::size_t wander_min_points = 20;    // fewer: too noisy to estimate
inline constexpr double wander_max_rho = 0.95;           // cap, so the demands stay finite
inline constexpr double wander_distinct_differences = 0.75;  // quantisation guard

// Lag-one autocorrelation r1 = sum c_i c_(i+1) / sum c_i^2 of the demeaned doubled ranks c of
// `xs` (docs/statistics.md#ranks). With `skip`, that element is left out of the ranking and the
// pairs that touch it are not counted. 0 when sum c^2 = 0.
double rank_autocorrelation(std::span<const double> xs, std::optional<std::size_t> skip = std::nullopt);

// rho of docs/divergences.md#s4--wander-is-not-a-step for a judged series `x` and its model
// residuals (same length): 0 unless n >= 20, at least 3/4 of the first differences are distinct,
// rho_d = 1 + 2 r1(differences, leaving out `skip_difference`) > 3/sqrt(n) + 1/n and
// r1(residuals) > 1.645/sqrt(n); then min(rho_d, 0.95).
double wander_rho(std::span<const double> x, std::span<const double> residuals,
                  std::optional<std::size_t> skip_difference = std::nullopt);

// Hamed-Rao variance factor of the Mann-Kendall S for AR(1) autocorrelations rho^k:
// 1 + 2 / (n(n-1)(n-2)) * sum_{k=1}^{n-3} (n-k)(n-k-1)(n-k-2) rho^k; exactly 1 for rho = 0.
double hamed_rao_factor(std::size_t n, double rho);

}  // namespace benchhist::detect

#ifdef BENCHHIST_HEADER_ONLY
#include "benchhist/detect/detail/wander_impl.hpp"
#endif
