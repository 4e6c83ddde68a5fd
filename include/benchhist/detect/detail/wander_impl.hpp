#pragma once
// The wander guard (docs/divergences.md#s4--wander-is-not-a-step).
// Implementation of detect/wander.hpp, compiled by lib/detect/wander.cpp (or inline everywhere
// with BENCHHIST_HEADER_ONLY, see detect/detail/config.hpp).

#include "benchhist/detect/detail/config.hpp"
#include "benchhist/detect/wander.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include "benchhist/detect/stats.hpp"

namespace benchhist::detect {

BENCHHIST_DETECT_INLINE double rank_autocorrelation(std::span<const double> xs, std::optional<std::size_t> skip) {
  std::vector<double> kept;
  kept.reserve(xs.size());
  for (std::size_t i = 0; i < xs.size(); ++i)
    if (!skip || i != *skip) kept.push_back(xs[i]);
  const std::size_t m = kept.size();
  if (m < 2) return 0.0;
  const std::vector<std::int64_t> r = doubled_ranks(kept);
  const auto centre = static_cast<std::int64_t>(m + 1);  // mean of the doubled ranks, exactly
  std::int64_t num = 0, den = 0;  // exact: |c| < 2m
  for (std::size_t i = 0; i < m; ++i) {
    const std::int64_t c = r[i] - centre;
    den += c * c;
    // kept[i] and kept[i + 1] are neighbours in xs unless the skipped element sat between them.
    const bool adjacent = !skip || i + 1 != *skip;
    if (i + 1 < m && adjacent) num += c * (r[i + 1] - centre);
  }
  if (den == 0) return 0.0;
  return static_cast<double>(num) / static_cast<double>(den);
}

BENCHHIST_DETECT_INLINE double wander_rho(std::span<const double> x, std::span<const double> residuals,
                                          std::optional<std::size_t> skip_difference) {
  const std::size_t n = x.size();
  if (n < wander_min_points || residuals.size() != n) return 0.0;
  std::vector<double> diff(n - 1);
  for (std::size_t i = 0; i + 1 < n; ++i) diff[i] = x[i + 1] - x[i];
  {
    std::vector<std::int64_t> keys(n - 1);
    for (std::size_t i = 0; i + 1 < n; ++i) keys[i] = total_order_key(diff[i]);
    std::sort(keys.begin(), keys.end());
    const auto distinct = static_cast<double>(std::unique(keys.begin(), keys.end()) - keys.begin());
    if (distinct < wander_distinct_differences * static_cast<double>(n - 1)) return 0.0;  // quantised counts
  }
  const auto nd = static_cast<double>(n);
  const double rho_d = 1 + 2 * rank_autocorrelation(diff, skip_difference);
  if (!(rho_d > 3 / std::sqrt(nd) + 1 / nd)) return 0.0;
  if (!(rank_autocorrelation(residuals) > 1.645 / std::sqrt(nd))) return 0.0;
  return std::min(rho_d, wander_max_rho);
}

BENCHHIST_DETECT_INLINE double hamed_rao_factor(std::size_t n, double rho) {
  if (rho == 0 || n < 4) return 1.0;
  const auto nd = static_cast<double>(n);
  double sum = 0, power = 1;
  for (std::size_t k = 1; k + 3 <= n; ++k) {
    power *= rho;
    const auto rest = static_cast<double>(n - k);
    sum += rest * (rest - 1) * (rest - 2) * power;
  }
  return 1 + 2 / (nd * (nd - 1) * (nd - 2)) * sum;
}

}  // namespace benchhist::detect
