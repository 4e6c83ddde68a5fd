#pragma once
// The fixed rearrangement subgroup and the conditional orbit of the split-search correction
// (docs/statistics.md#orbit): factorizations, the fallback group, group and orbit enumeration.
// Private to the split-search correction (detect/split_correction.hpp); exposed in
// benchhist::detect::detail only so the vectors and tests can pin it. Not API.

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <numeric>
#include <optional>
#include <span>
#include <vector>

#include "benchhist/detect/detail/config.hpp"
#include "benchhist/detect/detail/exact_table.hpp"
#include "benchhist/detect/detail/scatter.hpp"
#include "benchhist/detect/detail/u128.hpp"

namespace benchhist::detect::detail {
BENCHHIST_DETAIL_BEGIN

struct Factorization {
  std::vector<std::size_t> factors;  // non-increasing; factors[0] is the least significant digit
  std::size_t grid = 1;
  std::uint64_t order = 1;
};

// The fixed subgroup of docs/statistics.md#orbit(b): a product of symmetric groups, or the balanced
// A6 x S6.
struct FallbackGroup {
  bool balanced = false;
  std::vector<std::size_t> factors;     // product group coordinates (empty when balanced)
  std::size_t grid = 1;
  std::uint64_t order = 1;
  std::vector<std::size_t> positions;   // series position of each bucket
};

// Subgroup (docs/statistics.md#orbit b)

inline std::uint64_t factorial_capped(std::size_t f, std::uint64_t cap) {
  std::uint64_t r = 1;
  for (std::size_t i = 2; i <= f; ++i) {
    if (r > cap / i) return cap + 1;
    r *= i;
  }
  return r;
}

inline void factor_search(const std::vector<std::pair<std::size_t, std::uint64_t>>& options, std::size_t max_option,
                   std::size_t n, std::uint64_t budget, std::vector<std::size_t>& current, std::size_t grid,
                   std::uint64_t order, Factorization& best) {
  if (order > best.order || (order == best.order && grid > best.grid)) {
    best.factors = current;
    best.grid = grid;
    best.order = order;
  }
  // Largest option first; a child may reuse the same or a smaller option.
  for (std::size_t i = max_option + 1; i-- > 0;) {
    const auto [f, fact] = options[i];
    if (grid > n / f || grid * f > n) continue;
    if (order > budget / fact || order * fact > budget) continue;
    current.push_back(f);
    factor_search(options, i, n, budget, current, grid * f, order * fact, best);
    current.pop_back();
  }
}

inline Factorization best_factorization(std::size_t n, std::uint64_t budget) {
  std::vector<std::pair<std::size_t, std::uint64_t>> options;
  for (std::size_t f = 2; f <= n; ++f) {
    const std::uint64_t fact = factorial_capped(f, budget);
    if (fact > budget) break;
    options.emplace_back(f, fact);
  }
  Factorization best;
  if (options.empty()) return best;
  std::vector<std::size_t> current;
  factor_search(options, options.size() - 1, n, budget, current, 1, 1, best);
  return best;
}

inline std::vector<std::size_t> scattered_positions(std::size_t n, std::size_t grid) {
  std::vector<std::size_t> buckets(grid);
  std::iota(buckets.begin(), buckets.end(), std::size_t{0});
  std::sort(buckets.begin(), buckets.end(),
            [](std::size_t a, std::size_t b) { return scatter_key(a) < scatter_key(b); });
  std::vector<std::size_t> pos(grid);
  for (std::size_t t = 0; t < grid; ++t) pos[buckets[t]] = t * n / grid;
  return pos;
}

inline FallbackGroup fallback_group(std::size_t n, std::uint64_t budget) {
  FallbackGroup g;
  Factorization best = best_factorization(n, budget);
  if (n >= 12 && budget >= 259'200 && best.grid < 12) {
    g.balanced = true;  // A6 x S6 on 12 scattered positions
    g.grid = 12;
    g.order = 259'200;
  } else {
    g.factors = best.factors;
    g.grid = best.grid;
    g.order = best.order;
  }
  g.positions = scattered_positions(n, g.grid);
  return g;
}

inline std::optional<std::uint64_t> distinct_orderings(std::span<const std::int64_t> sorted, std::uint64_t budget) {
  std::uint64_t product = 1;
  std::uint64_t seen = 0;
  std::size_t s = 0;
  while (s < sorted.size()) {
    std::size_t e = s + 1;
    while (e < sorted.size() && sorted[e] == sorted[s]) ++e;
    const std::uint64_t run = e - s;
    // C(seen + run, run) built as C(seen + i, i), each step exact; abort past the budget.
    u128 c = 1;
    for (std::uint64_t i = 1; i <= run; ++i) {
      c = c * (seen + i) / i;
      if (c > budget) return std::nullopt;
    }
    const u128 p = static_cast<u128>(product) * c;
    if (p > budget) return std::nullopt;
    product = static_cast<std::uint64_t>(p);
    seen += run;
    s = e;
  }
  return product;
}


// All permutations of 0..f-1 (flattened, f entries each), optionally only the even ones.
inline std::vector<std::int32_t> permutation_list(std::size_t f, bool even_only) {
  std::vector<std::int32_t> p(f);
  std::iota(p.begin(), p.end(), 0);
  std::vector<std::int32_t> out;
  do {
    if (even_only) {
      std::size_t inversions = 0;
      for (std::size_t i = 0; i < f; ++i)
        for (std::size_t j = i + 1; j < f; ++j) inversions += p[i] > p[j];
      if (inversions % 2 != 0) continue;
    }
    out.insert(out.end(), p.begin(), p.end());
  } while (std::next_permutation(p.begin(), p.end()));
  return out;
}

// The group as coordinates acting on bucket digits. For bucket b and per-coordinate
// permutations sigma_c (enumerated as the inverses of the pi_c, which range over the same
// set), the element's output at pos[b] is the input at pos[pre(b)] with
// pre(b) = base(b) + sum_c sigma_c(digit_c(b)) * stride_c (digit -1 = coordinate absent).
struct GroupCoordinates {
  std::size_t grid = 1;
  std::vector<std::size_t> positions;
  struct Coord {
    std::size_t f = 1;
    std::int32_t stride = 1;
    std::vector<std::int32_t> perms;  // flattened permutation list
    std::size_t count() const { return perms.size() / f; }
  };
  std::vector<Coord> coords;
  std::vector<std::int32_t> base;                // per bucket
  std::vector<std::vector<std::int32_t>> digit;  // [coord][bucket]
};

inline GroupCoordinates describe_group(const FallbackGroup& g) {
  GroupCoordinates out;
  out.grid = g.grid;
  out.positions = g.positions;
  out.base.assign(g.grid, 0);
  if (g.balanced) {
    out.coords.resize(2);
    out.coords[0] = {6, 1, permutation_list(6, true)};
    out.coords[1] = {6, 1, permutation_list(6, false)};
    out.digit.assign(2, std::vector<std::int32_t>(12, -1));
    for (std::int32_t b = 0; b < 12; ++b) {
      if (b < 6) out.digit[0][static_cast<std::size_t>(b)] = b;
      else {
        out.digit[1][static_cast<std::size_t>(b)] = b - 6;
        out.base[static_cast<std::size_t>(b)] = 6;
      }
    }
    return out;
  }
  std::int32_t stride = 1;
  for (std::size_t f : g.factors) {
    out.coords.push_back({f, stride, permutation_list(f, false)});
    stride *= static_cast<std::int32_t>(f);
  }
  out.digit.assign(out.coords.size(), std::vector<std::int32_t>(g.grid, -1));
  for (std::size_t b = 0; b < g.grid; ++b)
    for (std::size_t c = 0; c < out.coords.size(); ++c)
      out.digit[c][b] = static_cast<std::int32_t>((b / static_cast<std::size_t>(out.coords[c].stride)) % out.coords[c].f);
  return out;
}

// Odometer over the coordinates c >= 1 (outer); calls visit(pre_outer) where pre_outer[b] is
// base(b) + sum over outer coordinates. Returns false if visit stopped.
template <class Visit>
inline bool for_each_outer(const GroupCoordinates& gc, Visit&& visit) {
  const std::size_t nc = gc.coords.size();
  std::vector<std::size_t> idx(nc, 0);
  std::vector<std::int32_t> pre(gc.grid);
  while (true) {
    for (std::size_t b = 0; b < gc.grid; ++b) {
      std::int32_t v = gc.base[b];
      for (std::size_t c = 1; c < nc; ++c) {
        const std::int32_t d = gc.digit[c][b];
        if (d >= 0) v += gc.coords[c].perms[idx[c] * gc.coords[c].f + static_cast<std::size_t>(d)] * gc.coords[c].stride;
      }
      pre[b] = v;
    }
    if (!visit(std::span<const std::int32_t>(pre))) return false;
    std::size_t c = 1;
    while (c < nc) {
      if (++idx[c] < gc.coords[c].count()) break;
      idx[c] = 0;
      ++c;
    }
    if (c >= nc) return true;
  }
}

// next_permutation that reports the first changed index (n when it wrapped).
inline std::size_t next_permutation_from(std::vector<std::int64_t>& a) {
  const std::size_t n = a.size();
  if (n < 2) return n;
  std::size_t i = n - 1;
  while (i > 0 && a[i - 1] >= a[i]) --i;
  if (i == 0) return n;
  std::size_t j = n - 1;
  while (a[j] <= a[i - 1]) --j;
  std::swap(a[i - 1], a[j]);
  std::reverse(a.begin() + static_cast<std::ptrdiff_t>(i), a.end());
  return i - 1;
}


inline std::vector<std::vector<std::size_t>> permutations(std::size_t f, bool even_only) {
  const auto flat = permutation_list(f, even_only);
  std::vector<std::vector<std::size_t>> out;
  for (std::size_t i = 0; i + f <= flat.size() && f > 0; i += f)
    out.emplace_back(flat.begin() + static_cast<std::ptrdiff_t>(i), flat.begin() + static_cast<std::ptrdiff_t>(i + f));
  return out;
}

inline void for_each_group_element(std::span<const std::int64_t> observed, const FallbackGroup& group,
                            const std::function<bool(std::span<const std::int64_t>)>& visit) {
  const GroupCoordinates gc = describe_group(group);
  std::vector<std::int64_t> out(observed.begin(), observed.end());
  const bool has0 = !gc.coords.empty();
  const auto& c0 = has0 ? gc.coords[0] : GroupCoordinates::Coord{};
  for_each_outer(gc, [&](std::span<const std::int32_t> pre_outer) {
    const std::size_t count0 = has0 ? c0.count() : 1;
    for (std::size_t e = 0; e < count0; ++e) {
      // out[pos[b]] = in[pos[pre(b)]], pre = the inverse image (docs/statistics.md#orbit step 5).
      for (std::size_t b = 0; b < gc.grid; ++b) {
        std::int32_t pre = pre_outer[b];
        if (has0) {
          const std::int32_t d = gc.digit[0][b];
          if (d >= 0) pre += c0.perms[e * c0.f + static_cast<std::size_t>(d)] * c0.stride;
        }
        out[gc.positions[b]] = observed[gc.positions[static_cast<std::size_t>(pre)]];
      }
      if (!visit(out)) return false;
    }
    return true;
  });
}

inline std::uint64_t for_each_orbit_element(std::span<const std::int64_t> observed, std::uint64_t budget,
                                     const std::function<bool(std::span<const std::int64_t>)>& visit) {
  const std::vector<std::int64_t> sorted = sorted_doubled_ranks(observed);
  const std::size_t n = observed.size();
  if (auto g = distinct_orderings(sorted, budget)) {
    std::vector<std::int64_t> cur = sorted;
    do {
      if (!visit(cur)) break;
    } while (next_permutation_from(cur) != n);
    return *g;
  }
  const FallbackGroup group = fallback_group(n, budget);
  for_each_group_element(observed, group, visit);
  return group.order;
}

BENCHHIST_DETAIL_END
}  // namespace benchhist::detect::detail
