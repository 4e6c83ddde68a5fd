#pragma once
// The reference's deterministic scatter generator (vectors/README.md "generator"): the
// seeded series of the vectors, the example catalogue and the benchmarks.
// Private to the split-search correction (detect/split_correction.hpp); exposed in
// benchhist::detect::detail only so the vectors and tests can pin it. Not API.

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>
#include <utility>
#include <vector>

#include "benchhist/detect/detail/config.hpp"
#include "benchhist/model/text.hpp"

namespace benchhist::detect::detail {
BENCHHIST_DETAIL_BEGIN

inline constexpr std::uint64_t golden_gamma = 0x9E3779B97F4A7C15ULL;

inline std::uint64_t splitmix64_finalize(std::uint64_t v) noexcept {
  v = (v ^ (v >> 30)) * 0xBF58476D1CE4E5B9ULL;
  v = (v ^ (v >> 27)) * 0x94D049BB133111EBULL;
  return v ^ (v >> 31);
}

inline std::uint64_t scatter_key(std::uint64_t bucket) noexcept { return splitmix64_finalize(bucket + golden_gamma); }

using benchhist::fnv1a64;  // the seed of a named series

inline std::vector<double> scattered_levels(std::span<const double> levels, double cv, std::string_view seed_name) {
  std::uint64_t state = fnv1a64(seed_name);
  const double h = cv * std::sqrt(3.0);
  std::vector<double> out;
  out.reserve(levels.size());
  for (double level : levels) {
    state += golden_gamma;
    const auto u = static_cast<double>(splitmix64_finalize(state) >> 32);
    const double d = u / 4294967295.0 * 2 - 1;
    out.push_back(std::fma(level * h, d, level));  // one fused multiply-add (vectors/README.md)
  }
  return out;
}

inline std::vector<double> scattered_series(std::span<const std::pair<double, std::size_t>> levels_rle, double cv,
                                     std::string_view seed_name) {
  std::vector<double> levels;
  for (const auto& [value, count] : levels_rle) levels.insert(levels.end(), count, value);
  return scattered_levels(levels, cv, seed_name);
}

BENCHHIST_DETAIL_END
}  // namespace benchhist::detect::detail
