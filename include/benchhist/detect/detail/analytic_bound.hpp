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
#include "benchhist/detect/detail/exact_table.hpp"
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

// docs/divergences.md#s3b--a-certificate-as-sharp-as-the-evidence
//
// Exact tails: the number of size-k subsets of `ascending` whose sum is at most cap[k], for every
// k with cap[k] >= 0 (a knapsack restricted to sums that can still end at or below some cap: a
// j-subset is kept only up to max_k (cap[k] - (sum of the k - j smallest values)), since any
// completion adds at least that). Counts are doubles (they pass 2^53); every operation adds
// non-negative numbers, so each count is within a relative (1 + eps)^(n + width) of the truth and
// exact_tail_probability rounds the ratio up past that. nullopt when the knapsack would take more
// than `budget` additions.
inline constexpr double exact_tail_budget = 2e7;  // additions (upper estimate), a few ms (docs/divergences.md)

struct TailCounts {
  std::vector<double> count;  // per size k (0 where not asked)
  std::vector<std::int64_t> width;  // the knapsack's sum range per size (for the rounding allowance)
};

inline std::optional<TailCounts> subset_counts_at_most(std::span<const std::int64_t> ascending,
                                                       const std::vector<std::int64_t>& cap, double budget) {
  const std::size_t n = ascending.size();
  std::size_t kk = 0;
  for (std::size_t k = 1; k < cap.size(); ++k)
    if (cap[k] >= 0) kk = k;
  TailCounts out;
  out.count.assign(cap.size(), 0.0);
  out.width.assign(cap.size(), 0);
  if (kk == 0) return out;
  std::vector<std::int64_t> minsum(kk + 1, 0);
  for (std::size_t j = 1; j <= kk; ++j) minsum[j] = minsum[j - 1] + ascending[j - 1];
  {  // the rows of the asked sizes alone already cost this much: give up before the quadratic part
    double least = 0;
    for (std::size_t k = 1; k <= kk; ++k)
      if (cap[k] >= minsum[k]) least += static_cast<double>(cap[k] - minsum[k] + 1);
    if (least * static_cast<double>(n) > budget) return std::nullopt;
  }
  std::vector<std::int64_t> top(kk + 1, -1);  // largest partial sum still useful per size
  for (std::size_t j = 0; j <= kk; ++j)
    for (std::size_t k = std::max<std::size_t>(j, 1); k <= kk; ++k)
      if (cap[k] >= 0) top[j] = std::max(top[j], cap[k] - minsum[k - j]);
  double work = 0;
  for (std::size_t j = 0; j <= kk; ++j) work += static_cast<double>(std::max<std::int64_t>(top[j] - minsum[j] + 1, 0));
  if (work * static_cast<double>(n) > budget) return std::nullopt;
  // Tighter per item: after item i a j-subset can still become a k-subset only by adding the
  // k - j items after i at the least, so row j needs sums up to
  // max(cap_j, max_{k > j} (cap_k - (a_(i+1) + ... + a_(i+k-j)))).
  std::vector<std::int64_t> prefix(n + 1, 0);
  for (std::size_t i = 0; i < n; ++i) prefix[i + 1] = prefix[i] + ascending[i];
  // O(kk) per row and item: worth it only while kk is small (n <= 200).
  const bool per_item = kk <= 100;
  auto row_cap = [&](std::size_t i, std::size_t j) {  // after items 0..i
    if (!per_item) return top[j];
    std::int64_t c = cap[j] >= 0 ? cap[j] : -1;
    for (std::size_t k = j + 1; k <= kk; ++k) {
      if (cap[k] < 0) continue;
      if (i + 1 + (k - j) > n) break;  // not enough items left
      c = std::max(c, cap[k] - (prefix[i + 1 + (k - j)] - prefix[i + 1]));
    }
    return std::min(c, top[j]);
  };
  std::vector<std::vector<double>> cnt(kk + 1);
  for (std::size_t j = 0; j <= kk; ++j)
    cnt[j].assign(static_cast<std::size_t>(std::max<std::int64_t>(top[j] - minsum[j] + 1, 0)), 0.0);
  if (cnt[0].empty()) return out;  // no subset can reach any cap
  cnt[0][0] = 1.0;
  for (std::size_t i = 0; i < n; ++i) {
    const std::int64_t r = ascending[i];
    for (std::size_t j = std::min(i + 1, kk); j >= 1; --j) {
      const std::int64_t from = std::max(minsum[j], minsum[j - 1] + r);
      const std::int64_t to = std::min(row_cap(i, j), top[j - 1] + r);
      if (from > to) continue;
      double* dst = cnt[j].data() + (from - minsum[j]);
      const double* src = cnt[j - 1].data() + (from - r - minsum[j - 1]);
      const auto len = static_cast<std::size_t>(to - from + 1);
      for (std::size_t i2 = 0; i2 < len; ++i2) dst[i2] += src[i2];
    }
  }
  for (std::size_t k = 1; k <= kk; ++k) {
    if (cap[k] < 0 || cap[k] < minsum[k]) continue;
    double sum = 0;
    const std::int64_t last = std::min(cap[k], top[k]) - minsum[k];
    for (std::int64_t i = 0; i <= last; ++i) sum += cnt[k][static_cast<std::size_t>(i)];
    out.count[k] = sum;
    out.width[k] = last + 1;
  }
  return out;
}

// count / C(n, k), rounded up past the rounding of the count (n additions deep, `width` summed
// terms) and of C(n, k) (2k operations).
inline double exact_tail_probability(double count, std::size_t n, std::size_t k, std::int64_t width) {
  if (count <= 0) return 0.0;
  double c = 1;
  for (std::size_t i = 1; i <= k; ++i) c = c * static_cast<double>(n - k + i) / static_cast<double>(i);
  const double allowance = 2.0 * (static_cast<double>(n + 2 * k + 8) + static_cast<double>(width)) * machine_epsilon;
  return std::min(count / c * (1 + allowance), 1.0);
}

// The ranks' own moment generating function (Hoeffding 1963, Theorem 4: a sum drawn without
// replacement is dominated in convex order by one drawn with replacement, so
// P(S_k - k(n+1) >= d) <= exp(-lambda d) M(lambda)^k for every lambda >= 0, with
// M(lambda) = mean exp(lambda (r_i - (n+1))) over the doubled ranks). Every lambda gives a valid
// bound, so minimising over a fixed grid (lambda (n+1) from 0.02 to about 190, ratio 1.15) only
// costs tightness; log M is rounded up past its rounding error.
class RankMgf {
 public:
  explicit RankMgf(std::span<const std::int64_t> sorted) {
    const std::size_t n = sorted.size();
    const auto centre = static_cast<std::int64_t>(n + 1);
    for (double theta = 0.02; theta < 200; theta *= 1.15) {
      const double lambda = theta / static_cast<double>(n + 1);
      lambda_.push_back(lambda);
      log_m_up_.push_back(log_mgf(sorted, centre, lambda, true));
      log_m_down_.push_back(log_mgf(sorted, centre, lambda, false));
    }
  }
  // Bound on P(S_k - k(n+1) >= d) (upper) or P(k(n+1) - S_k >= d) (lower), d in doubled units.
  double tail(std::size_t k, double d, bool upper) const {
    if (!(d > 0)) return 1.0;
    const auto& lm = upper ? log_m_up_ : log_m_down_;
    const auto kd = static_cast<double>(k);
    double best = 0;  // lambda = 0: the trivial bound 1
    for (std::size_t g = 0; g < lambda_.size(); ++g) {
      const double e = -lambda_[g] * d + kd * lm[g];
      const double slack = 4 * machine_epsilon * (lambda_[g] * d + kd * std::fabs(lm[g]) + 4);
      best = std::min(best, e + slack);
    }
    return std::min(std::exp(best) * (1 + 4 * machine_epsilon), 1.0);
  }

 private:
  // log mean exp(+-lambda (r - centre)), factored at the largest exponent so every term is <= 1;
  // the terms are a running product along the sorted ranks (one exp per distinct gap).
  static double log_mgf(std::span<const std::int64_t> sorted, std::int64_t centre, double lambda, bool upper) {
    const std::size_t n = sorted.size();
    const std::int64_t extreme = upper ? sorted.back() : sorted.front();
    double sum = 0, term = 1;
    std::int64_t prev = extreme;
    double gap_exp[17];
    for (int g = 0; g <= 16; ++g) gap_exp[g] = std::exp(-lambda * g);
    for (std::size_t i = 0; i < n; ++i) {
      const std::int64_t r = upper ? sorted[n - 1 - i] : sorted[i];
      const std::int64_t gap = upper ? prev - r : r - prev;
      term *= gap <= 16 ? gap_exp[gap] : std::exp(-lambda * static_cast<double>(gap));
      sum += term;
      prev = r;
    }
    const double shift = lambda * static_cast<double>(upper ? extreme - centre : centre - extreme);
    const double log_mean = std::log(sum / static_cast<double>(n));
    // Each term is within a relative 2(i + 1) eps (one rounded factor per step, each factor
    // within 2 eps), the sum adds n more, the logarithm and the shift one each.
    const double rounding = (4.0 * static_cast<double>(n) + 16) * machine_epsilon +
                            4 * machine_epsilon * (std::fabs(shift) + std::fabs(log_mean));
    return shift + log_mean + rounding;
  }

  std::vector<double> lambda_, log_m_up_, log_m_down_;
};

// The analytic bound with S3b's tails: exact sizes keep c = p_obs; a normal size k contributes
// the probability that a random size-k subset reaches the rejection sums — exact (both tails) when
// the restricted knapsacks are affordable, else the smaller of the moment-generating-function and
// the Chernoff / Serfling bounds.
inline double analytic_bound_sharp_tails(std::span<const std::int64_t> sorted, double p_obs, std::size_t min_regime,
                                         std::size_t max_exact, double tie_term) {
  const std::size_t n = sorted.size();
  const std::size_t half = n / 2;
  if (min_regime > half) return 1.0;
  const NormalPLimit limit = rejection_limit(p_obs);
  std::vector<std::int64_t> lo_cap(half + 1, -1), hi_cap(half + 1, -1);  // hi_cap on mirrored ranks
  std::vector<std::optional<std::int64_t>> lo_sum(half + 1), hi_sum(half + 1);
  std::int64_t lo = 0, hi = 0;
  const auto np1 = static_cast<std::int64_t>(n + 1);
  for (std::size_t k = 1; k <= half; ++k) {
    lo += sorted[k - 1];
    hi += sorted[n - k];
    if (k < min_regime || k <= max_exact) continue;
    lo_sum[k] = rejection_sum(sorted, k, lo, hi, limit, tie_term, false);
    hi_sum[k] = rejection_sum(sorted, k, lo, hi, limit, tie_term, true);
    if (lo_sum[k]) lo_cap[k] = *lo_sum[k];
    if (hi_sum[k]) hi_cap[k] = 2 * static_cast<std::int64_t>(k) * np1 - *hi_sum[k];
  }
  std::vector<std::int64_t> mirrored(n);
  for (std::size_t i = 0; i < n; ++i) mirrored[i] = 2 * np1 - sorted[n - 1 - i];
  const auto lower = subset_counts_at_most(sorted, lo_cap, exact_tail_budget);
  const auto upper = lower ? subset_counts_at_most(mirrored, hi_cap, exact_tail_budget) : std::nullopt;
  std::optional<RankMgf> mgf;
  if (!lower || !upper) mgf.emplace(sorted);
  double bound = 0;
  for (std::size_t k = min_regime; k <= half; ++k) {
    double c = p_obs;
    if (k > max_exact) {
      if (lower && upper) {
        c = exact_tail_probability(lower->count[k], n, k, lower->width[k]) +
            exact_tail_probability(upper->count[k], n, k, upper->width[k]);
      } else {
        const auto centre = static_cast<double>(static_cast<std::int64_t>(k) * np1);
        double l = 0, u = 0;
        if (lo_sum[k])
          l = std::min(mgf->tail(k, centre - static_cast<double>(*lo_sum[k]), false),
                       rank_sum_tail_bound(sorted, k, static_cast<double>(*lo_sum[k]), false));
        if (hi_sum[k])
          u = std::min(mgf->tail(k, static_cast<double>(*hi_sum[k]) - centre, true),
                       rank_sum_tail_bound(sorted, k, static_cast<double>(*hi_sum[k]), true));
        c = l + u;
      }
      c = std::min(c, 1.0);
    }
    bound += (2 * k == n ? 1.0 : 2.0) * c;
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
  const std::vector<std::int64_t> sorted = sorted_doubled_ranks(doubled);
  return analytic_bound_sorted(sorted, p_obs, min_regime, max_exact_size(sorted.size(), min_regime),
                               tie_term_from_doubled_ranks(sorted));
}

BENCHHIST_DETAIL_END
}  // namespace benchhist::detect::detail
