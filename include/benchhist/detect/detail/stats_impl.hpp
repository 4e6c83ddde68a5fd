#pragma once
// Shared statistical primitives (docs/statistics.md#numeric-conventions, #primitives).
// Implementation of detect/stats.hpp, compiled by lib/detect/stats.cpp (or inline
// everywhere with BENCHHIST_HEADER_ONLY, see detect/detail/config.hpp).

#include "benchhist/detect/detail/config.hpp"
#include "benchhist/detect/stats.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <limits>
#include <numeric>
#include <optional>
#include <type_traits>

#include "benchhist/detect/detail/exact_table.hpp"
#include "benchhist/detect/detail/u128.hpp"

namespace benchhist::detect {

namespace detail {
BENCHHIST_DETAIL_BEGIN
// One pass of a partition without a data-dependent branch: [first, result) are the keys that
// `goes_first` accepts, the rest follow (order within each side unspecified).
template <class GoesFirst>
BENCHHIST_DETAIL_INLINE std::int64_t* partition_keys(std::int64_t* first, std::int64_t* last, GoesFirst goes_first) {
  std::int64_t* write = first;
  for (std::int64_t* read = first; read != last; ++read) {
    const std::int64_t x = *read;
    *read = *write;
    *write = x;
    write += goes_first(x);
  }
  return write;
}

// std::nth_element's contract on keys (the k-th smallest at `nth`, none greater before it, none
// smaller after it), by a quickselect whose partition loop does not branch on the data: keys
// here are slopes and values in no useful order, on which the library's partition mispredicts
// about every other comparison (it was 40 % of Theil-Sen's time). Which equal key lands where
// may differ from nth_element; callers read only order statistics, which cannot.
BENCHHIST_DETAIL_INLINE void select_nth(std::int64_t* first, std::int64_t* nth, std::int64_t* last) {
  if (nth >= last) return;
  for (int round = 0; last - first > 32; ++round) {
    if (round == 64) {  // unlucky pivots: the library's introselect bounds the rest
      std::nth_element(first, nth, last);
      return;
    }
    const std::int64_t a = first[0], b = first[(last - first) / 2], c = last[-1];
    const std::int64_t pivot = std::max(std::min(a, b), std::min(std::max(a, b), c));
    std::int64_t* split = partition_keys(first, last, [pivot](std::int64_t x) { return x < pivot; });
    if (nth < split) {  // pivot itself is not below it, so the range shrinks
      last = split;
    } else if (split != first) {
      first = split;
    } else {  // the pivot is the least key: set its copies apart
      split = partition_keys(first, last, [pivot](std::int64_t x) { return x <= pivot; });
      if (nth < split) return;  // all equal to the pivot
      first = split;
    }
  }
  std::sort(first, last);
}
BENCHHIST_DETAIL_INLINE void select_nth(std::vector<std::int64_t>& keys, std::vector<std::int64_t>::iterator first,
                                        std::vector<std::int64_t>::iterator nth,
                                        std::vector<std::int64_t>::iterator last) {
  const auto at = [&](std::vector<std::int64_t>::iterator it) { return keys.data() + (it - keys.begin()); };
  select_nth(at(first), at(nth), at(last));
}

// The two middle values of `keys` (total-order keys), reordering it: (lower, upper) of the
// median pair; equal for an odd count.
BENCHHIST_DETAIL_INLINE std::pair<std::int64_t, std::int64_t> middle_keys(std::vector<std::int64_t>& keys) {
  const std::size_t n = keys.size();
  const std::size_t mid = n / 2;
  const auto at = keys.begin() + static_cast<std::ptrdiff_t>(mid);
  select_nth(keys, keys.begin(), at, keys.end());
  if (n % 2 == 1) return {*at, *at};
  return {*std::max_element(keys.begin(), at), *at};
}

BENCHHIST_DETAIL_INLINE double median_from_middle(bool odd_count, std::pair<std::int64_t, std::int64_t> middle) {
  const double b = from_total_order_key(middle.second);
  if (odd_count) return b;
  const double a = from_total_order_key(middle.first);
  return (a + b) / 2;  // literally, docs/statistics.md#numeric-conventions (not a + (b - a) / 2)
}
BENCHHIST_DETAIL_END
}  // namespace detail

// Selection runs on integer keys: the same order as the total-order comparator, at the cost
// of a plain integer compare.
BENCHHIST_DETECT_INLINE double median(std::vector<double> xs) {
  std::vector<std::int64_t> keys(xs.size());
  for (std::size_t i = 0; i < xs.size(); ++i) keys[i] = total_order_key(xs[i]);
  return detail::median_from_middle(keys.size() % 2 == 1, detail::middle_keys(keys));
}

BENCHHIST_DETECT_INLINE double relative(double delta, double base) noexcept {
  if (std::fabs(base) <= machine_epsilon) return delta < 0 ? -1.0 : 1.0;
  return delta / base;
}

BENCHHIST_DETECT_INLINE double clamp_p(double p) noexcept {
  if (!std::isfinite(p)) return 1.0;
  return std::min(std::max(p, p_value_floor), 1.0);
}

BENCHHIST_DETECT_INLINE double normal_two_sided_p(double z) noexcept { return clamp_p(std::erfc(std::fabs(z) / std::sqrt(2.0))); }

BENCHHIST_DETECT_INLINE std::vector<std::int64_t> doubled_ranks(std::span<const double> xs) {
  const std::size_t n = xs.size();
  std::vector<std::int64_t> keys(n);
  for (std::size_t i = 0; i < n; ++i) keys[i] = total_order_key(xs[i]);
  std::vector<std::size_t> idx(n);
  std::iota(idx.begin(), idx.end(), std::size_t{0});
  std::sort(idx.begin(), idx.end(), [&](std::size_t a, std::size_t b) { return keys[a] < keys[b]; });
  std::vector<std::int64_t> out(n);
  std::size_t s = 0;
  while (s < n) {
    std::size_t e = s + 1;
    while (e < n && keys[idx[e]] == keys[idx[s]]) ++e;
    // Sorted positions s+1 .. e (1-based) share the doubled rank (s+1) + e.
    const auto d = static_cast<std::int64_t>(s + 1 + e);
    for (std::size_t i = s; i < e; ++i) out[idx[i]] = d;
    s = e;
  }
  return out;
}

BENCHHIST_DETECT_INLINE double tie_term_from_doubled_ranks(std::span<const std::int64_t> doubled) {
  const std::vector<std::int64_t> sorted = detail::sorted_doubled_ranks(doubled);
  double t_sum = 0;
  std::size_t s = 0;
  while (s < sorted.size()) {
    std::size_t e = s + 1;
    while (e < sorted.size() && sorted[e] == sorted[s]) ++e;
    const auto t = static_cast<double>(e - s);
    t_sum += t * t * t - t;
    s = e;
  }
  return t_sum;
}

BENCHHIST_DETECT_INLINE PettittSplit pettitt_from_ranks(std::span<const std::int64_t> doubled) {
  const std::size_t n = doubled.size();
  PettittSplit out;
  const auto np1 = static_cast<std::int64_t>(n + 1);
  std::int64_t d = 0;
  std::int64_t best = -1;
  for (std::size_t t = 1; t < n; ++t) {
    d += doubled[t - 1];
    const std::int64_t u = d - static_cast<std::int64_t>(t) * np1;
    const std::int64_t a = u < 0 ? -u : u;
    if (a > best) {  // strictly greater: ties keep the earlier t (docs/statistics.md#pettitt-split)
      best = a;
      out.index = t;
      out.d_tau = d;
    }
  }
  out.k = best < 0 ? 0 : best;
  const auto nd = static_cast<double>(n);
  const auto kd = static_cast<double>(out.k);
  out.p_value = clamp_p(2.0 * std::exp(-6.0 * kd * kd / (nd * nd * nd + nd * nd)));
  return out;
}

BENCHHIST_DETECT_INLINE std::optional<PettittSplit> pettitt(std::span<const double> xs) {
  if (xs.size() < 2) return std::nullopt;
  return pettitt_from_ranks(doubled_ranks(xs));
}

BENCHHIST_DETECT_INLINE bool exact_mw_feasible(std::size_t n1, std::size_t n2) noexcept {
  const std::size_t k = std::min(n1, n2);
  const std::size_t N = n1 + n2;
  constexpr std::uint64_t limit = std::uint64_t{1} << 53;
  // C(N-k+i, i) for i = 1..k, each an exact integer; abort once it reaches 2^53.
  detail::u128 c = 1;
  for (std::size_t i = 1; i <= k; ++i) {
    c = c * (N - k + i) / i;
    if (c >= limit) return false;
  }
  return c < limit;
}

// The docs/statistics.md#mann-whitney-u normal approximation, split so the parts that depend only
// on the sizes are computed once per size (same operations, same order, so the same bits).
BENCHHIST_DETECT_INLINE NormalPLimit::Sizes::Sizes(std::size_t n1, std::size_t n2, double tie_term) noexcept {
  const auto a = static_cast<double>(n1);
  const auto b = static_cast<double>(n2);
  const double N = a + b;
  u_offset = a * (a + 1) / 2;
  pairs = a * b;
  mu = a * b / 2;
  const double var = (a * b / 12) * ((N + 1) - tie_term / (N * (N - 1)));
  positive_variance = var > 0;
  if (positive_variance) sd = std::sqrt(var);
}

BENCHHIST_DETECT_INLINE std::optional<double> NormalPLimit::Sizes::erfc_argument(double rank_sum_left) const noexcept {
  if (!positive_variance) return std::nullopt;
  const double u_left = rank_sum_left - u_offset;
  const double u_right = pairs - u_left;
  const double u = std::min(u_left, u_right);
  const double z = std::max(mu - u - 0.5, 0.0) / sd;
  return z / std::sqrt(2.0);
}

BENCHHIST_DETECT_INLINE std::optional<double> mw_normal_erfc_argument(std::size_t n1, std::size_t n2, double rank_sum_left,
                                              double tie_term) noexcept {
  return NormalPLimit::Sizes(n1, n2, tie_term).erfc_argument(rank_sum_left);
}

BENCHHIST_DETECT_INLINE double mw_normal_p(std::size_t n1, std::size_t n2, double rank_sum_left, double tie_term) noexcept {
  return clamp_p(mw_normal_p_unclamped(n1, n2, rank_sum_left, tie_term));
}

BENCHHIST_DETECT_INLINE double mw_normal_p_unclamped(std::size_t n1, std::size_t n2, double rank_sum_left, double tie_term) noexcept {
  const auto w = mw_normal_erfc_argument(n1, n2, rank_sum_left, tie_term);
  return w ? std::min(std::erfc(*w), 1.0) : 1.0;
}

BENCHHIST_DETECT_INLINE NormalPLimit::NormalPLimit(double limit) noexcept : limit_(limit) {
  if (!(limit > 0) || limit >= 1) return;  // decided without a search (erfc of w >= 0 is in (0, 1])
  // Bisect the crossing: erfc(low) > limit >= erfc(high). erfc(40) underflows to 0.
  double low = 0, high = 40;
  for (int i = 0; i < 200 && high - low > 1e-13 * high; ++i) {
    const double mid = low + (high - low) / 2;
    if (std::erfc(mid) <= limit) high = mid;
    else low = mid;
  }
  // A relative margin of 1e-7 moves erfc by far more than its rounding error, so outside the
  // band erfc's side of the limit is certain; inside it erfc is evaluated.
  certainly_above_ = low * (1 - 1e-7);
  certainly_at_or_below_ = high * (1 + 1e-7) + 1e-300;
  searched_ = true;
}

BENCHHIST_DETECT_INLINE bool NormalPLimit::reaches(std::size_t n1, std::size_t n2, double rank_sum_left, double tie_term) const noexcept {
  return reaches(Sizes(n1, n2, tie_term), rank_sum_left);
}

BENCHHIST_DETECT_INLINE bool NormalPLimit::reaches(const Sizes& sizes, double rank_sum_left) const noexcept {
  const auto w = sizes.erfc_argument(rank_sum_left);
  if (!w) return 1.0 <= limit_;
  if (!searched_) return std::min(std::erfc(*w), 1.0) <= limit_;
  if (*w >= certainly_at_or_below_) return true;
  if (*w <= certainly_above_) return false;
  return std::min(std::erfc(*w), 1.0) <= limit_;
}

BENCHHIST_DETECT_INLINE MannWhitney mann_whitney(std::span<const double> left, std::span<const double> right) {
  const std::size_t n1 = left.size(), n2 = right.size();
  MannWhitney out;
  if (n1 == 0 || n2 == 0) return out;
  std::vector<double> joint(left.begin(), left.end());
  joint.insert(joint.end(), right.begin(), right.end());
  const auto ranks = doubled_ranks(joint);
  std::int64_t d_left = 0;
  for (std::size_t i = 0; i < n1; ++i) d_left += ranks[i];
  const auto a = static_cast<double>(n1), b = static_cast<double>(n2);
  const double u_left = static_cast<double>(d_left) / 2 - a * (a + 1) / 2;
  const double u_right = a * b - u_left;
  out.superiority = u_right / (a * b);
  const std::size_t N = n1 + n2;
  if (exact_mw_feasible(n1, n2)) {
    const bool left_smaller = n1 <= n2;
    const std::size_t k = left_smaller ? n1 : n2;
    const std::int64_t total_sum = static_cast<std::int64_t>(N * (N + 1));
    const std::int64_t s = left_smaller ? d_left : total_sum - d_left;
    std::vector<std::int64_t> sorted(ranks);
    std::sort(sorted.begin(), sorted.end());
    detail::ExactTables tables(sorted, k);
    out.two_sided_p = clamp_p(tables.two_sided(k, s));
  } else {
    out.two_sided_p = mw_normal_p(n1, n2, static_cast<double>(d_left) / 2, tie_term_from_doubled_ranks(ranks));
  }
  return out;
}

namespace detail {
BENCHHIST_DETAIL_BEGIN
// A bottom-up merge sort that counts strict inversions (a later item with a smaller key)
// and, with `list`, hands each inverted pair of indices to it. Stable: equal keys keep their
// order, so they never count. Items are plain keys (counting only) or (key, index) pairs; they
// end up sorted by key.
struct KeyedIndex {
  std::int64_t key;
  std::uint32_t index;
};
inline std::int64_t inversion_key(std::int64_t key) { return key; }
inline std::int64_t inversion_key(const KeyedIndex& item) { return item.key; }
struct NoPairs {
  void operator()(std::uint32_t, std::uint32_t) const {}
};
template <class Item, class List = NoPairs>
BENCHHIST_DETAIL_INLINE std::uint64_t merge_inversions(std::vector<Item>& items, List&& list = {}) {
  const std::size_t n = items.size();
  std::vector<Item> buffer(n);
  std::uint64_t inversions = 0;
  for (std::size_t width = 1; width < n; width *= 2) {
    for (std::size_t lo = 0; lo < n; lo += 2 * width) {
      const std::size_t mid = std::min(lo + width, n), hi = std::min(lo + 2 * width, n);
      std::size_t i = lo, j = mid, o = lo;
      if constexpr (std::is_same_v<std::decay_t<List>, NoPairs>) {
        // Counting only: branch-free, as which side goes next is a coin toss on noisy data.
        while (i < mid && j < hi) {
          const bool right = inversion_key(items[j]) < inversion_key(items[i]);
          inversions += right ? mid - i : 0;  // every remaining left item is greater
          buffer[o++] = right ? items[j] : items[i];
          j += right;
          i += !right;
        }
      } else {
        while (i < mid && j < hi) {
          if (inversion_key(items[i]) <= inversion_key(items[j])) buffer[o++] = items[i++];
          else {
            inversions += mid - i;
            for (std::size_t t = i; t < mid; ++t) list(items[t].index, items[j].index);
            buffer[o++] = items[j++];
          }
        }
      }
      while (i < mid) buffer[o++] = items[i++];
      while (j < hi) buffer[o++] = items[j++];
    }
    items.swap(buffer);
  }
  return inversions;
}
BENCHHIST_DETAIL_END
}  // namespace detail

// S = concordant - discordant pairs. With N pairs, T tied pairs and D discordant (inverted)
// pairs, concordant = N - T - D, so S = N - T - 2D: exact integers in O(n log n) instead of
// the O(n^2) pair loop (1000-point series are the common case).
BENCHHIST_DETECT_INLINE MannKendall mann_kendall(std::span<const double> xs, double variance_factor) {
  const std::size_t n = xs.size();
  MannKendall out;
  if (n < 3) return out;
  std::vector<std::int64_t> keys(n);
  for (std::size_t i = 0; i < n; ++i) keys[i] = total_order_key(xs[i]);
  const std::uint64_t discordant = detail::merge_inversions(keys);  // keys now sorted
  std::uint64_t tied_pairs = 0;
  double ties = 0;
  for (std::size_t b = 0; b < n;) {
    std::size_t e = b + 1;
    while (e < n && keys[e] == keys[b]) ++e;
    const std::uint64_t t = e - b;
    tied_pairs += t * (t - 1) / 2;
    const auto td = static_cast<double>(t);
    ties += td * (td - 1) * (2 * td + 5);
    b = e;
  }
  const std::uint64_t pairs = static_cast<std::uint64_t>(n) * (n - 1) / 2;
  const auto s = static_cast<std::int64_t>(pairs - tied_pairs) - 2 * static_cast<std::int64_t>(discordant);
  out.s = static_cast<double>(s);
  const auto nd = static_cast<double>(n);
  double var = (nd * (nd - 1) * (2 * nd + 5) - ties) / 18;
  if (variance_factor != 1.0) var *= variance_factor;
  if (!(var > 0)) return out;
  double z = 0;
  if (s > 0) z = (out.s - 1) / std::sqrt(var);
  else if (s < 0) z = (out.s + 1) / std::sqrt(var);
  out.p_value = clamp_p(std::erfc(std::fabs(z) / std::sqrt(2.0)));
  return out;
}

namespace detail {
BENCHHIST_DETAIL_BEGIN
// One row of the slope classification, four quotients at a time (GCC vector extensions, so
// the same source serves SSE2 and, picked at run time, AVX2). Returns how many slopes are
// surely below `low`; appends the offsets of the unsure ones to `unsure` (m = their count).
typedef double v4d __attribute__((vector_size(32)));
typedef std::int64_t v4i __attribute__((vector_size(32)));

[[gnu::always_inline]] inline std::uint64_t classify_body(const double* xj, double xi, const double* reciprocal,
                                                          std::size_t len, double low, double high,
                                                          std::uint32_t* unsure, std::size_t& m) {
  // Shrunk bracket ends: |q - s| <= 1.6 eps |q| + 2^-1074, so q below low - 4 eps |low| - tiny
  // (or above high + 4 eps |high| + tiny) puts s strictly past that end, whether |q| is
  // near the end's magnitude or far beyond it (then s keeps q's sign and most of its size).
  // Infinite or NaN ends make every comparison false: everything is divided exactly.
  const double sure_low = low - 4 * machine_epsilon * std::fabs(low) - 1e-300;
  const double sure_high = high + 4 * machine_epsilon * std::fabs(high) + 1e-300;
  const v4d vxi = {xi, xi, xi, xi}, vlow = {sure_low, sure_low, sure_low, sure_low},
            vhigh = {sure_high, sure_high, sure_high, sure_high};
  v4i below = {0, 0, 0, 0};
  std::size_t t = 0;
  for (; t + 4 <= len; t += 4) {
    v4d x, r;
    std::memcpy(&x, xj + t, sizeof x);
    std::memcpy(&r, reciprocal + t, sizeof r);
    const v4d q = (x - vxi) * r;
    const v4i surely_below = q < vlow;  // lanes: -1 true, 0 false
    const v4i surely_above = q > vhigh;
    below -= surely_below;
    const v4i sure = surely_below | surely_above;
    if ((sure[0] & sure[1] & sure[2] & sure[3]) != -1)
      for (std::size_t lane = 0; lane < 4; ++lane)
        if (sure[lane] == 0) unsure[m++] = static_cast<std::uint32_t>(t + lane);
  }
  std::uint64_t count = static_cast<std::uint64_t>(below[0] + below[1] + below[2] + below[3]);
  for (; t < len; ++t) {
    const double q = (xj[t] - xi) * reciprocal[t];
    const bool surely_below = q < sure_low;
    count += surely_below;
    if (!surely_below && !(q > sure_high)) unsure[m++] = static_cast<std::uint32_t>(t);
  }
  return count;
}

using ClassifyFn = std::uint64_t (*)(const double*, double, const double*, std::size_t, double, double,
                                     std::uint32_t*, std::size_t&);
BENCHHIST_DETAIL_INLINE std::uint64_t classify_generic(const double* xj, double xi, const double* reciprocal, std::size_t len, double low,
                               double high, std::uint32_t* unsure, std::size_t& m) {
  return classify_body(xj, xi, reciprocal, len, low, high, unsure, m);
}
#if defined(__x86_64__) && defined(__GNUC__)
BENCHHIST_DETAIL_INLINE __attribute__((target("avx2"))) std::uint64_t classify_avx2(const double* xj, double xi, const double* reciprocal,
                                                            std::size_t len, double low, double high,
                                                            std::uint32_t* unsure, std::size_t& m) {
  return classify_body(xj, xi, reciprocal, len, low, high, unsure, m);
}
#endif
BENCHHIST_DETAIL_INLINE ClassifyFn pick_classify() {
#if defined(__x86_64__) && defined(__GNUC__)
  if (__builtin_cpu_supports("avx2")) return classify_avx2;
#endif
  return classify_generic;
}

// Slopes of row i: (x[j] - x[i]) / (j - i) for j > i, exactly as docs/statistics.md#theil-sen-line
// writes them.
BENCHHIST_DETAIL_INLINE void row_slopes(std::span<const double> xs, std::size_t i, double* out) {
  const double xi = xs[i];
  for (std::size_t j = i + 1; j < xs.size(); ++j) out[j - i - 1] = (xs[j] - xi) / static_cast<double>(j - i);
}

BENCHHIST_DETAIL_INLINE std::uint64_t pairs_of(std::size_t n) { return static_cast<std::uint64_t>(n) * (n - 1) / 2; }

// The median pair of the pairwise slopes in O(n log n + K), K the slopes inside a sampled
// bracket [low, high]. slope(i, j) < t  <=>  y_j < y_i for y_k = x_k - t k, so the pairs below
// a threshold t are the inversions of y, and the pairs between t1 and t2 are those in order
// under t1 and out of order under t2: the inversions of y2 taken in y1's sorted order, listed
// by a merge sort. Rounding in y misplaces a pair only within `slack` of a threshold (the
// difference of two y's is off by at most eps (max|x| + 2 |t| n), and the division of the
// exact slope by at most eps (max|x| + |t|), slack is four times their sum), so the thresholds
// sit 2 slack outside the bracket: then no pair is below t1 and above t2 at once, every pair is
// either counted below t1 or listed, and one below t1 is surely below a middle slope that lies
// past t1 + slack. `lows` and `highs` are candidate ends, tightest first: each side takes the
// first whose exact count holds the middle ranks. The answer is taken only when the listed pairs
// hold both middle ranks that far inside; otherwise (or with non-finite values) the caller's
// other paths decide.
BENCHHIST_DETAIL_INLINE std::optional<std::pair<std::int64_t, std::int64_t>> middle_slope_keys_by_inversions(
    std::span<const double> xs, std::span<const double> lows, std::span<const double> highs, std::uint64_t lower_rank,
    std::uint64_t upper_rank) {
  const std::size_t n = xs.size();
  double max_abs = 0;
  for (double x : xs) {
    if (!std::isfinite(x)) return std::nullopt;
    max_abs = std::max(max_abs, std::fabs(x));
  }
  double t_abs = 0;
  for (double t : lows) t_abs = std::max(t_abs, std::fabs(t));
  for (double t : highs) t_abs = std::max(t_abs, std::fabs(t));
  const double slack = 4 * machine_epsilon * (2 * max_abs + 2 * t_abs * static_cast<double>(n) + t_abs) + 1e-300;
  if (!std::isfinite(slack)) return std::nullopt;
  const auto y_keys = [&](double t) {
    std::vector<KeyedIndex> items(n);
    for (std::size_t k = 0; k < n; ++k)
      items[k] = {total_order_key(xs[k] - t * static_cast<double>(k)), static_cast<std::uint32_t>(k)};
    return items;
  };
  // The tightest candidate on each side whose exact count still holds the middle ranks.
  double t1 = 0, t2 = 0;
  std::vector<KeyedIndex> order;
  std::uint64_t below = 0, below_t2 = 0;
  bool low_found = false, high_found = false;
  for (double low : lows) {
    t1 = low - 2 * slack;
    order = y_keys(t1);
    below = merge_inversions(order);  // order: indices by y1, ties by index
    if ((low_found = below <= lower_rank)) break;
  }
  for (double high : highs) {
    t2 = high + 2 * slack;
    std::vector<KeyedIndex> under_t2 = y_keys(t2);
    below_t2 = merge_inversions(under_t2);
    if ((high_found = below_t2 > upper_rank)) break;
  }
  if (!low_found || !high_found || !(t1 + 4 * slack <= t2) || below_t2 < below) return std::nullopt;
  const std::uint64_t count = below_t2 - below;

  std::vector<std::int64_t> y2(n);
  for (std::size_t k = 0; k < n; ++k) y2[k] = total_order_key(xs[k] - t2 * static_cast<double>(k));
  for (auto& item : order) item.key = y2[item.index];
  std::vector<std::int64_t> inside;
  // A capacity that depends only on n: the allocator then reuses one block series after series
  // instead of mapping fresh pages for each slightly larger count.
  inside.reserve(static_cast<std::size_t>(std::max(count, pairs_of(n) / 16)));
  merge_inversions(order, [&](std::uint32_t p, std::uint32_t q) {
    const std::uint32_t a = std::min(p, q), b = std::max(p, q);
    inside.push_back(total_order_key((xs[b] - xs[a]) / static_cast<double>(b - a)));
  });
  if (inside.size() != count) return std::nullopt;
  const auto at = inside.begin() + static_cast<std::ptrdiff_t>(upper_rank - below);
  select_nth(inside, inside.begin(), at, inside.end());
  const std::int64_t upper = *at;
  const std::int64_t lower = lower_rank == upper_rank ? upper : *std::max_element(inside.begin(), at);
  const double lowest_sure = t1 + 1.5 * slack, highest_sure = t2 - 1.5 * slack;
  if (!(from_total_order_key(lower) > lowest_sure && from_total_order_key(upper) < highest_sure)) return std::nullopt;
  return std::pair{lower, upper};
}

// The median pair of all n(n-1)/2 pairwise slopes (as keys), without storing them all: a
// deterministic sample brackets the middle ranks, and the slopes inside the bracket are listed
// by inversions (above) or, when that cannot answer, by one pass that counts the slopes below
// the bracket and keeps those inside it; the exact ranks are selected there. When the bracket
// misses (possible only for adversarial orders) every slope is stored and selected.
BENCHHIST_DETAIL_INLINE std::pair<std::int64_t, std::int64_t> middle_slope_keys(std::span<const double> xs, std::size_t samples) {
  const std::size_t n = xs.size();
  const std::uint64_t pairs = pairs_of(n);
  const std::uint64_t upper_rank = pairs / 2;
  const std::uint64_t lower_rank = pairs % 2 == 1 ? upper_rank : upper_rank - 1;
  constexpr std::uint64_t small = 20'000;  // below this, storing everything beats the quotient pass
  constexpr std::uint64_t tiny = 512;      // below this, storing everything beats any bracket
  // A small series needs no more samples than an eighth of its pairs.
  samples = static_cast<std::size_t>(std::min<std::uint64_t>(samples, std::max<std::uint64_t>(256, pairs / 8)));
  std::optional<std::pair<std::int64_t, std::int64_t>> bracket;  // sampled keys around the middle
  if (pairs > tiny && samples >= 4) {
    // Sample: slopes of pseudo-random pairs (a fixed LCG, so the result never depends on it).
    std::vector<std::int64_t> sample;
    sample.reserve(samples);
    std::uint64_t state = 0x9E3779B97F4A7C15ULL;
    while (sample.size() < samples) {
      state = state * 6364136223846793005ULL + 1442695040888963407ULL;
      // Two indices from the high and low halves by multiply-shift (no division).
      const auto i = static_cast<std::size_t>(((state >> 32) * static_cast<std::uint64_t>(n)) >> 32);
      const auto j = static_cast<std::size_t>(((state & 0xFFFFFFFFULL) * static_cast<std::uint64_t>(n)) >> 32);
      if (i == j) continue;
      const std::size_t a = std::min(i, j), b = std::max(i, j);
      sample.push_back(total_order_key((xs[b] - xs[a]) / static_cast<double>(b - a)));
    }
    // +-3.5 standard errors of a sample quantile around the middle: a miss (about 1 in 2,000)
    // only costs the full-storage fallback.
    const auto margin = std::min(static_cast<std::size_t>(3.5 * 0.5 * std::sqrt(static_cast<double>(samples))),
                                 samples / 2 - 1);
    const std::size_t lo_at = samples / 2 - margin, hi_at = samples / 2 + margin;
    select_nth(sample, sample.begin(), sample.begin() + static_cast<std::ptrdiff_t>(lo_at), sample.end());
    const std::int64_t low_key = sample[lo_at];
    select_nth(sample, sample.begin() + static_cast<std::ptrdiff_t>(lo_at), sample.begin() + static_cast<std::ptrdiff_t>(hi_at),
               sample.end());
    const std::int64_t high_key = sample[hi_at];
    bracket = {low_key, high_key};
    // Exact counts make a miss cheap for the inversion path, so it tries a bracket of 1.5
    // standard errors first (a third as many slopes inside) and falls back to the 3.5 one.
    const auto tight = static_cast<std::size_t>(1.5 * 0.5 * std::sqrt(static_cast<double>(samples)));
    std::vector<double> lows, highs;
    if (tight > 0 && tight < margin) {
      const std::size_t tight_lo = samples / 2 - tight, tight_hi = samples / 2 + tight;
      const auto at = [&](std::size_t k) { return sample.begin() + static_cast<std::ptrdiff_t>(k); };
      select_nth(sample, at(lo_at + 1), at(tight_lo), at(hi_at));
      select_nth(sample, at(tight_lo + 1), at(tight_hi), at(hi_at));
      lows.push_back(from_total_order_key(sample[tight_lo]));
      highs.push_back(from_total_order_key(sample[tight_hi]));
    }
    lows.push_back(from_total_order_key(low_key));
    highs.push_back(from_total_order_key(high_key));
    if (auto middle = middle_slope_keys_by_inversions(xs, lows, highs, lower_rank, upper_rank)) return *middle;
  }
  if (pairs > small && bracket) {
    const auto [low_key, high_key] = *bracket;
    // Most slopes are classified from a cheap quotient q = (x[j] - x[i]) * (1/d): q and the
    // exact slope s = (x[j] - x[i]) / d are within two roundings of the same real quotient, so
    // q clearly past a bracket end puts s past it too (classify_body). Only the rest (NaN and
    // infinities included) are divided exactly.
    const double low_slope = from_total_order_key(low_key), high_slope = from_total_order_key(high_key);
    std::vector<double> reciprocal(n);
    for (std::size_t d = 1; d < n; ++d) reciprocal[d] = 1.0 / static_cast<double>(d);
    std::vector<std::uint32_t> unsure(n);
    std::uint64_t below = 0;
    std::vector<std::int64_t> inside;
    inside.reserve(static_cast<std::size_t>(pairs / 16));
    const ClassifyFn classify = pick_classify();
    for (std::size_t i = 0; i + 1 < n; ++i) {
      const double xi = xs[i];
      const std::size_t len = n - i - 1;
      const double* xj = xs.data() + i + 1;
      std::size_t m = 0;
      below += classify(xj, xi, reciprocal.data() + 1, len, low_slope, high_slope, unsure.data(), m);
      for (std::size_t u = 0; u < m; ++u) {
        const std::size_t t = unsure[u];
        const std::int64_t key = total_order_key((xj[t] - xi) / static_cast<double>(t + 1));
        if (key < low_key) ++below;
        else if (key <= high_key) inside.push_back(key);
      }
    }
    const std::size_t count = inside.size();
    if (below <= lower_rank && below + count > upper_rank) {
      const auto at = inside.begin() + static_cast<std::ptrdiff_t>(upper_rank - below);
      select_nth(inside, inside.begin(), at, inside.end());
      if (lower_rank == upper_rank) return {*at, *at};
      return {*std::max_element(inside.begin(), at), *at};
    }
  }
  std::vector<std::int64_t> keys;
  keys.reserve(pairs);
  std::vector<double> row(n);
  for (std::size_t i = 0; i + 1 < n; ++i) {
    row_slopes(xs, i, row.data());
    for (std::size_t t = 0; t < n - i - 1; ++t) keys.push_back(total_order_key(row[t]));
  }
  return middle_keys(keys);
}
BENCHHIST_DETAIL_END
}  // namespace detail

namespace detail {
BENCHHIST_DETECT_INLINE double median_pairwise_slope(std::span<const double> xs, std::size_t bracket_samples) {
  const std::uint64_t pairs = detail::pairs_of(xs.size());
  return detail::median_from_middle(pairs % 2 == 1, detail::middle_slope_keys(xs, bracket_samples));
}
BENCHHIST_DETECT_INLINE std::optional<double> median_pairwise_slope_by_inversions(std::span<const double> xs, double low,
                                                                                 double high) {
  if (xs.size() < 2) return std::nullopt;
  const std::uint64_t pairs = detail::pairs_of(xs.size());
  const std::uint64_t upper = pairs / 2, lower = pairs % 2 == 1 ? upper : upper - 1;
  const double lows[] = {low}, highs[] = {high};
  const auto middle = detail::middle_slope_keys_by_inversions(xs, lows, highs, lower, upper);
  if (!middle) return std::nullopt;
  return detail::median_from_middle(pairs % 2 == 1, *middle);
}
}  // namespace detail

BENCHHIST_DETECT_INLINE std::optional<TheilSen> theil_sen(std::span<const double> xs) {
  const std::size_t n = xs.size();
  if (n < 2) return std::nullopt;
  TheilSen out;
  out.slope = detail::median_pairwise_slope(xs, detail::theil_sen_bracket_samples);
  std::vector<double> icpt(n);
  for (std::size_t i = 0; i < n; ++i) icpt[i] = xs[i] - out.slope * static_cast<double>(i);
  out.intercept = median(std::move(icpt));
  return out;
}

BENCHHIST_DETECT_INLINE std::optional<double> step_residual(std::span<const double> xs, std::size_t tau) {
  if (tau == 0 || tau >= xs.size()) return std::nullopt;
  const double mb = median(std::vector<double>(xs.begin(), xs.begin() + static_cast<std::ptrdiff_t>(tau)));
  const double ma = median(std::vector<double>(xs.begin() + static_cast<std::ptrdiff_t>(tau), xs.end()));
  std::vector<double> r(xs.size());
  for (std::size_t i = 0; i < xs.size(); ++i) r[i] = std::fabs(xs[i] - (i < tau ? mb : ma));
  return median(std::move(r));
}

BENCHHIST_DETECT_INLINE std::optional<double> line_residual(std::span<const double> xs, const TheilSen& line) {
  if (xs.empty()) return std::nullopt;
  std::vector<double> r(xs.size());
  for (std::size_t i = 0; i < xs.size(); ++i)
    r[i] = std::fabs(xs[i] - (line.intercept + line.slope * static_cast<double>(i)));
  return median(std::move(r));
}

BENCHHIST_DETECT_INLINE std::optional<Interval> regime_interval(std::span<const std::optional<Interval>> intervals) {
  std::vector<double> lows, highs;
  for (const auto& iv : intervals) {
    if (!iv) continue;
    lows.push_back(iv->low);
    highs.push_back(iv->high);
  }
  if (lows.empty() || highs.empty()) return std::nullopt;
  return Interval{median(std::move(lows)), median(std::move(highs))};
}

BENCHHIST_DETECT_INLINE std::optional<double> median_half_width(std::span<const std::optional<Interval>> intervals) {
  std::vector<double> hw;
  for (const auto& iv : intervals)
    if (iv) hw.push_back((iv->high - iv->low) / 2);
  if (hw.empty()) return std::nullopt;
  return median(std::move(hw));
}

}  // namespace benchhist::detect
