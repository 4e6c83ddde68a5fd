#pragma once
// The drift's shape guard (docs/divergences.md#s6--a-drift-is-a-slope-not-a-step).
// Implementation of detect/drift_shape.hpp, compiled by lib/detect/drift_shape.cpp (or inline
// everywhere with BENCHHIST_HEADER_ONLY, see detect/detail/config.hpp).

#include "benchhist/detect/detail/config.hpp"
#include "benchhist/detect/drift_shape.hpp"

#include <algorithm>
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
BENCHHIST_DETAIL_END
}  // namespace detail

BENCHHIST_DETECT_INLINE std::optional<double> drift_within_levels_share(std::span<const double> x, double line_slope,
                                                                     std::size_t level_start) {
  if (line_slope == 0 || level_start > x.size()) return std::nullopt;
  const double half = line_slope / 2, orientation = line_slope > 0 ? 1.0 : -1.0;
  std::uint64_t all = 0, steep = 0;  // sums of the lags j - i, exact (at most n^3 / 6)
  std::vector<detail::Placed> ys;
  for (const auto& [from, to] : {std::pair{std::size_t{0}, level_start}, std::pair{level_start, x.size()}}) {
    ys.clear();
    for (std::size_t i = from; i < to; ++i)
      ys.push_back({orientation * (x[i] - half * static_cast<double>(i)), i - from});
    const std::uint64_t m = ys.size(), level = m < 2 ? 0 : (m - 1) * m * (m + 1) / 6;
    all += level;
    steep += level - detail::inverted_lags(ys);
  }
  if (all == 0) return std::nullopt;
  return static_cast<double>(steep) / static_cast<double>(all);
}

}  // namespace benchhist::detect
