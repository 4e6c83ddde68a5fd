#pragma once
// The split search of history change points
// (docs/divergences.md#s3--the-most-likely-split-is-the-split-search): the Mann-Whitney p of every
// admissible split of one ordering of the doubled ranks, and the most likely split — the first t in
// [min_regime, n - min_regime] with the smallest p. The same scores serve the orbit
// (orbit_scorer.hpp), which reruns this search on every rearrangement.
// Private to the detectors; exposed in benchhist::detect::detail only so tests can pin it. Not API.

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <limits>
#include <memory>
#include <optional>
#include <span>
#include <vector>

#include "benchhist/detect/detail/config.hpp"
#include "benchhist/detect/detail/exact_table.hpp"
#include "benchhist/detect/stats.hpp"

namespace benchhist::detect::detail {
BENCHHIST_DETAIL_BEGIN

inline constexpr std::int64_t never = std::numeric_limits<std::int64_t>::max();

// The score of a split (docs/statistics.md#scorer): the exact table for sizes up to max_exact, the
// normal approximation beyond.
struct Scorer {
  std::size_t n = 0;
  std::size_t min_regime = 5;
  std::size_t max_exact = 0;
  double tie_term = 0;
  std::vector<std::int64_t> sorted;
  // Built only when an exact size can matter (the observed split, or a flag an orbit element
  // could reach): for long series with ties the knapsack costs more than all the rest. Series
  // with the same ranks share theirs through `shared` when the analysis keeps one.
  std::shared_ptr<const detail::ExactTables> tables;
  const SharedExactTables* shared = nullptr;

  bool tie_free() const { return ExactTables::tie_free(sorted); }
  void ensure_tables() {
    if (tables) return;
    if (shared) tables = shared->get(sorted, max_exact);
    else tables = std::make_shared<const ExactTables>(sorted, max_exact);
  }
  // The tie-free table of this length (for the search's lower bounds).
  std::shared_ptr<const ExactTables> free_tables_of_length() const {
    if (shared) return shared->get(n, max_exact);
    std::vector<std::int64_t> free(n);
    for (std::size_t i = 0; i < n; ++i) free[i] = static_cast<std::int64_t>(2 * (i + 1));
    return std::make_shared<const ExactTables>(free, max_exact);
  }

  std::int64_t smaller_sum(std::size_t tau, std::int64_t d_tau) const {
    return tau <= n - tau ? d_tau : static_cast<std::int64_t>(n * (n + 1)) - d_tau;
  }
  // p of an ordering whose split is (tau, d_tau); 1.0 when unreportable.
  double p_at(std::size_t tau, std::int64_t d_tau) const { return clamp_p(sharp_p_at(tau, d_tau)); }
  // The same score before clamp_p
  // (docs/divergences.md#s1--the-analytic-certificate-at-the-unclamped-observed-p step 1): an exact
  // tail is at least 2 / C(n, k) > 0 and the normal one is positive for every reachable z.
  double sharp_p_at(std::size_t tau, std::int64_t d_tau) const {
    const std::size_t k = std::min(tau, n - tau);
    if (k < min_regime) return 1.0;
    const std::int64_t sum = smaller_sum(tau, d_tau);
    if (k <= max_exact) return tables->two_sided(k, sum);
    return mw_normal_p_unclamped(k, n - k, static_cast<double>(sum) / 2, tie_term);
  }
};

// The split the search picked.
struct SearchedSplit {
  std::size_t index = 0;   // tau: first index of the "after" part
  std::int64_t d_tau = 0;  // sum of the first tau doubled ranks
  double p_sharp = 1.0;    // its unclamped p
};

// docs/divergences.md#s3--the-most-likely-split-is-the-split-search: the first t in
// [min_regime, n - min_regime] whose unclamped p is smallest (n >= 2 min_regime). The unclamped p
// decides because with the clamp every split of an overwhelming step would tie at 1e-15 and the
// first of them, far before the step, would win.
//
// Two shortcuts, each giving exactly the plain definition's split (tests/detect/test_fresh.cpp
// compares them): (1) the normal p is min(erfc(w), 1) with erfc decreasing, so erfc is evaluated
// only for splits whose argument w is within 1e-9 (1 + max w) of the largest — any other split's
// p is strictly larger; (2) with ties, the exact sizes' knapsack (milliseconds at n = 1,000) is
// built only if some exact split could beat the best normal one. Its p is bounded below through
// the tie-free table of the same n (a Gaussian binomial, microseconds): matching the i-th
// smallest tied rank with the tie-free 2i, a subset's tied sum is within [-D-, D+] of its
// tie-free sum, where D+ (D-) sums the k largest differences (of the opposite sign), so at most
// and at least as many subsets reach each tail.
inline SearchedSplit most_likely_split(Scorer& sc, std::span<const std::int64_t> ranks) {
  const std::size_t n = sc.n, m = sc.min_regime;
  std::vector<std::int64_t> d(n + 1, 0);
  for (std::size_t t = 1; t <= n; ++t) d[t] = d[t - 1] + ranks[t - 1];
  auto sum_at = [&](std::size_t t) { return sc.smaller_sum(t, d[t]); };

  // Normal sizes: erfc arguments, then erfc only near the largest.
  std::vector<double> w(n + 1, -1.0);
  double w_max = -1;
  for (std::size_t k = std::max(m, sc.max_exact + 1); 2 * k <= n; ++k) {
    const NormalPLimit::Sizes sizes(k, n - k, sc.tie_term);
    for (const std::size_t t : {k, n - k}) {
      const auto arg = sizes.erfc_argument(static_cast<double>(sum_at(t)) / 2);
      w[t] = arg ? *arg : 0.0;  // no variance: p = 1 = erfc(0)
      w_max = std::max(w_max, w[t]);
    }
  }
  const double margin = 1e-9 * (1 + w_max);
  std::vector<double> p(n + 1, 2.0);  // 2 = not a candidate
  double best_normal = 2.0;
  for (std::size_t t = m; t + m <= n; ++t) {
    if (w[t] < 0 || w[t] < w_max - margin) continue;
    p[t] = std::min(std::erfc(w[t]), 1.0);
    best_normal = std::min(best_normal, p[t]);
  }

  // Exact sizes: evaluated when they could win.
  std::vector<std::size_t> exact_splits;
  for (std::size_t k = m; k <= sc.max_exact && 2 * k <= n; ++k) {
    exact_splits.push_back(k);
    if (n - k != k) exact_splits.push_back(n - k);
  }
  if (!exact_splits.empty() && !sc.tables) {
    bool needed = true;
    if (best_normal <= 1.0 && !sc.tie_free()) {
      const auto free_tables = sc.free_tables_of_length();
      const ExactTables& bound = *free_tables;
      std::vector<std::int64_t> up(n), down(n);  // tied minus tie-free, and its negation
      for (std::size_t i = 0; i < n; ++i)
        up[i] = sc.sorted[i] - static_cast<std::int64_t>(2 * (i + 1)), down[i] = -up[i];
      // Only the largest max_exact of each are read.
      const auto kk = static_cast<std::ptrdiff_t>(std::min(n, sc.max_exact));
      std::partial_sort(up.begin(), up.begin() + kk, up.end(), std::greater<>());
      std::partial_sort(down.begin(), down.begin() + kk, down.end(), std::greater<>());
      needed = false;
      for (const std::size_t t : exact_splits) {
        const std::size_t k = std::min(t, n - t);
        std::int64_t dplus = 0, dminus = 0;
        for (std::size_t i = 0; i < k; ++i) dplus += up[i], dminus += down[i];
        const std::int64_t s = sum_at(t);
        const double low = std::min(bound.lower(k, s - dplus), bound.upper(k, s + dminus));
        const double p_low = std::min(2.0 * low / bound.total(k), 1.0);
        if (!(p_low > best_normal)) {
          needed = true;
          break;
        }
      }
    }
    if (needed) sc.ensure_tables();
  }
  if (sc.tables)
    for (const std::size_t t : exact_splits) p[t] = sc.tables->two_sided(std::min(t, n - t), sum_at(t));

  SearchedSplit best;
  double best_p = 3.0;
  for (std::size_t t = m; t + m <= n; ++t)
    if (p[t] < best_p) best_p = p[t], best.index = t;  // strictly smaller: the first t wins ties
  best.d_tau = d[best.index];
  best.p_sharp = best_p;
  return best;
}

// The plain definition (tests only): every admissible split scored.
inline SearchedSplit most_likely_split_plain(Scorer& sc, std::span<const std::int64_t> ranks) {
  sc.ensure_tables();
  SearchedSplit best;
  double best_p = 3.0;
  std::int64_t d = 0;
  for (std::size_t t = 1; t + sc.min_regime <= sc.n; ++t) {
    d += ranks[t - 1];
    if (t < sc.min_regime) continue;
    const double p = sc.sharp_p_at(t, d);
    if (p < best_p) best_p = p, best.index = t, best.d_tau = d;
  }
  best.p_sharp = best_p;
  return best;
}

inline Scorer make_scorer(std::span<const std::int64_t> ranks, std::size_t min_regime, std::size_t max_exact,
                          const SharedExactTables* shared = nullptr) {
  Scorer sc;
  sc.shared = shared;
  sc.n = ranks.size();
  sc.min_regime = min_regime;
  sc.sorted = sorted_doubled_ranks(ranks);
  sc.tie_term = tie_term_from_doubled_ranks(sc.sorted);
  sc.max_exact = max_exact;
  return sc;
}

BENCHHIST_DETAIL_END
}  // namespace benchhist::detect::detail
