#pragma once
// Exact Mann-Whitney null distributions (docs/statistics.md#mann-whitney-u): for every subset size
// j <= kmax, the number of size-j subsets of the doubled ranks having each doubled rank sum. Counts
// are held in double and are exact because callers only ask for sizes with C(N, j) < 2^53.
// Private to the detectors (stats and the split-search correction).

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <span>
#include <utility>
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
    const bool from_tie_free = gaussian_binomial && 4 * tied_items(sorted) < n;
    // Averaging a tie group never raises its top rank, so the tie-free maximum sums bound both.
    for (std::size_t j = 1; j <= kmax_; ++j)
      max_sum_[j] = max_sum_[j - 1] + (from_tie_free ? static_cast<std::int64_t>(2 * (n - j + 1)) : sorted[n - j]);
    for (std::size_t j = 0; j <= kmax_; ++j) counts_[j].assign(static_cast<std::size_t>(max_sum_[j]) + 1, 0.0);
    counts_[0][0] = 1.0;
    if (from_tie_free) {
      fill_tie_free(n);
      retie(sorted);
    } else {
      fill_knapsack(sorted);
    }
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

  static std::size_t tied_items(std::span<const std::int64_t> sorted) noexcept {
    std::size_t tied = 0;
    for (std::size_t i = 0; i < sorted.size(); ++i)
      tied += (i > 0 && sorted[i] == sorted[i - 1]) || (i + 1 < sorted.size() && sorted[i] == sorted[i + 1]);
    return tied;
  }

  // A few ties: start from the tie-free table and, per tie group, divide out the factors
  // (1 + x y^(2i)) of its tie-free ranks and multiply in (1 + x y^r) for its shared doubled rank
  // r, once per member — two passes per tied value instead of the knapsack's one per value. Every
  // intermediate is the table of a sub-multiset: integers below 2^53, so subtracting in double
  // is exact and the result is the knapsack's integers.
  void retie(std::span<const std::int64_t> sorted) {
    const std::size_t n = sorted.size();
    for (std::size_t b = 0; b < n;) {
      std::size_t e = b + 1;
      while (e < n && sorted[e] == sorted[b]) ++e;
      if (e - b > 1) {
        for (std::size_t i = b; i < e; ++i) divide_out(static_cast<std::int64_t>(2 * (i + 1)));
        for (std::size_t i = b; i < e; ++i) multiply_in(sorted[b]);
      }
      b = e;
    }
  }
  void divide_out(std::int64_t r) {  // Q_j(s) = P_j(s) - Q_(j-1)(s - r), j ascending
    for (std::size_t j = 1; j <= kmax_; ++j) {
      auto& dst = counts_[j];
      const auto& src = counts_[j - 1];
      const auto top = std::min<std::int64_t>(static_cast<std::int64_t>(dst.size()) - 1,
                                              static_cast<std::int64_t>(src.size()) - 1 + r);
      for (std::int64_t s = r; s <= top; ++s) dst[static_cast<std::size_t>(s)] -= src[static_cast<std::size_t>(s - r)];
    }
  }
  void multiply_in(std::int64_t r) {  // P_j(s) += P_(j-1)(s - r), j descending
    for (std::size_t j = kmax_; j >= 1; --j) {
      auto& dst = counts_[j];
      const auto& src = counts_[j - 1];
      const auto top = std::min<std::int64_t>(static_cast<std::int64_t>(dst.size()) - 1,
                                              static_cast<std::int64_t>(src.size()) - 1 + r);
      for (std::int64_t s = top; s >= r; --s) dst[static_cast<std::size_t>(s)] += src[static_cast<std::size_t>(s - r)];
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

// The tie-free tables of one analysis, shared by every series of the same length (most timing
// series have no ties, and the min-p search needs the exact sizes of every judged series). Safe
// to use from every worker; results never depend on what is cached. At most `capacity` lengths
// are kept (about 1.3 MB each at n = 1,000); a full cache starts over.
class TieFreeTables {
 public:
  static constexpr std::size_t capacity = 32;
  std::shared_ptr<const ExactTables> get(std::size_t n, std::size_t kmax) const {
    const std::lock_guard lock(mutex_);
    auto& slot = tables_[{n, kmax}];
    if (!slot) {
      if (tables_.size() > capacity) {
        tables_.clear();
        return get_locked(n, kmax);
      }
      slot = build(n, kmax);
    }
    return slot;
  }

 private:
  std::shared_ptr<const ExactTables> get_locked(std::size_t n, std::size_t kmax) const {
    auto& slot = tables_[{n, kmax}];
    slot = build(n, kmax);
    return slot;
  }
  static std::shared_ptr<const ExactTables> build(std::size_t n, std::size_t kmax) {
    std::vector<std::int64_t> ranks(n);
    for (std::size_t i = 0; i < n; ++i) ranks[i] = static_cast<std::int64_t>(2 * (i + 1));
    return std::make_shared<const ExactTables>(ranks, kmax);
  }
  mutable std::mutex mutex_;
  mutable std::map<std::pair<std::size_t, std::size_t>, std::shared_ptr<const ExactTables>> tables_;
};

}  // namespace benchhist::detect::detail
