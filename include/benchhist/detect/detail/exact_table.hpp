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
  // `sorted` = doubled ranks ascending.
  ExactTables(std::span<const std::int64_t> sorted, std::size_t kmax) : kmax_(kmax) {
    const std::size_t n = sorted.size();
    kmax_ = std::min(kmax_, n);
    counts_.resize(kmax_ + 1);
    max_sum_.assign(kmax_ + 1, 0);
    for (std::size_t j = 1; j <= kmax_; ++j) max_sum_[j] = max_sum_[j - 1] + sorted[n - j];
    for (std::size_t j = 0; j <= kmax_; ++j) counts_[j].assign(static_cast<std::size_t>(max_sum_[j]) + 1, 0.0);
    counts_[0][0] = 1.0;
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

  std::size_t kmax() const noexcept { return kmax_; }
  const std::vector<double>& counts(std::size_t k) const { return counts_[k]; }

  // Exact two-sided p for a doubled sum S of a size-k subset: 2 * min(lower, upper) / total.
  // Returns the unclamped ratio capped at 1.
  double two_sided(std::size_t k, std::int64_t s) const {
    const auto& c = counts_[k];
    double lower = 0, upper = 0, total = 0;
    for (std::size_t i = 0; i < c.size(); ++i) {
      total += c[i];
      if (static_cast<std::int64_t>(i) <= s) lower += c[i];
      if (static_cast<std::int64_t>(i) >= s) upper += c[i];
    }
    return std::min(2.0 * std::min(lower, upper) / total, 1.0);
  }

 private:
  std::size_t kmax_ = 0;
  std::vector<std::vector<double>> counts_;
  std::vector<std::int64_t> max_sum_;
};

}  // namespace benchhist::detect::detail
