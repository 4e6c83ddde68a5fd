#pragma once
// Exact Mann-Whitney null distributions (docs/statistics.md#mann-whitney-u): for every subset size
// j <= kmax, the number of size-j subsets of the doubled ranks having each doubled rank sum. Counts
// are held in double and are exact because callers only ask for sizes with C(N, j) < 2^53.
// Private to the detectors (stats and the split-search correction).

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace benchhist::detect::detail {

class ExactTables {
 public:
  ExactTables() = default;
  // `sorted` = doubled ranks ascending. `gaussian_binomial` = false forces the knapsack even
  // without ties (tests compare the two).
  ExactTables(std::span<const std::int64_t> sorted, std::size_t kmax, bool gaussian_binomial = true) : kmax_(kmax) {
    const std::size_t n = sorted.size();
    kmax_ = std::min(kmax_, n);
    counts_.resize(kmax_ + 1);
    max_sum_.assign(kmax_ + 1, 0);
    for (std::size_t j = 1; j <= kmax_; ++j) max_sum_[j] = max_sum_[j - 1] + sorted[n - j];
    for (std::size_t j = 0; j <= kmax_; ++j) counts_[j].assign(static_cast<std::size_t>(max_sum_[j]) + 1, 0.0);
    counts_[0][0] = 1.0;
    if (gaussian_binomial && tie_free(sorted)) fill_tie_free(n);
    else fill_knapsack(sorted);
    cumulative_.resize(kmax_ + 1);
    for (std::size_t j = 0; j <= kmax_; ++j) {
      auto& c = cumulative_[j];
      c.resize(counts_[j].size());
      double run = 0;  // exact: every partial sum is an integer below C(N, j) < 2^53
      for (std::size_t s = 0; s < c.size(); ++s) c[s] = run += counts_[j][s];
    }
  }

  std::size_t kmax() const noexcept { return kmax_; }
  const std::vector<double>& counts(std::size_t k) const { return counts_[k]; }
  // Size-k subsets with doubled sum <= s, >= s, and all of them (exact integers).
  double lower(std::size_t k, std::int64_t s) const {
    const auto& c = cumulative_[k];
    if (s < 0) return 0;
    return c[std::min(static_cast<std::size_t>(s), c.size() - 1)];
  }
  double upper(std::size_t k, std::int64_t s) const { return total(k) - lower(k, s - 1); }
  double total(std::size_t k) const { return cumulative_[k].back(); }

  // Exact two-sided p for a doubled sum S of a size-k subset: 2 * min(lower, upper) / total.
  // Returns the unclamped ratio capped at 1. (Every count is an exact integer, so reading them
  // from the cumulative table gives the same bits as summing them here.)
  double two_sided(std::size_t k, std::int64_t s) const {
    return std::min(2.0 * std::min(lower(k, s), upper(k, s)) / total(k), 1.0);
  }

  static bool tie_free(std::span<const std::int64_t> sorted) noexcept {
    for (std::size_t i = 0; i < sorted.size(); ++i)
      if (sorted[i] != static_cast<std::int64_t>(2 * (i + 1))) return false;
    return true;
  }

 private:
  // Any multiset: the knapsack over every rank, O(n * kmax * max sum).
  void fill_knapsack(std::span<const std::int64_t> sorted) {
    std::size_t processed = 0;
    std::vector<std::int64_t> reach(kmax_ + 1, 0);  // largest reachable sum per size so far
    for (std::int64_t r : sorted) {
      const std::size_t top = std::min(kmax_, processed + 1);
      for (std::size_t j = top; j >= 1; --j) {
        auto& dst = counts_[j];
        const auto& src = counts_[j - 1];
        const std::int64_t hi = std::min<std::int64_t>(reach[j - 1] + r, max_sum_[j]);
        for (std::int64_t s = hi; s >= r; --s) dst[static_cast<std::size_t>(s)] += src[static_cast<std::size_t>(s - r)];
        reach[j] = std::max(reach[j], hi);
      }
      ++processed;
    }
  }

  // Ranks 1..n without ties: the size-j sums are j(j+1)/2 + m where m counts partitions into at
  // most j parts of at most n - j, the coefficients of the Gaussian binomial [n choose j]_q. Built
  // as prod_{i=1..j} (1 - q^(n-j+i)) / (1 - q^i), dividing after each factor so every
  // intermediate is [n-j+i choose i]_q: integers below C(n, j) < 2^53, O(j^2 (n - j)) per size
  // instead of the knapsack's O(n j max sum). Same integers, so the same table.
  void fill_tie_free(std::size_t n) {
    std::vector<std::int64_t> poly;
    for (std::size_t j = 1; j <= kmax_; ++j) {
      const std::size_t degree = j * (n - j);
      poly.assign(degree + 1, 0);
      poly[0] = 1;
      std::size_t have = 0;  // current degree
      for (std::size_t i = 1; i <= j; ++i) {
        const std::size_t a = n - j + i;
        const std::size_t next = have + a - i;
        // times (1 - q^a), highest coefficient first so each reads the unmodified lower one
        for (std::size_t m = std::min(have + a, degree); m >= a; --m) poly[m] -= poly[m - a];
        // divided by (1 - q^i): b_m = c_m + b_(m-i)
        for (std::size_t m = i; m <= next; ++m) poly[m] += poly[m - i];
        for (std::size_t m = next + 1; m <= std::min(have + a, degree); ++m) poly[m] = 0;
        have = next;
      }
      const auto base = static_cast<std::size_t>(j * (j + 1));  // doubled sum of ranks 1..j
      for (std::size_t m = 0; m <= degree; ++m) counts_[j][base + 2 * m] = static_cast<double>(poly[m]);
    }
  }

  std::size_t kmax_ = 0;
  std::vector<std::vector<double>> counts_;
  std::vector<std::vector<double>> cumulative_;
  std::vector<std::int64_t> max_sum_;
};

}  // namespace benchhist::detect::detail
