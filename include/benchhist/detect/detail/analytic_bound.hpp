#pragma once
// The analytic union bound of the split-search correction (docs/statistics.md#analytic-bound).
// Private to the split-search correction (detect/split_correction.hpp); exposed in
// benchhist::detect::detail only so the vectors and tests can pin it. Not API.

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <span>
#include <vector>

#include "benchhist/detect/detail/config.hpp"
#include "benchhist/detect/stats.hpp"

namespace benchhist::detect::detail {
BENCHHIST_DETAIL_BEGIN

// Analytic bound (docs/statistics.md#analytic-bound)

inline double binary_kl(double o, double e) noexcept {
  const double a = o == 0 ? 0.0 : o * std::log(o / e);
  const double b = o >= 1 ? 0.0 : (1 - o) * std::log((1 - o) / (1 - e));
  return a + b;
}

inline double serfling_bound(std::size_t n, std::size_t k, double deviation) noexcept {
  const auto kd = static_cast<double>(k);
  return std::exp(-2 * kd * deviation * deviation / (1 - (kd - 1) / static_cast<double>(n)));
}

inline double rank_sum_tail_bound(std::span<const std::int64_t> sorted, std::size_t k, double sum, bool upper) noexcept {
  const std::size_t n = sorted.size();
  const auto rmin = static_cast<double>(sorted.front());
  const auto rmax = static_cast<double>(sorted.back());
  const double range = rmax - rmin;
  if (range == 0) return 1.0;
  const double mu = ((static_cast<double>(n) + 1) - rmin) / range;
  const double theta = std::clamp((sum / static_cast<double>(k) - rmin) / range, 0.0, 1.0);
  if ((upper && theta <= mu) || (!upper && theta >= mu)) return 1.0;
  const double chernoff = std::exp(-static_cast<double>(k) * binary_kl(theta, mu));
  const double serfling = serfling_bound(n, k, theta - mu);
  return std::min(chernoff, serfling);
}

// The "reaches" limit of docs/statistics.md#analytic-bound: p_obs with a 64-epsilon allowance.
// NormalPLimit compares the unclamped normal p, so a p_obs below 1e-15 (S1's p_sharp) is honoured.
inline NormalPLimit rejection_limit(double p_obs) { return NormalPLimit(p_obs * (1 + 64 * machine_epsilon)); }

inline std::optional<std::int64_t> rejection_sum(std::span<const std::int64_t> sorted, std::size_t k, std::int64_t lo,
                                          std::int64_t hi, const NormalPLimit& limit, double tie_term, bool upper) {
  const std::size_t n = sorted.size();
  const NormalPLimit::Sizes sizes(k, n - k, tie_term);
  auto reaches = [&](std::int64_t s) { return limit.reaches(sizes, static_cast<double>(s) / 2); };
  const auto centre = static_cast<std::int64_t>(k * (n + 1));
  if (!upper) {
    if (!reaches(lo)) return std::nullopt;
    std::int64_t low = lo, high = centre;
    while (low < high) {
      const std::int64_t mid = low + (high - low + 1) / 2;
      if (reaches(mid)) low = mid;
      else high = mid - 1;
    }
    return low;
  }
  if (!reaches(hi)) return std::nullopt;
  std::int64_t low = centre, high = hi;
  while (low < high) {
    const std::int64_t mid = low + (high - low) / 2;
    if (reaches(mid)) high = mid;
    else low = mid + 1;
  }
  return low;
}

inline double approx_tail(std::span<const std::int64_t> sorted, std::size_t k, std::int64_t lo, std::int64_t hi,
                   const NormalPLimit& limit, double tie_term) {
  double lower = 0, upper = 0;
  if (auto s = rejection_sum(sorted, k, lo, hi, limit, tie_term, false))
    lower = rank_sum_tail_bound(sorted, k, static_cast<double>(*s), false);
  if (auto s = rejection_sum(sorted, k, lo, hi, limit, tie_term, true))
    upper = rank_sum_tail_bound(sorted, k, static_cast<double>(*s), true);
  return std::min(lower + upper, 1.0);
}

inline double analytic_bound_sorted(std::span<const std::int64_t> sorted, double p_obs, std::size_t min_regime,
                             std::size_t max_exact, double tie_term) {
  const std::size_t n = sorted.size();
  const std::size_t half = n / 2;
  if (min_regime > half) return 1.0;
  std::int64_t lo = 0, hi = 0;
  double bound = 0;
  const NormalPLimit limit = rejection_limit(p_obs);
  for (std::size_t k = 1; k <= half; ++k) {
    lo += sorted[k - 1];
    hi += sorted[n - k];
    if (k < min_regime) continue;
    const double c = k <= max_exact ? p_obs : approx_tail(sorted, k, lo, hi, limit, tie_term);
    bound += (2 * k == n ? 1.0 : 2.0) * c;  // a size occurs at a prefix and a suffix split
    if (bound >= 1) return 1.0;
  }
  return std::min(bound, 1.0);
}

inline std::optional<std::int64_t> closest_rejection_sum(std::span<const std::int64_t> sorted, std::size_t k, double p_obs,
                                                  bool upper) {
  const std::size_t n = sorted.size();
  std::int64_t lo = 0, hi = 0;
  for (std::size_t i = 0; i < k; ++i) {
    lo += sorted[i];
    hi += sorted[n - 1 - i];
  }
  return rejection_sum(sorted, k, lo, hi, rejection_limit(p_obs), tie_term_from_doubled_ranks(sorted), upper);
}

inline std::size_t max_exact_size(std::size_t n, std::size_t min_regime) noexcept {
  std::size_t best = 0;
  for (std::size_t s = min_regime; s <= n / 2; ++s) {
    if (!exact_mw_feasible(s, n - s)) break;
    best = s;
  }
  return best;
}

inline double analytic_bound(std::span<const std::int64_t> doubled, double p_obs, std::size_t min_regime) {
  std::vector<std::int64_t> sorted(doubled.begin(), doubled.end());
  std::sort(sorted.begin(), sorted.end());
  return analytic_bound_sorted(sorted, p_obs, min_regime, max_exact_size(sorted.size(), min_regime),
                               tie_term_from_doubled_ranks(sorted));
}

BENCHHIST_DETAIL_END
}  // namespace benchhist::detect::detail
