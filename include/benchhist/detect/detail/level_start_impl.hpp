#pragma once
// The reported split of a history change point
// (docs/divergences.md#s2--the-reported-split-is-the-new-levels-estimated-start).
// Implementation of detect/level_start.hpp, compiled by lib/detect/level_start.cpp (or inline
// everywhere with BENCHHIST_HEADER_ONLY, see detect/detail/config.hpp).

#include "benchhist/detect/detail/config.hpp"
#include "benchhist/detect/level_start.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

#include "benchhist/detect/detail/u128.hpp"
#include "benchhist/detect/stats.hpp"
#include "benchhist/error.hpp"

namespace benchhist::detect {

namespace detail {
BENCHHIST_DETAIL_BEGIN
BENCHHIST_DETAIL_INLINE void require_regimes(std::size_t n, std::size_t min_regime, const char* where) {
  if (min_regime == 0 || n < 2 * min_regime)
    throw Error(ErrorKind::usage,
                "a split search over " + std::to_string(n) + " points needs at least " +
                    std::to_string(2 * min_regime) + " points and a regime of at least one point",
                where, {}, "call it only on series that passed the min_regime gate");
}

// Median of ascending total-order keys (docs/statistics.md#numeric-conventions: the middle one, or
// (a + b) / 2 literally).
BENCHHIST_DETAIL_INLINE double median_of_sorted(const std::vector<std::int64_t>& keys) {
  const std::size_t m = keys.size() / 2;
  const double b = from_total_order_key(keys[m]);
  if (keys.size() % 2 == 1) return b;
  return (from_total_order_key(keys[m - 1]) + b) / 2;
}
BENCHHIST_DETAIL_END
}  // namespace detail

BENCHHIST_DETECT_INLINE std::size_t standardised_split(std::span<const std::int64_t> doubled, std::size_t min_regime) {
  const std::size_t n = doubled.size();
  detail::require_regimes(n, min_regime, "detect/standardised_split");
  const auto np1 = static_cast<std::int64_t>(n + 1);
  std::int64_t d = 0;
  for (std::size_t t = 1; t < min_regime; ++t) d += doubled[t - 1];
  std::size_t best = 0;
  detail::i128 best_u2 = 0, best_w = 1;  // incumbent's U_b^2 and b(n - b)
  for (std::size_t t = min_regime; t <= n - min_regime; ++t) {
    d += doubled[t - 1];
    const detail::i128 u = d - static_cast<std::int64_t>(t) * np1;
    const detail::i128 u2 = u * u;
    const detail::i128 w = static_cast<detail::i128>(t) * static_cast<detail::i128>(n - t);
    // U_t^2 / w_t > U_b^2 / w_b without division; the first t wins ties.
    if (best == 0 || u2 * best_w > best_u2 * w) {
      best = t;
      best_u2 = u2;
      best_w = w;
    }
  }
  return best;
}

BENCHHIST_DETECT_INLINE std::size_t two_median_refinement(std::span<const double> x, std::size_t coarse, std::size_t min_regime,
                                  std::size_t radius) {
  const std::size_t n = x.size();
  detail::require_regimes(n, min_regime, "detect/two_median_refinement");
  const std::size_t lo = std::max(min_regime, coarse > radius ? coarse - radius : 0);
  const std::size_t hi = std::min(n - min_regime, coarse + radius);
  if (lo > hi) return std::clamp(coarse, min_regime, n - min_regime);
  std::vector<std::int64_t> keys(n);
  for (std::size_t i = 0; i < n; ++i) keys[i] = total_order_key(x[i]);
  // Both regimes as sorted keys, moved one point across per candidate t.
  std::vector<std::int64_t> before(keys.begin(), keys.begin() + static_cast<std::ptrdiff_t>(lo));
  std::vector<std::int64_t> after(keys.begin() + static_cast<std::ptrdiff_t>(lo), keys.end());
  std::sort(before.begin(), before.end());
  std::sort(after.begin(), after.end());
  std::size_t best = lo;
  double best_cost = 0;
  for (std::size_t t = lo; t <= hi; ++t) {
    const double mb = detail::median_of_sorted(before);
    const double ma = detail::median_of_sorted(after);
    double prefix = 0, suffix = 0;
    for (std::size_t i = 0; i < t; ++i) prefix += std::fabs(x[i] - mb);
    for (std::size_t i = t; i < n; ++i) suffix += std::fabs(x[i] - ma);
    const double cost = prefix + suffix;
    if (t == lo || cost < best_cost) {  // strictly smaller: ties keep the earlier t
      best = t;
      best_cost = cost;
    }
    if (t == hi) break;
    const std::int64_t k = keys[t];
    before.insert(std::upper_bound(before.begin(), before.end(), k), k);
    after.erase(std::lower_bound(after.begin(), after.end(), k));
  }
  return best;
}

BENCHHIST_DETECT_INLINE std::size_t new_level_start(std::span<const double> x, std::span<const std::int64_t> doubled,
                            std::size_t min_regime) {
  return two_median_refinement(x, standardised_split(doubled, min_regime), min_regime);
}

}  // namespace benchhist::detect
