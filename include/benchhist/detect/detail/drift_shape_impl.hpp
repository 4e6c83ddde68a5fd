#pragma once
// The drift's shape guard (docs/divergences.md#s6--a-drift-is-a-slope-not-a-step).
// Implementation of detect/drift_shape.hpp, compiled by lib/detect/drift_shape.cpp (or inline
// everywhere with BENCHHIST_HEADER_ONLY, see detect/detail/config.hpp).

#include "benchhist/detect/detail/config.hpp"
#include "benchhist/detect/drift_shape.hpp"
#include "benchhist/detect/stats.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <utility>
#include <vector>

namespace benchhist::detect {

namespace detail {
BENCHHIST_DETAIL_BEGIN
struct Placed {
  double value;
  std::uint64_t index;  // position in the level
};
// Sum of j - i over the pairs i < j of `ys` with ys[i] > ys[j], by a bottom-up merge sort (sorts
// `ys`). A left run holds only earlier positions than the right run it merges with, so a right
// item that overtakes the c left items still waiting inverts with each of them, and together
// they weigh c·j minus the sum of their positions.
BENCHHIST_DETAIL_INLINE std::uint64_t inverted_lags(std::vector<Placed>& ys) {
  const std::size_t n = ys.size();
  std::vector<Placed> buffer(n);
  std::uint64_t lags = 0;
  for (std::size_t width = 1; width < n; width *= 2) {
    for (std::size_t lo = 0; lo < n; lo += 2 * width) {
      const std::size_t mid = std::min(lo + width, n), hi = std::min(lo + 2 * width, n);
      std::uint64_t waiting = 0;  // sum of the positions of the left items not yet placed
      for (std::size_t i = lo; i < mid; ++i) waiting += ys[i].index;
      std::size_t i = lo, j = mid, k = lo;
      while (i < mid && j < hi) {
        if (ys[j].value < ys[i].value) {
          lags += (mid - i) * ys[j].index - waiting;
          buffer[k++] = ys[j++];
        } else {
          waiting -= ys[i].index;
          buffer[k++] = ys[i++];
        }
      }
      while (i < mid) buffer[k++] = ys[i++];
      while (j < hi) buffer[k++] = ys[j++];
    }
    ys.swap(buffer);
  }
  return lags;
}
// g(h) = h·(n - 1) - jump(h) of drift_balance_slope, on the series turned to rise in
// `orientation`. Each level's median moves by -h times the position of its middle point, and
// every point of the later level lies after every point of the earlier one, so g grows by at
// least n per unit of h: it has one root.
struct BalanceGap {
  std::span<const double> x;
  double orientation;
  std::size_t level_start;
  std::vector<double> before, after;
  double operator()(double h) {
    before.clear();
    after.clear();
    for (std::size_t i = 0; i < x.size(); ++i)
      (i < level_start ? before : after).push_back(orientation * x[i] - h * static_cast<double>(i));
    return h * static_cast<double>(x.size() - 1) - (median(std::move(after)) - median(std::move(before)));
  }
};

// The least h found with g(h) >= 0, searched from `from` (where g is `g_from`): the root lies
// within |g_from| / n of it. g is piecewise linear, so false position with the Illinois halving
// settles it in a few evaluations; bisection would need some fifty.
BENCHHIST_DETAIL_INLINE double balance_root(BalanceGap& g, double from, double g_from) {
  if (g_from == 0) return from;
  const double reach = std::fabs(g_from) / static_cast<double>(g.x.size());
  double lo = g_from < 0 ? from : from - reach, hi = g_from < 0 ? from + reach : from;
  double glo = g_from < 0 ? g_from : g(lo), ghi = g_from < 0 ? g(hi) : g_from;
  int kept = 0;  // which end the last step kept: -1 low, +1 high
  for (int step = 0; step < 200 && glo < 0 && ghi > 0; ++step) {
    const double m = (lo * ghi - hi * glo) / (ghi - glo);
    if (!(m > lo && m < hi)) break;
    const double gm = g(m);
    if (gm < 0) {
      lo = m, glo = gm;
      if (kept == -1) ghi /= 2;
      kept = -1;
    } else {
      hi = m, ghi = gm;
      if (kept == 1) glo /= 2;
      kept = 1;
    }
  }
  return ghi == 0 || glo < 0 ? hi : lo;
}
BENCHHIST_DETAIL_END
}  // namespace detail

BENCHHIST_DETECT_INLINE std::optional<double> drift_within_levels_share(std::span<const double> x, double reference_slope,
                                                                     std::size_t level_start) {
  if (reference_slope == 0 || level_start > x.size()) return std::nullopt;
  const double orientation = reference_slope > 0 ? 1.0 : -1.0;
  std::uint64_t all = 0, steep = 0;  // sums of the lags j - i, exact (at most n^3 / 6)
  std::vector<detail::Placed> ys;
  for (const auto& [from, to] : {std::pair{std::size_t{0}, level_start}, std::pair{level_start, x.size()}}) {
    ys.clear();
    for (std::size_t i = from; i < to; ++i)
      ys.push_back({orientation * (x[i] - reference_slope * static_cast<double>(i)), i - from});
    const std::uint64_t m = ys.size(), level = m < 2 ? 0 : (m - 1) * m * (m + 1) / 6;
    all += level;
    steep += level - detail::inverted_lags(ys);
  }
  if (all == 0) return std::nullopt;
  return static_cast<double>(steep) / static_cast<double>(all);
}

BENCHHIST_DETECT_INLINE std::optional<double> drift_balance_slope(std::span<const double> x, double direction,
                                                               std::size_t level_start) {
  if (direction == 0 || level_start == 0 || level_start >= x.size()) return std::nullopt;
  detail::BalanceGap g{x, direction > 0 ? 1.0 : -1.0, level_start, {}, {}};
  return g.orientation * detail::balance_root(g, 0.0, g(0.0));
}

BENCHHIST_DETECT_INLINE std::optional<double> drift_shape_demand(std::span<const double> x, double line_slope,
                                                              std::size_t level_start) {
  if (line_slope == 0 || level_start == 0 || level_start >= x.size()) return std::nullopt;
  // Asked at half the line's slope first: for a trend the balance lies below it (near a third of
  // the slope), and one evaluation settles the demand.
  detail::BalanceGap g{x, line_slope > 0 ? 1.0 : -1.0, level_start, {}, {}};
  const double half = std::fabs(line_slope) / 2, at_half = g(half);
  return g.orientation * (at_half >= 0 ? half : detail::balance_root(g, half, at_half));
}

}  // namespace benchhist::detect
