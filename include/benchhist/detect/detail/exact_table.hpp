#pragma once
// Exact Mann-Whitney null distributions (docs/statistics.md#mann-whitney-u): for every subset size
// j <= kmax, the number of size-j subsets of the doubled ranks having each doubled rank sum. Counts
// are held in double and are exact because callers only ask for sizes with C(N, j) < 2^53.
// Private to the detectors (stats and the split-search correction).

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <iterator>
#include <map>
#include <memory>
#include <mutex>
#include <span>
#include <utility>
#include <vector>

#include "benchhist/detect/detail/u128.hpp"

namespace benchhist::detect::detail {

// Doubled ranks in ascending order. Doubled ranks of n values lie in [2, 2n], so a counting
// sort does it in O(n); anything else (a caller's own integers) is sorted the usual way.
inline std::vector<std::int64_t> sorted_doubled_ranks(std::span<const std::int64_t> doubled) {
  const std::size_t n = doubled.size();
  const auto top = static_cast<std::int64_t>(2 * n);
  std::vector<std::int64_t> sorted;
  sorted.reserve(n);
  if (std::all_of(doubled.begin(), doubled.end(), [&](std::int64_t r) { return r >= 0 && r <= top; })) {
    std::vector<std::uint32_t> count(2 * n + 1, 0);
    for (const std::int64_t r : doubled) ++count[static_cast<std::size_t>(r)];
    for (std::size_t r = 0; r < count.size(); ++r) sorted.insert(sorted.end(), count[r], static_cast<std::int64_t>(r));
    return sorted;
  }
  sorted.assign(doubled.begin(), doubled.end());
  std::sort(sorted.begin(), sorted.end());
  return sorted;
}

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
    if (gaussian_binomial && !from_tie_free && few_choices(sorted)) {
      fill_sparse(sorted);
      return;
    }
    for (std::size_t j = 0; j <= kmax_; ++j) counts_[j].assign(static_cast<std::size_t>(max_sum_[j]) + 1, 0.0);
    counts_[0][0] = 1.0;
    if (from_tie_free) {
      fill_tie_free(n);
      retie(sorted);
    } else if (gaussian_binomial && distinct_values(sorted) * (kmax_ + 1) < 2 * n) {
      fill_grouped(sorted);
    } else {
      fill_knapsack(sorted);
    }
    // Only the running sums are kept (half the memory: analyses share tie-free tables by length).
    for (std::size_t j = 0; j <= kmax_; ++j) {
      auto& c = counts_[j];
      double run = 0;  // exact: every partial sum is an integer below C(N, j) < 2^53
      for (std::size_t s = 0; s < c.size(); ++s) c[s] = run += c[s];
    }
    cumulative_ = std::move(counts_);
  }

  std::size_t kmax() const noexcept { return kmax_; }
  // The number of size-k subsets with each doubled sum (from the running sums).
  std::vector<double> counts(std::size_t k) const {
    std::vector<double> out(sums(k), 0.0);
    if (!cumulative_.empty()) {
      const auto& c = cumulative_[k];
      for (std::size_t s = 0; s < c.size(); ++s) out[s] = s == 0 ? c[0] : c[s] - c[s - 1];
    } else {
      double before = 0;
      for (const auto& [sum, run] : sparse_[k]) out[static_cast<std::size_t>(sum)] = run - before, before = run;
    }
    return out;
  }
  std::size_t sums(std::size_t k) const { return static_cast<std::size_t>(max_sum_[k]) + 1; }  // doubled sums 0..sums-1
  // Size-k subsets with doubled sum <= s, >= s, and all of them (exact integers).
  double lower(std::size_t k, std::int64_t s) const {
    if (s < 0) return 0;
    const std::int64_t top = std::min(s, max_sum_[k]);
    if (!cumulative_.empty()) return cumulative_[k][static_cast<std::size_t>(top)];
    const auto& c = sparse_[k];
    const auto it = std::upper_bound(c.begin(), c.end(), top, [](std::int64_t v, const auto& e) { return v < e.first; });
    return it == c.begin() ? 0.0 : std::prev(it)->second;
  }
  double upper(std::size_t k, std::int64_t s) const { return total(k) - lower(k, s - 1); }
  double total(std::size_t k) const { return cumulative_.empty() ? sparse_[k].back().second : cumulative_[k].back(); }

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
  // The tie groups of `sorted`: (doubled rank, multiplicity).
  static std::vector<std::pair<std::int64_t, std::size_t>> groups_of(std::span<const std::int64_t> sorted) {
    std::vector<std::pair<std::int64_t, std::size_t>> groups;
    for (std::size_t i = 0; i < sorted.size(); ++i)
      if (i == 0 || sorted[i] != sorted[i - 1]) groups.emplace_back(sorted[i], 1);
      else ++groups.back().second;
    return groups;
  }

  // Whether the subsets of size <= kmax are few enough to enumerate by how many they take of each
  // value: C(kmax + d, d) choices for d distinct values, against a dense table of about n kmax^2
  // cells. Counted metrics (2-4 values over 1,000 points) have a few hundred.
  bool few_choices(std::span<const std::int64_t> sorted) const {
    const std::size_t d = distinct_values(sorted);
    u128 choices = 1;  // C(kmax + d, d), built as C(kmax + i, i), i = 1..d; capped
    const u128 budget = 8 * static_cast<u128>(sorted.size()) + 64;
    for (std::size_t i = 1; i <= d && choices <= budget; ++i) choices = choices * (kmax_ + i) / i;
    return choices <= budget;
  }

  // Few distinct values: every size-j subset is fixed by how many copies c_g it takes of each
  // value (sum c_g = j), and there are prod C(m_g, c_g) of them with doubled sum sum c_g r_g.
  // Enumerating those choices gives the knapsack's integers (exact below 2^53, as every count
  // is) as a sparse list of running counts per size, without the dense table.
  void fill_sparse(std::span<const std::int64_t> sorted) {
    const auto groups = groups_of(sorted);
    std::vector<std::vector<std::pair<std::int64_t, u128>>> found(kmax_ + 1);
    auto choose = [&](auto& self, std::size_t g, std::size_t j, std::int64_t sum, u128 count) -> void {
      if (g == groups.size()) {
        found[j].emplace_back(sum, count);
        return;
      }
      const auto [r, m] = groups[g];
      u128 c_mc = 1;  // C(m, c)
      for (std::size_t c = 0; c <= std::min(m, kmax_ - j); ++c) {
        if (c > 0) c_mc = c_mc * (m - c + 1) / c;
        self(self, g + 1, j + c, sum + static_cast<std::int64_t>(c) * r, count * c_mc);
      }
    };
    choose(choose, 0, 0, 0, 1);
    sparse_.resize(kmax_ + 1);
    for (std::size_t j = 0; j <= kmax_; ++j) {
      auto& f = found[j];
      std::sort(f.begin(), f.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
      u128 run = 0;
      for (std::size_t i = 0; i < f.size(); ++i) {
        run += f[i].second;
        if (i + 1 < f.size() && f[i + 1].first == f[i].first) continue;
        sparse_[j].emplace_back(f[i].first, static_cast<double>(run));
      }
    }
  }

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

  static std::size_t distinct_values(std::span<const std::int64_t> sorted) noexcept {
    std::size_t d = 0;
    for (std::size_t i = 0; i < sorted.size(); ++i) d += i == 0 || sorted[i] != sorted[i - 1];
    return d;
  }

  // Heavy ties (counted metrics, near-constant series): one pass per distinct value r with
  // multiplicity m, adding C(m, c) subsets of c copies at once —
  // P_j(s) += sum_c C(m, c) P_(j-c)(s - c r), j descending so every P_(j-c) is still the value
  // before this group. C(m, c) <= C(n, c) and every product is part of a count below 2^53, so
  // the double arithmetic is exact and the table is the knapsack's.
  void fill_grouped(std::span<const std::int64_t> sorted) {
    for (const auto& [r, m] : groups_of(sorted)) {
      std::vector<double> choose(std::min(m, kmax_) + 1, 1.0);  // C(m, c), exact (integers below 2^53)
      u128 c_mc = 1;
      for (std::size_t c = 1; c < choose.size(); ++c) {
        c_mc = c_mc * (m - c + 1) / c;
        choose[c] = static_cast<double>(c_mc);
      }
      for (std::size_t j = kmax_; j >= 1; --j) {
        auto& dst = counts_[j];
        for (std::size_t c = 1; c <= std::min(m, j); ++c) {
          const auto& src = counts_[j - c];
          const std::int64_t shift = static_cast<std::int64_t>(c) * r;
          const auto top = std::min<std::int64_t>(static_cast<std::int64_t>(dst.size()) - 1,
                                                  static_cast<std::int64_t>(src.size()) - 1 + shift);
          const double w = choose[c];
          for (std::int64_t s = shift; s <= top; ++s)
            dst[static_cast<std::size_t>(s)] += w * src[static_cast<std::size_t>(s - shift)];
        }
      }
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
  std::vector<std::vector<double>> cumulative_;  // dense running counts, or:
  std::vector<std::vector<std::pair<std::int64_t, double>>> sparse_;  // (sum, running count) per size
  std::vector<std::int64_t> max_sum_;
};

// The exact tables of one analysis, shared by every series with the same doubled ranks: every
// tie-free series of a length (most timing series), and every series with the same ties (a
// constant counter, a counter with the same few values). The min-p search needs the exact sizes
// of every judged series. Safe to use from every worker; results never depend on what is
// cached. At most `capacity` rank sets are kept (about 0.7 MB each at n = 1,000); a full cache
// starts over.
class SharedExactTables {
 public:
  static constexpr std::size_t capacity = 256;
  // `sorted` = doubled ranks ascending.
  std::shared_ptr<const ExactTables> get(std::span<const std::int64_t> sorted, std::size_t kmax) const {
    Key key{kmax, std::vector<std::int64_t>(sorted.begin(), sorted.end())};
    {
      const std::lock_guard lock(mutex_);
      if (const auto it = tables_.find(key); it != tables_.end()) return it->second;
    }
    // Built outside the lock: a table with many ties takes milliseconds, and the other workers
    // would wait for it. Two workers may build the same table at once; the first kept wins and
    // both are the same integers, so results never depend on which.
    auto table = std::make_shared<const ExactTables>(key.ranks, kmax);
    const std::lock_guard lock(mutex_);
    if (const auto it = tables_.find(key); it != tables_.end()) return it->second;
    if (tables_.size() >= capacity) tables_.clear();
    tables_.emplace(std::move(key), table);
    return table;
  }
  // The tie-free table of length n.
  std::shared_ptr<const ExactTables> get(std::size_t n, std::size_t kmax) const {
    std::vector<std::int64_t> ranks(n);
    for (std::size_t i = 0; i < n; ++i) ranks[i] = static_cast<std::int64_t>(2 * (i + 1));
    return get(ranks, kmax);
  }

 private:
  struct Key {
    std::size_t kmax;
    std::vector<std::int64_t> ranks;
    bool operator<(const Key& o) const {
      if (kmax != o.kmax) return kmax < o.kmax;
      if (ranks.size() != o.ranks.size()) return ranks.size() < o.ranks.size();
      return ranks < o.ranks;
    }
  };
  mutable std::mutex mutex_;
  mutable std::map<Key, std::shared_ptr<const ExactTables>> tables_;
};

}  // namespace benchhist::detect::detail
