#pragma once
// Seeded history shapes shared by the detector suites (test_sharp.cpp, test_fresh.cpp,
// test_batch.cpp), and whether this is the sanitizer build.

#include <string>
#include <vector>

#include "benchhist/detect/detail/scatter.hpp"
#include "benchhist/detect/history.hpp"

namespace bhtest {

// The sanitizer pass (scripts/test.sh) looks for memory errors and undefined behaviour, at about
// ten times the run time: there the comparisons of the detectors with their plain definitions
// take the smaller part of their samples. The normal build runs every one of them whole.
#if defined(__SANITIZE_ADDRESS__)
inline constexpr bool sanitized = true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
inline constexpr bool sanitized = true;
#else
inline constexpr bool sanitized = false;
#endif
#else
inline constexpr bool sanitized = false;
#endif

// n points near 100 with `cv` scatter, +lift from index `at` on (at = 0 or lift = 0: flat).
inline std::vector<double> step(std::size_t n, std::size_t at, double lift, double cv, const std::string& seed) {
  std::vector<double> levels(n, 100.0);
  for (std::size_t i = at; i < n; ++i) levels[i] = 100.0 * (1 + lift);
  return benchhist::detect::detail::scattered_levels(levels, cv, seed);
}

// A wall-time series without intervals, as history mode is handed it.
inline benchhist::detect::SeriesInput input(const std::vector<double>& v) {
  return benchhist::detect::SeriesInput{v, {}, benchhist::MetricKind::wall_time, 0};
}

}  // namespace bhtest
