#pragma once
// The orbit scorer of the split-search correction (docs/statistics.md#scorer, #orbit): counts the
// extreme orbit elements, exhaustively over distinct orderings or over the fixed subgroup, with the
// certified shortcut of docs/performance.md.
// Private to the split-search correction (detect/split_correction.hpp); exposed in
// benchhist::detect::detail only so the vectors and tests can pin it. Not API.

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <numeric>
#include <optional>
#include <span>
#include <vector>

#include "benchhist/detect/detail/config.hpp"
#include "benchhist/detect/detail/analytic_bound.hpp"
#include "benchhist/detect/detail/exact_table.hpp"
#include "benchhist/detect/detail/orbit_group.hpp"
#include "benchhist/detect/detail/split_search.hpp"
#include "benchhist/detect/detail/u128.hpp"
#include "benchhist/detect/stats.hpp"

namespace benchhist::detect::detail {
BENCHHIST_DETAIL_BEGIN

// Whether some exact size k (min_regime..max_exact) has an achievable sum with p <= p_obs. The
// most extreme achievable sum has at least one subset on its side, so its p is at least
// 2 / C(n, k) (same rounding as the table's 2 * min(lower, upper) / total, lower and upper >= 1).
BENCHHIST_DETAIL_INLINE bool exact_sizes_can_be_extreme(std::size_t n, std::size_t min_regime, std::size_t max_exact, double p_obs) {
  u128 c = 1;  // C(n, k), exact: every exact size has C(n, k) < 2^53
  for (std::size_t k = 1; k <= max_exact; ++k) {
    c = c * (n - k + 1) / k;
    if (k >= min_regime && clamp_p(std::min(2.0 / static_cast<double>(c), 1.0)) <= p_obs) return true;
  }
  return false;
}

// "p_g <= p_obs" as a table: exact sizes get a flag per sum, normal sizes a minimal deviation
// |sum - k(n+1)| (= Pettitt's K, the normal p is exactly symmetric in it and non-increasing).
struct ExtremeTest {
  std::size_t n = 0;
  std::size_t min_regime = 5;
  std::size_t max_exact = 0;
  bool unreportable_extreme = false;
  std::vector<std::vector<char>> exact_flags;
  std::vector<std::int64_t> normal_delta;
  std::int32_t min_k = 0;  // no ordering with a smaller Pettitt K can be extreme
  std::vector<std::int64_t> delta_by_k;  // per split size: least K that can be extreme there
  std::vector<std::int64_t> max_deviation;  // per split size: largest |U_t| any ordering reaches
  std::int64_t certain_k = never;  // any |U_t| >= certain_k makes an ordering extreme
  // docs/divergences.md#s3--the-most-likely-split-is-the-split-search: with the min-p search an
  // ordering is extreme iff some admissible split has p <= p_obs (the smallest p is then <= p_obs
  // too), i.e. iff U_t >= hi_at[t] or U_t <= -lo_at[t] for some t (doubled U; `never` outside
  // [min_regime, n - min_regime]). Exact sizes' flags are a prefix and a suffix of the sums (the
  // lower count only grows with the sum, the upper only shrinks), normal sizes' are symmetric.
  bool min_p = false;
  std::vector<std::int64_t> hi_at, lo_at;

  ExtremeTest(const Scorer& sc, double p_obs, bool min_p_search = false)
      : n(sc.n), min_regime(sc.min_regime), max_exact(sc.max_exact), min_p(min_p_search) {
    unreportable_extreme = 1.0 <= p_obs;
    exact_flags.resize(max_exact + 1);
    // Without tables no exact size can be extreme (exact_sizes_can_be_extreme): flags stay empty.
    for (std::size_t k = min_regime; k <= max_exact && sc.tables; ++k) {
      const auto c = sc.tables->counts(k);
      double total = 0;
      for (double v : c) total += v;
      std::vector<double> upper(c.size() + 1, 0.0);
      for (std::size_t i = c.size(); i-- > 0;) upper[i] = upper[i + 1] + c[i];
      auto& flags = exact_flags[k];
      flags.assign(c.size(), 0);
      double lower = 0;
      for (std::size_t s = 0; s < c.size(); ++s) {
        lower += c[s];
        const double p = clamp_p(std::min(2.0 * std::min(lower, upper[s]) / total, 1.0));
        flags[s] = p <= p_obs;
      }
    }
    normal_delta.assign(n / 2 + 1, never);
    max_deviation.assign(n / 2 + 1, 0);
    const NormalPLimit at_most_p_obs(p_obs);
    std::int64_t lo = 0, hi = 0;
    for (std::size_t k = 1; k <= n / 2; ++k) {
      lo += sc.sorted[k - 1];
      hi += sc.sorted[n - k];
      const auto centre = static_cast<std::int64_t>(k * (n + 1));
      const std::int64_t max_dev = std::max(centre - lo, hi - centre);
      max_deviation[k] = max_dev;
      if (k < min_regime || k <= max_exact) continue;
      const NormalPLimit::Sizes sizes(k, n - k, sc.tie_term);
      auto extreme = [&](std::int64_t d) { return at_most_p_obs.reaches(sizes, static_cast<double>(centre + d) / 2); };
      if (!extreme(max_dev)) continue;
      std::int64_t low = 0, high = max_dev;
      while (low < high) {
        const std::int64_t mid = low + (high - low) / 2;
        if (extreme(mid)) high = mid;
        else low = mid + 1;
      }
      normal_delta[k] = low;
    }
    // Extreme at size k means |smaller sum - k(n+1)| (= K) is flagged; K is the same deviation.
    delta_by_k = normal_delta;
    for (std::size_t k = min_regime; k <= max_exact && k < exact_flags.size(); ++k) {
      // No flags without tables (see above): then there is no table to read either.
      if (exact_flags[k].empty()) continue;
      const auto centre = static_cast<std::int64_t>(k * (n + 1));
      // Only achievable sums count: below the k smallest ranks "lower" is 0 and p clamps.
      const auto counts = sc.tables->counts(k);
      for (std::size_t s = 0; s < exact_flags[k].size(); ++s)
        if (exact_flags[k][s] && counts[s] > 0)
          delta_by_k[k] = std::min(delta_by_k[k], std::abs(static_cast<std::int64_t>(s) - centre));
    }
    std::int64_t least = never;
    for (std::int64_t d : delta_by_k) least = std::min(least, d);
    if (unreportable_extreme) least = 0;
    min_k = static_cast<std::int32_t>(std::min<std::int64_t>(least, std::int64_t{1} << 30));
    // certain_k: an ordering with |U_t| >= certain_k at any t has Pettitt K' >= certain_k, so
    // its split size k' has max_deviation[k'] >= certain_k; every such size is a normal size
    // whose least extreme K is <= certain_k, hence the ordering is extreme. Sizes that are
    // unreportable, exact, or never extreme are kept out of reach (certain_k above their
    // largest possible deviation).
    std::int64_t certain = 0;
    for (std::size_t k = 1; k <= n / 2; ++k) {
      const bool normal_size = k >= min_regime && k > max_exact && normal_delta[k] != never;
      certain = std::max(certain, normal_size ? normal_delta[k] : max_deviation[k] + 1);
    }
    certain_k = certain;
    if (min_p) thresholds_by_split(sc, p_obs);
  }

  // hi_at / lo_at (see above). p_obs < 1 here (the orbit runs only below the reject level), so
  // "clamp_p(min(2 min(L, U) / total, 1)) <= p_obs" is "2 L / total <= p_obs or 2 U / total <= p_obs".
  void thresholds_by_split(const Scorer& sc, double p_obs) {
    std::vector<std::int64_t> up(n / 2 + 1, never), down(n / 2 + 1, never);  // on the smaller side's deviation
    for (std::size_t k = min_regime; k <= n / 2; ++k) {
      const auto centre = static_cast<std::int64_t>(k * (n + 1));
      if (k > max_exact) {
        up[k] = down[k] = normal_delta[k];
        continue;
      }
      if (!sc.tables || exact_flags[k].empty()) continue;  // no exact size can be extreme
      const auto& t = *sc.tables;
      const double total = t.total(k);
      const auto top = static_cast<std::int64_t>(t.sums(k)) - 1;
      for (std::int64_t s = top; s >= 0; --s)
        if (2.0 * t.lower(k, s) / total <= p_obs) {
          down[k] = centre - s;
          break;
        }
      for (std::int64_t s = 0; s <= top; ++s)
        if (2.0 * t.upper(k, s) / total <= p_obs) {
          up[k] = s - centre;
          break;
        }
    }
    hi_at.assign(n + 1, never);
    lo_at.assign(n + 1, never);
    for (std::size_t t = min_regime; t + min_regime <= n; ++t) {
      const std::size_t k = std::min(t, n - t);
      // The smaller side's deviation is U_t when it is the left part, -U_t when the right.
      if (t <= n - t) hi_at[t] = up[k], lo_at[t] = down[k];
      else hi_at[t] = down[k], lo_at[t] = up[k];
    }
  }

  bool crosses(std::size_t t, std::int64_t u) const {
    return (hi_at[t] != never && u >= hi_at[t]) || (lo_at[t] != never && u <= -lo_at[t]);
  }

  bool operator()(std::size_t tau, std::int64_t d_tau, std::int64_t kstat) const {
    const std::size_t k = std::min(tau, n - tau);
    if (k < min_regime) return unreportable_extreme;
    if (k <= max_exact) {
      const std::int64_t sum = tau <= n - tau ? d_tau : static_cast<std::int64_t>(n * (n + 1)) - d_tau;
      const auto& f = exact_flags[k];
      return sum >= 0 && static_cast<std::size_t>(sum) < f.size() && f[static_cast<std::size_t>(sum)];
    }
    return kstat >= normal_delta[k];
  }
};

// Running count with the docs/statistics.md#procedure early exits. Returns the adjusted value once
// decided.
struct OrbitCounter {
  double order = 1;
  double weight = 0.1;
  double wa = 1;
  double reject = 0.025;
  double p_obs = 1;
  std::uint64_t extreme = 0;
  std::optional<double> decided;

  bool add_extreme() {  // false = stop
    ++extreme;
    const double p = static_cast<double>(extreme) / order / (1 - weight);
    if (p >= wa) decided = std::max(wa, p_obs);
    else if (p >= reject) decided = 1.0;
    return !decided;
  }
  // `count` extreme orderings at once: the same decision add_extreme would reach one by one.
  void add_extremes(std::uint64_t count) {
    if (decided || count == 0) return;
    const double bar = std::min(wa, reject);
    auto p_at = [&](std::uint64_t c) { return static_cast<double>(c) / order / (1 - weight); };
    // The first running count whose p reaches the bar; the division is monotone in c, so a
    // floating estimate corrected by stepping decides exactly where the one-by-one count would.
    if (p_at(extreme + count) < bar) {
      extreme += count;
      return;
    }
    const double estimate = std::ceil(bar * order * (1 - weight));
    std::uint64_t c = std::max<std::uint64_t>(extreme + 1, estimate > 0 ? static_cast<std::uint64_t>(estimate) : 1);
    c = std::min(c, extreme + count);
    while (c > extreme + 1 && p_at(c - 1) >= bar) --c;
    while (p_at(c) < bar) ++c;
    extreme = c;
    const double p = p_at(c);
    if (p >= wa) decided = std::max(wa, p_obs);
    else decided = 1.0;
  }
  double finish() const {
    if (decided) return *decided;
    return std::max(std::min({wa, static_cast<double>(extreme) / order / (1 - weight), 1.0}), p_obs);
  }
};

// (a) every distinct ordering, scored with prefix sums updated from the first changed index.
BENCHHIST_DETAIL_INLINE void run_distinct_orbit_min_p(const Scorer& sc, const ExtremeTest& is_extreme, OrbitCounter& counter) {
  const std::size_t n = sc.n;
  std::vector<std::int64_t> cur = sc.sorted;
  const auto np1 = static_cast<std::int64_t>(n + 1);
  // D[t] and whether some split <= t crosses its threshold.
  std::vector<std::int64_t> D(n + 1, 0);
  std::vector<char> hit(n + 1, 0);
  auto recompute_from = [&](std::size_t first_changed) {
    for (std::size_t t = std::max<std::size_t>(first_changed + 1, 1); t <= n; ++t) {
      D[t] = D[t - 1] + cur[t - 1];
      hit[t] = static_cast<char>(hit[t - 1] || is_extreme.crosses(t, D[t] - static_cast<std::int64_t>(t) * np1));
    }
  };
  recompute_from(0);
  while (true) {
    if (hit[n] && !counter.add_extreme()) return;
    const std::size_t changed = next_permutation_from(cur);
    if (changed == n) return;
    recompute_from(changed);
  }
}

// S7 (docs/divergences.md#s7--a-short-series-orbit-is-complete): the complete orbit of the min-p
// search counted on the lattice of prefix sets. An ordering is extreme iff one of its prefixes,
// the set U of its first t elements, crosses at t (ExtremeTest::crosses depends on t = |U| and the
// doubled-rank sum of U only). The orderings with no crossing prefix are the paths from the empty
// set to the full one that avoid every crossing set: good(U) = 0 if U crosses, else the sum of
// good(U - e) over e in U; extreme = n! - good(all). Elements with equal ranks are counted as
// distinct, so orderings come n!/G times each and the share is the distinct orbit's exactly.
// O(n 2^n), for n <= lattice_orbit_max_points.
BENCHHIST_DETAIL_INLINE void run_lattice_orbit(const Scorer& sc, const ExtremeTest& is_extreme, OrbitCounter& counter) {
  const std::size_t n = sc.n;
  const auto np1 = static_cast<std::int64_t>(n + 1);
  std::uint64_t factorial = 1;
  for (std::size_t i = 2; i <= n; ++i) factorial *= i;
  const std::size_t sets = std::size_t{1} << n;
  std::vector<std::uint64_t> good(sets, 0);
  good[0] = 1;
  for (std::size_t u = 1; u < sets; ++u) {
    std::int64_t d = 0;
    std::uint64_t paths = 0;
    std::size_t t = 0;
    for (std::size_t rest = u; rest != 0; rest &= rest - 1) {
      const auto e = static_cast<std::size_t>(std::countr_zero(rest));
      d += sc.sorted[e];
      paths += good[u & ~(std::size_t{1} << e)];
      ++t;
    }
    good[u] = is_extreme.crosses(t, d - static_cast<std::int64_t>(t) * np1) ? 0 : paths;
  }
  counter.order = static_cast<double>(factorial);
  counter.add_extremes(factorial - good[sets - 1]);
}

BENCHHIST_DETAIL_INLINE void run_distinct_orbit(const Scorer& sc, const ExtremeTest& is_extreme, OrbitCounter& counter) {
  if (is_extreme.min_p) return run_distinct_orbit_min_p(sc, is_extreme, counter);
  const std::size_t n = sc.n;
  std::vector<std::int64_t> cur = sc.sorted;
  const auto np1 = static_cast<std::int64_t>(n + 1);
  // For t = 1..n-1: D[t], best K over 1..t with its first tau and D.
  std::vector<std::int64_t> D(n, 0), bestK(n, -1), bestD(n, 0);
  std::vector<std::size_t> bestT(n, 1);
  auto recompute_from = [&](std::size_t first_changed) {
    // D[t] depends on positions < t, so t <= first_changed is unchanged.
    std::size_t t = std::max<std::size_t>(first_changed + 1, 1);
    for (; t < n; ++t) {
      D[t] = (t == 1 ? 0 : D[t - 1]) + cur[t - 1];
      const std::int64_t u = D[t] - static_cast<std::int64_t>(t) * np1;
      const std::int64_t a = u < 0 ? -u : u;
      if (t == 1 || a > bestK[t - 1]) {
        bestK[t] = a;
        bestT[t] = t;
        bestD[t] = D[t];
      } else {
        bestK[t] = bestK[t - 1];
        bestT[t] = bestT[t - 1];
        bestD[t] = bestD[t - 1];
      }
    }
  };
  recompute_from(0);
  while (true) {
    if (is_extreme(bestT[n - 1], bestD[n - 1], bestK[n - 1]) && !counter.add_extreme()) return;
    const std::size_t changed = next_permutation_from(cur);
    if (changed == n) return;
    recompute_from(changed);
  }
}

// The two hot kernels of the subgroup orbit, compiled twice: AVX2 when the CPU has it (picked
// once at run time), SSE2 otherwise. Same integer arithmetic either way, so same counts.
struct LeafScan {
  std::int32_t best;
  bool hit;
};

[[gnu::always_inline]] inline void add_body(std::int32_t* __restrict to, const std::int32_t* __restrict a,
                                            const std::int32_t* __restrict b, std::size_t len) {
  for (std::size_t l = 0; l < len; ++l) to[l] = a[l] + b[l];
}

// With c = from + add1 + add2 the grid's prefix sums, m_l = max over the segment after grid
// slot l of |U_t|; best = max(k0, m); hit = some segment reaches the least extreme K of its
// split sizes.
[[gnu::always_inline]] inline LeafScan leaf_body(const std::int32_t* __restrict from,
                                                 const std::int32_t* __restrict add1,
                                                 const std::int32_t* __restrict add2,
                                                 const std::int32_t* __restrict smax,
                                                 const std::int32_t* __restrict smin,
                                                 const std::int32_t* __restrict thr, std::size_t len,
                                                 std::int32_t k0) {
  std::int32_t best = k0;
  std::int32_t hit = 0;
  for (std::size_t l = 0; l < len; ++l) {
    const std::int32_t c = from[l] + add1[l] + add2[l];
    const std::int32_t a = smax[l] + c;
    const std::int32_t b = -(smin[l] + c);
    const std::int32_t v = a > b ? a : b;
    best = best > v ? best : v;
    hit |= static_cast<std::int32_t>(v >= thr[l]);
  }
  return {best, hit != 0};
}

// Branch-and-bound test for a partial inner permutation: with every remaining digit's
// prefix bounded by its largest / smallest image, can any segment still reach its least
// extreme K?
[[gnu::always_inline]] inline bool bound_body(const std::int32_t* __restrict from,
                                              const std::int32_t* __restrict rplus,
                                              const std::int32_t* __restrict rminus,
                                              const std::int32_t* __restrict smax,
                                              const std::int32_t* __restrict smin,
                                              const std::int32_t* __restrict thr, std::size_t len) {
  std::int32_t hit = 0;
  for (std::size_t l = 0; l < len; ++l) {
    const std::int32_t a = smax[l] + from[l] + rplus[l];
    const std::int32_t b = -(smin[l] + from[l] + rminus[l]);
    const std::int32_t v = a > b ? a : b;
    hit |= static_cast<std::int32_t>(v >= thr[l]);
  }
  return hit != 0;
}

using BoundFn = bool (*)(const std::int32_t*, const std::int32_t*, const std::int32_t*, const std::int32_t*,
                         const std::int32_t*, const std::int32_t*, std::size_t);
BENCHHIST_DETAIL_INLINE bool bound_generic(const std::int32_t* from, const std::int32_t* rplus, const std::int32_t* rminus,
                   const std::int32_t* smax, const std::int32_t* smin, const std::int32_t* thr, std::size_t len) {
  return bound_body(from, rplus, rminus, smax, smin, thr, len);
}
#if defined(__x86_64__) && defined(__GNUC__)
BENCHHIST_DETAIL_INLINE __attribute__((target("avx2"))) bool bound_avx2(const std::int32_t* from, const std::int32_t* rplus,
                                                const std::int32_t* rminus, const std::int32_t* smax,
                                                const std::int32_t* smin, const std::int32_t* thr, std::size_t len) {
  return bound_body(from, rplus, rminus, smax, smin, thr, len);
}
#endif

using AddFn = void (*)(std::int32_t*, const std::int32_t*, const std::int32_t*, std::size_t);
using LeafFn = LeafScan (*)(const std::int32_t*, const std::int32_t*, const std::int32_t*, const std::int32_t*,
                            const std::int32_t*, const std::int32_t*, std::size_t, std::int32_t);

BENCHHIST_DETAIL_INLINE void add_generic(std::int32_t* to, const std::int32_t* a, const std::int32_t* b, std::size_t len) {
  add_body(to, a, b, len);
}
BENCHHIST_DETAIL_INLINE LeafScan leaf_generic(const std::int32_t* from, const std::int32_t* add1, const std::int32_t* add2,
                      const std::int32_t* smax, const std::int32_t* smin, const std::int32_t* thr, std::size_t len,
                      std::int32_t k0) {
  return leaf_body(from, add1, add2, smax, smin, thr, len, k0);
}
#if defined(__x86_64__) && defined(__GNUC__)
BENCHHIST_DETAIL_INLINE __attribute__((target("avx2"))) void add_avx2(std::int32_t* to, const std::int32_t* a, const std::int32_t* b,
                                              std::size_t len) {
  add_body(to, a, b, len);
}
BENCHHIST_DETAIL_INLINE __attribute__((target("avx2"))) LeafScan leaf_avx2(const std::int32_t* from, const std::int32_t* add1,
                                                   const std::int32_t* add2, const std::int32_t* smax,
                                                   const std::int32_t* smin, const std::int32_t* thr,
                                                   std::size_t len, std::int32_t k0) {
  return leaf_body(from, add1, add2, smax, smin, thr, len, k0);
}
#endif

struct Kernels {
  AddFn add = add_generic;
  LeafFn leaf = leaf_generic;
  BoundFn bound = bound_generic;
};

BENCHHIST_DETAIL_INLINE Kernels pick_kernels() {
#if defined(__x86_64__) && defined(__GNUC__)
  if (__builtin_cpu_supports("avx2")) return {add_avx2, leaf_avx2, bound_avx2};
#endif
  return {};
}

// (b) the fixed subgroup. Positions off the grid never move, so their part of every U_t is
// precomputed per segment between consecutive grid positions (max and min with first arg).
// The coordinate with the most elements is enumerated innermost, depth first: for fixed outer
// coordinates, the grid's contribution to the prefix sums splits into one precomputed prefix
// array per (digit, image) pair, so an element costs a few vectorisable passes over the grid
// and only elements whose max |U_t| reaches the smallest extreme K are located exactly.
class SubgroupScorer {
 public:
  SubgroupScorer(const Scorer& sc, std::span<const std::int64_t> observed, std::size_t observed_split,
                 const FallbackGroup& group, const ExtremeTest& is_extreme, OrbitCounter& counter)
      : is_extreme_(is_extreme), counter_(counter), gc_(describe_group(group)) {
    n_ = sc.n;
    np1_ = static_cast<std::int32_t>(n_ + 1);
    g_ = gc_.grid;
    gp_ = (g_ + 7) / 8 * 8;
    by_pos_.resize(g_);
    for (std::size_t b = 0; b < g_; ++b) by_pos_[b] = {gc_.positions[b], b};
    std::sort(by_pos_.begin(), by_pos_.end());
    std::vector<char> on_grid(n_, 0);
    for (auto [p, b] : by_pos_) on_grid[p] = 1;
    base_.assign(n_, 0);
    std::int32_t acc = 0;
    for (std::size_t t = 1; t < n_; ++t) {
      if (!on_grid[t - 1]) acc += static_cast<std::int32_t>(observed[t - 1]);
      base_[t] = acc - static_cast<std::int32_t>(t) * np1_;
    }
    k0_ = -1;
    for (std::size_t t = 1; t <= by_pos_[0].first && t < n_; ++t) {
      const std::int32_t a = base_[t] < 0 ? -base_[t] : base_[t];
      if (a > k0_) { k0_ = a; tau0_ = t; u0_ = base_[t]; }
    }
    smax_.assign(gp_, -far);
    smin_.assign(gp_, far);
    tmax_.assign(gp_, 1);
    tmin_.assign(gp_, 1);
    for (std::size_t l = 0; l < g_; ++l) {
      const std::size_t from = by_pos_[l].first + 1;
      const std::size_t to = l + 1 < g_ ? by_pos_[l + 1].first : n_ - 1;
      for (std::size_t t = from; t <= to && t < n_; ++t) {
        if (base_[t] > smax_[l]) { smax_[l] = base_[t]; tmax_[l] = t; }
        if (base_[t] < smin_[l]) { smin_[l] = base_[t]; tmin_[l] = t; }
      }
    }
    // Least extreme K per split position, reduced per segment (a necessary condition).
    auto thr_at = [&](std::size_t t) -> std::int32_t {
      const std::size_t kk = std::min(t, n_ - t);
      std::int64_t d;
      if (kk < is_extreme.min_regime) d = is_extreme.unreportable_extreme ? 0 : far;
      else d = is_extreme.delta_by_k[kk];
      return static_cast<std::int32_t>(std::min<std::int64_t>(d, far));
    };
    thr_.assign(gp_, far);
    for (std::size_t l = 0; l < g_; ++l) {
      const std::size_t from = by_pos_[l].first + 1;
      const std::size_t to = l + 1 < g_ ? by_pos_[l + 1].first : n_ - 1;
      for (std::size_t t = from; t <= to && t < n_; ++t) thr_[l] = std::min(thr_[l], thr_at(t));
    }
    for (std::size_t t = 1; t <= by_pos_[0].first && t < n_; ++t) head_hit_ = head_hit_ || k0_ >= thr_at(t);
    if (is_extreme.min_p) min_p_segments();
    bucket_value_.resize(g_);
    for (std::size_t b = 0; b < g_; ++b) bucket_value_[b] = static_cast<std::int32_t>(observed[gc_.positions[b]]);
    // Innermost coordinate: the one with the most elements (first on ties).
    for (std::size_t c = 0; c < gc_.coords.size(); ++c)
      if (gc_.coords[c].count() > gc_.coords[inner_].count()) inner_ = c;
    if (!gc_.coords.empty()) {
      f_ = gc_.coords[inner_].f;
      stride_ = gc_.coords[inner_].stride;
      even_only_ = gc_.coords[inner_].count() * 2 == factorial(f_);
    }
    digit_.resize(g_);
    for (std::size_t l = 0; l < g_; ++l)
      digit_[l] = gc_.coords.empty() ? -1 : gc_.digit[inner_][by_pos_[l].second];
    prefix_.assign(std::max<std::size_t>(f_ * f_, 1) * gp_, 0);  // f_ = 0: one zero row
    partial_.assign((f_ + 1) * gp_, 0);
    zeros_.assign(gp_, 0);
    scratch_.assign(prefix_.size(), 0);
    order_.assign(f_, 0);
    rplus_.assign((f_ + 1) * gp_, 0);
    rminus_.assign((f_ + 1) * gp_, 0);
    while (cert_slots_ < g_ && by_pos_[cert_slots_].first < observed_split) ++cert_slots_;
    cert_digit_slots_.assign(f_, {});
    for (std::size_t l = 0; l < cert_slots_; ++l) {
      if (digit_[l] < 0) cert_fixed_slots_.push_back(l);
      else cert_digit_slots_[static_cast<std::size_t>(digit_[l])].push_back(l);
    }
    cert_base_ = base_[observed_split];
    if (is_extreme.min_p) {
      need_hi_ = is_extreme.hi_at[observed_split];
      need_lo_ = is_extreme.lo_at[observed_split];
    } else {
      need_hi_ = need_lo_ = is_extreme.certain_k;
    }
    if (!gc_.coords.empty()) inner_count_ = gc_.coords[inner_].count();
    cert_w_.assign(std::max<std::size_t>(f_ * f_, 1), 0);
    cert_ok_.assign(inner_count_ <= max_listed_inner ? inner_count_ : 0, 0);
    direct_.assign(gp_, 0);
  }

  void run() {
    // The outer coordinates run as an odometer, least significant first. The preimage of
    // every grid slot is base + one precomputed contribution per outer coordinate; partial
    // sums from the most significant coordinate down are kept, so a step that changes only
    // the lowest coordinates recomputes only their levels (one vector add for the usual step).
    std::vector<std::size_t> outer;
    for (std::size_t c = 0; c < gc_.coords.size(); ++c)
      if (c != inner_) outer.push_back(c);
    const std::size_t levels = outer.size();
    std::vector<std::vector<std::int32_t>> contribution(levels);
    for (std::size_t j = 0; j < levels; ++j) {
      const auto& coord = gc_.coords[outer[j]];
      const auto& digit = gc_.digit[outer[j]];
      contribution[j].assign(coord.count() * g_, 0);
      for (std::size_t e = 0; e < coord.count(); ++e)
        for (std::size_t l = 0; l < g_; ++l) {
          const std::int32_t d = digit[by_pos_[l].second];
          if (d >= 0) contribution[j][e * g_ + l] = coord.perms[e * coord.f + static_cast<std::size_t>(d)] * coord.stride;
        }
    }
    std::vector<std::int32_t> base(g_);
    for (std::size_t l = 0; l < g_; ++l) base[l] = gc_.base[by_pos_[l].second];
    // sums[j] = base + contributions of outer levels >= j; sums[levels] = base.
    std::vector<std::vector<std::int32_t>> sums(levels + 1, base);
    std::vector<std::size_t> idx(levels, 0);
    auto refresh = [&](std::size_t top) {  // levels top..0 changed
      for (std::size_t j = top + 1; j-- > 0;) {
        const std::int32_t* add = contribution[j].data() + idx[j] * g_;
        const std::int32_t* from = sums[j + 1].data();
        std::int32_t* to = sums[j].data();
        for (std::size_t l = 0; l < g_; ++l) to[l] = from[l] + add[l];
      }
    };
    if (levels > 0) refresh(levels - 1);
    const std::span<const std::int32_t> pre(sums[0]);  // preimage bucket per grid slot
    while (true) {
      const std::size_t certified = certify_inner(pre);
      if (certified == inner_count_) {
        for (std::size_t e = 0; e < inner_count_; ++e)
          if (!counter_.add_extreme()) return;
      } else if (inner_count_ - certified <= max_direct_inner) {
        // A few uncertain elements: score each one directly, count the rest as extreme.
        for (std::size_t e = 0; e < inner_count_; ++e)
          if (!(cert_ok_[e] ? counter_.add_extreme() : score_directly(pre, e))) return;
      } else {
        prepare_outer(pre);
        const bool reachable = head_hit_ || kernels_.bound(partial_.data(), rplus_.data(), rminus_.data(),
                                                           smax_.data(), smin_.data(), thr_.data(), gp_);
        if (reachable && !dfs(0, 0, 0)) return;
      }
      std::size_t j = 0;
      while (j < levels) {
        if (++idx[j] < gc_.coords[outer[j]].count()) break;
        idx[j] = 0;
        ++j;
      }
      if (j >= levels) return;
      refresh(j);
    }
  }

 private:
  static constexpr std::int32_t far = 1 << 29;
  // Bound-check subtrees with at least 3 undecided digits (measured: deeper checks cost more
  // than they prune).
  static constexpr std::size_t prune_margin = 3;
  // Inner coordinates up to S6 are certified permutation by permutation.
  static constexpr std::size_t max_listed_inner = 720;
  // Up to this many uncertain inner elements are scored one by one rather than by the search
  // (measured: one direct score costs about a tenth of preparing a search).
  static constexpr std::size_t max_direct_inner = 8;

  static std::size_t factorial(std::size_t f) {
    std::size_t r = 1;
    for (std::size_t i = 2; i <= f; ++i) r *= i;
    return r;
  }

  // Certification (a cheap sufficient test for "extreme"): for fixed outer coordinates, which
  // inner permutations keep |U| at the observed split at or beyond certain_k (ExtremeTest)?
  // Those elements are extreme without being scored. The sum over the grid slots before the
  // split splits by inner digit a and its image j, so each permutation costs f additions.
  // Strong steps make most elements extreme, and the docs/statistics.md#procedure reject exit then
  // comes after a few percent of the orbit, counted here at a fraction of the scoring cost. Returns
  // how many inner elements are certified; cert_ok_[e] flags them (listed inner coordinates only,
  // else all or nothing from each digit's extreme images).
  std::size_t certify_inner(std::span<const std::int32_t> pre) {
    if (need_hi_ == never && need_lo_ == never) return 0;
    std::int64_t fixed = 0;
    for (const std::size_t l : cert_fixed_slots_) fixed += bucket_value_[static_cast<std::size_t>(pre[l])];
    for (std::size_t a = 0; a < f_; ++a)
      for (std::size_t j = 0; j < f_; ++j) {
        const std::int32_t shift = static_cast<std::int32_t>(j) * stride_;
        std::int64_t sum = 0;  // a register, not a store per slot
        for (const std::size_t l : cert_digit_slots_[a]) sum += bucket_value_[static_cast<std::size_t>(pre[l] + shift)];
        cert_w_[a * f_ + j] = sum;
      }
    const std::int64_t at = cert_base_ + fixed;
    auto certain = [&](std::int64_t u) { return (need_hi_ != never && u >= need_hi_) || (need_lo_ != never && u <= -need_lo_); };
    if (f_ == 0) return certain(at) ? inner_count_ : 0;
    if (inner_count_ <= max_listed_inner) {
      std::size_t certified = 0;
      const std::int32_t* perm = gc_.coords[inner_].perms.data();
      for (std::size_t e = 0; e < inner_count_; ++e, perm += f_) {
        std::int64_t u = at;
        for (std::size_t a = 0; a < f_; ++a) u += cert_w_[a * f_ + static_cast<std::size_t>(perm[a])];
        cert_ok_[e] = certain(u);
        certified += cert_ok_[e];
      }
      return certified;
    }
    std::int64_t lo = at, hi = at;
    for (std::size_t a = 0; a < f_; ++a) {
      const std::int64_t* w = cert_w_.data() + a * f_;
      lo += *std::min_element(w, w + f_);
      hi += *std::max_element(w, w + f_);
    }
    return (need_hi_ != never && lo >= need_hi_) || (need_lo_ != never && hi <= -need_lo_) ? inner_count_ : 0;
  }

  // Scores inner element e (listed inner coordinates) on its own: its grid prefix sums, then
  // the same leaf scan as the depth-first search.
  bool score_directly(std::span<const std::int32_t> pre, std::size_t e) {
    const std::int32_t* perm = f_ == 0 ? nullptr : gc_.coords[inner_].perms.data() + e * f_;  // f_ = 0: no digits
    std::int32_t run = 0;
    for (std::size_t l = 0; l < g_; ++l) {
      std::int32_t b = pre[l];
      if (digit_[l] >= 0) b += perm[digit_[l]] * stride_;
      run += bucket_value_[static_cast<std::size_t>(b)];
      direct_[l] = run;
    }
    for (std::size_t l = g_; l < gp_; ++l) direct_[l] = run;
    return leaf(direct_.data(), zeros_.data(), zeros_.data());
  }

  // For the fixed outer coordinates: prefix_[(a * f + j) * gp + l] = sum over slots l' <= l
  // with inner digit a of the value they receive when the inner permutation maps a to j;
  // partial_[0] = prefix sums of slots without an inner digit.
  void prepare_outer(std::span<const std::int32_t> pre) {
    std::int32_t fixed = 0;
    std::int32_t* root = partial_.data();
    for (std::size_t l = 0; l < g_; ++l) {
      if (digit_[l] < 0) fixed += bucket_value_[static_cast<std::size_t>(pre[l])];
      root[l] = fixed;
    }
    for (std::size_t l = g_; l < gp_; ++l) root[l] = fixed;
    // Rows per digit first; then the digits are laid out by depth, most spread first, so the
    // bounds of the depth-first search tighten early. (The order of assignment does not change
    // the set of permutations visited; only the parity bookkeeping needs the order's parity.)
    std::vector<std::int64_t> spread(f_, 0);
    for (std::size_t a = 0; a < f_; ++a) {
      for (std::size_t j = 0; j < f_; ++j) {
        std::int32_t* row = scratch_.data() + (a * f_ + j) * gp_;
        std::int32_t run = 0;
        for (std::size_t l = 0; l < g_; ++l) {
          if (digit_[l] == static_cast<std::int32_t>(a))
            run += bucket_value_[static_cast<std::size_t>(pre[l] + static_cast<std::int32_t>(j) * stride_)];
          row[l] = run;
        }
        for (std::size_t l = g_; l < gp_; ++l) row[l] = run;
      }
      for (std::size_t l = 0; l < g_; ++l) {
        std::int32_t hi = scratch_[(a * f_) * gp_ + l], lo = hi;
        for (std::size_t j = 1; j < f_; ++j) {
          hi = std::max(hi, scratch_[(a * f_ + j) * gp_ + l]);
          lo = std::min(lo, scratch_[(a * f_ + j) * gp_ + l]);
        }
        spread[a] += hi - lo;
      }
    }
    std::iota(order_.begin(), order_.end(), std::size_t{0});
    std::stable_sort(order_.begin(), order_.end(), [&](std::size_t x, std::size_t y) { return spread[x] > spread[y]; });
    std::size_t order_inversions = 0;
    for (std::size_t x = 0; x < f_; ++x)
      for (std::size_t y = x + 1; y < f_; ++y) order_inversions += order_[x] > order_[y];
    order_parity_ = order_inversions % 2;
    for (std::size_t d = 0; d < f_; ++d)
      std::copy_n(scratch_.data() + order_[d] * f_ * gp_, f_ * gp_, prefix_.data() + d * f_ * gp_);
    // Suffix bounds over digits >= d of the largest / smallest image's prefix.
    std::fill(rplus_.end() - static_cast<std::ptrdiff_t>(gp_), rplus_.end(), 0);
    std::fill(rminus_.end() - static_cast<std::ptrdiff_t>(gp_), rminus_.end(), 0);
    for (std::size_t a = f_; a-- > 0;) {
      std::int32_t* up = rplus_.data() + a * gp_;
      std::int32_t* down = rminus_.data() + a * gp_;
      const std::int32_t* up_next = rplus_.data() + (a + 1) * gp_;
      const std::int32_t* down_next = rminus_.data() + (a + 1) * gp_;
      for (std::size_t l = 0; l < gp_; ++l) {
        std::int32_t hi = row(a, 0)[l], lo = hi;
        for (std::size_t j = 1; j < f_; ++j) {
          hi = std::max(hi, row(a, j)[l]);
          lo = std::min(lo, row(a, j)[l]);
        }
        up[l] = up_next[l] + hi;
        down[l] = down_next[l] + lo;
      }
    }
  }

  // Depth-first over the inner permutation; `used` = images taken, `inversions` its parity.
  // The last two images are added inside the leaf scan (the very last one is forced).
  bool dfs(std::size_t depth, unsigned used, std::size_t inversions) {
    const std::int32_t* from = partial_.data() + depth * gp_;
    if (f_ == 0) return leaf(from, zeros_.data(), zeros_.data());
    if (depth + 1 == f_) {  // only when f_ == 1
      for (std::size_t j = 0; j < f_; ++j)
        if (!(used & (1u << j))) return leaf(from, row(depth, j), zeros_.data());
      return true;
    }
    for (std::size_t j = 0; j < f_; ++j) {
      if (used & (1u << j)) continue;
      const std::size_t more = even_only_ ? inversions + greater_count(used, j) : 0;
      const unsigned now = used | (1u << j);
      if (depth + 2 == f_) {
        std::size_t last = 0;
        while (now & (1u << last)) ++last;
        if (even_only_ && (more + greater_count(now, last) + order_parity_) % 2 != 0) continue;
        if (!leaf(from, row(depth, j), row(depth + 1, last))) return false;
        continue;
      }
      std::int32_t* next = partial_.data() + (depth + 1) * gp_;
      kernels_.add(next, from, row(depth, j), gp_);
      // Prune subtrees of at least a few leaves that cannot reach any extreme K.
      if (!head_hit_ && depth + prune_margin <= f_ &&
          !kernels_.bound(next, rplus_.data() + (depth + 1) * gp_, rminus_.data() + (depth + 1) * gp_,
                          smax_.data(), smin_.data(), thr_.data(), gp_))
        continue;
      if (!dfs(depth + 1, now, more)) return false;
    }
    return true;
  }

  const std::int32_t* row(std::size_t digit, std::size_t image) const {
    return prefix_.data() + (digit * f_ + image) * gp_;
  }
  static std::size_t greater_count(unsigned used, std::size_t j) {
    std::size_t c = 0;
    for (unsigned rest = used >> (j + 1); rest != 0; rest &= rest - 1) ++c;
    return c;
  }

  // docs/divergences.md#s3--the-most-likely-split-is-the-split-search: an element is extreme iff
  // some split crosses its threshold. U_t = c_l + base_t in segment l (c_l the grid's prefix sum
  // there), so "U_t >= hi_t or U_t <= -lo_t for some t of the segment" is
  // "c_l >= A_l or c_l <= -B_l" with A_l = min (hi_t - base_t), B_l = min (lo_t + base_t): the
  // kernels' test with smax = -A_l, smin = B_l and a threshold of 0, and the head segment (no grid
  // position before it) is fixed for every element.
  void min_p_segments() {
    auto clamp32 = [](std::int64_t v) { return static_cast<std::int32_t>(std::clamp<std::int64_t>(v, -far, far)); };
    const auto& hi = is_extreme_.hi_at;
    const auto& lo = is_extreme_.lo_at;
    for (std::size_t l = 0; l < g_; ++l) {
      const std::size_t from = by_pos_[l].first + 1;
      const std::size_t to = l + 1 < g_ ? by_pos_[l + 1].first : n_ - 1;
      std::int64_t a = far, b = far;
      for (std::size_t t = from; t <= to && t < n_; ++t) {
        if (hi[t] != never) a = std::min(a, hi[t] - base_[t]);
        if (lo[t] != never) b = std::min(b, lo[t] + base_[t]);
      }
      smax_[l] = clamp32(-a);
      smin_[l] = clamp32(b);
      thr_[l] = 0;
    }
    head_hit_ = false;
    for (std::size_t t = 1; t <= by_pos_[0].first && t < n_; ++t) head_hit_ = head_hit_ || is_extreme_.crosses(t, base_[t]);
  }

  bool leaf(const std::int32_t* from, const std::int32_t* add1, const std::int32_t* add2) {
    const LeafScan scan =
        kernels_.leaf(from, add1, add2, smax_.data(), smin_.data(), thr_.data(), gp_, k0_);
    if (is_extreme_.min_p) return scan.hit || head_hit_ ? counter_.add_extreme() : true;
    const std::int32_t best = scan.best;
    if (!scan.hit && !head_hit_) return true;    // no segment reaches its least extreme K
    if (best < is_extreme_.min_k) return true;  // cannot be extreme at any split size
    std::size_t tau;
    std::int32_t u;
    if (best == k0_) {  // ties keep the earlier split: the fixed head segment
      tau = tau0_;
      u = u0_;
    } else {
      // Locate the first segment attaining the maximum (rare: only near-extreme elements).
      for (std::size_t l = 0;; ++l) {
        const std::int32_t c = from[l] + add1[l] + add2[l];
        const std::int32_t a = smax_[l] + c;
        const std::int32_t b = -(smin_[l] + c);
        if ((a > b ? a : b) != best) continue;
        if (a > b || (a == b && tmax_[l] <= tmin_[l])) {
          tau = tmax_[l];
          u = a;
        } else {
          tau = tmin_[l];
          u = -b;
        }
        break;
      }
    }
    const std::int64_t d_tau = static_cast<std::int64_t>(u) + static_cast<std::int64_t>(tau) * np1_;
    if (is_extreme_(tau, d_tau, best)) return counter_.add_extreme();
    return true;
  }

  const ExtremeTest& is_extreme_;
  OrbitCounter& counter_;
  GroupCoordinates gc_;
  std::size_t n_ = 0, g_ = 0, gp_ = 0;
  std::int32_t np1_ = 0;
  std::vector<std::pair<std::size_t, std::size_t>> by_pos_;
  std::vector<std::int32_t> base_;
  std::int32_t k0_ = -1, u0_ = 0;
  std::size_t tau0_ = 1;
  std::vector<std::int32_t> smax_, smin_;
  std::vector<std::size_t> tmax_, tmin_;
  std::vector<std::int32_t> bucket_value_;
  std::size_t inner_ = 0, f_ = 0;
  std::int32_t stride_ = 1;
  bool even_only_ = false;
  std::vector<std::int32_t> digit_;
  std::vector<std::int32_t> prefix_, partial_, zeros_, rplus_, rminus_, scratch_;
  std::vector<std::size_t> order_;  // digit decided at each depth
  std::size_t order_parity_ = 0;
  std::vector<std::int32_t> thr_;
  bool head_hit_ = false;
  Kernels kernels_ = pick_kernels();
  // Certification at the observed split (certifies_every_inner).
  std::size_t cert_slots_ = 0;   // grid slots before the observed split
  std::vector<std::size_t> cert_fixed_slots_;               // ... without an inner digit
  std::vector<std::vector<std::size_t>> cert_digit_slots_;  // ... per inner digit
  std::int64_t cert_base_ = 0;   // base_ at the observed split
  std::int64_t need_hi_ = never, need_lo_ = never;  // U there at or beyond these: certainly extreme
  std::size_t inner_count_ = 1;  // elements of the inner coordinate
  std::vector<std::int64_t> cert_w_;
  std::vector<char> cert_ok_;
  std::vector<std::int32_t> direct_;
};

BENCHHIST_DETAIL_INLINE void run_subgroup_orbit(const Scorer& sc, std::span<const std::int64_t> observed, std::size_t observed_split,
                        const FallbackGroup& group, const ExtremeTest& is_extreme, OrbitCounter& counter) {
  SubgroupScorer(sc, observed, observed_split, group, is_extreme, counter).run();
}

BENCHHIST_DETAIL_END
}  // namespace benchhist::detect::detail
