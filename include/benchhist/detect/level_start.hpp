#pragma once
// Where a history change point's new level begins
// (docs/divergences.md#s2--the-reported-split-is-the-new-levels-estimated-start). Pettitt's split
// (stats.hpp) still decides persistence and is what the selection adjustment scores; this is only
// the reported estimate: a standardised split search, then a two-median refinement.

#include <cstddef>
#include <cstdint>
#include <span>

namespace benchhist::detect {

inline constexpr std::size_t level_refinement_radius = 10;  // points either side of the coarse split

// Coarse split: the first t in [min_regime, n - min_regime] maximising U_t^2 / (t(n - t)) on
// doubled ranks, compared exactly in integers (Pettitt's unstandardised |U_t| is biased toward
// the centre).
// Throws Error{usage} unless n >= 2 * min_regime and min_regime >= 1 (also the functions below).
std::size_t standardised_split(std::span<const std::int64_t> doubled_ranks, std::size_t min_regime);

// Refinement: the first t within `radius` of `coarse` (kept in [min_regime, n - min_regime])
// minimising sum_{i<t} |x_i - med(x[0..t))| + sum_{i>=t} |x_i - med(x[t..n))|, each sum
// accumulated in index order; only a strictly smaller cost replaces the incumbent.
std::size_t two_median_refinement(std::span<const double> x, std::size_t coarse, std::size_t min_regime,
                                  std::size_t radius = level_refinement_radius);

// Both steps: the detector's best estimate of the first point of the new level.
std::size_t new_level_start(std::span<const double> x, std::span<const std::int64_t> doubled_ranks,
                            std::size_t min_regime);

}  // namespace benchhist::detect

#ifdef BENCHHIST_HEADER_ONLY
#include "benchhist/detect/detail/level_start_impl.hpp"
#endif
