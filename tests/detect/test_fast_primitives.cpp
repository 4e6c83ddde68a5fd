// The fast forms of the docs/statistics.md#primitives primitives give exactly what their textbook
// definitions give:
// Mann-Kendall's S by merge-sort inversions, the median by integer keys, Theil-Sen's slope by
// a sampled bracket (and its full-storage fallback), and the selection adjustment's
// normal-p threshold without erfc. Compared bit for bit against plain O(n^2) versions.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "benchhist/detect/detail/scatter.hpp"
#include "benchhist/detect/split_correction.hpp"
#include "benchhist/detect/stats.hpp"
#include "step_series.hpp"

using namespace benchhist::detect;

namespace {

// Deterministic test series: scattered levels, optionally snapped to a coarse grid (heavy
// ties), with signed zeros mixed in.
std::vector<double> series(std::size_t n, std::size_t shape, const std::string& seed) {
  std::vector<double> levels(n, 100.0);
  for (std::size_t i = 0; i < n; ++i) {
    if (shape % 3 == 1) levels[i] = 100.0 + 0.05 * static_cast<double>(i);  // drift up
    if (shape % 3 == 2) levels[i] = 100.0 - 0.03 * static_cast<double>(i);  // drift down
  }
  auto xs = detail::scattered_levels(levels, 0.02, seed);
  if (shape % 2 == 1)
    for (double& x : xs) x = std::round(x);  // ties everywhere
  return xs;
}

double plain_median(std::vector<double> xs) {
  std::sort(xs.begin(), xs.end(), [](double a, double b) { return total_less(a, b); });
  const std::size_t n = xs.size();
  if (n % 2 == 1) return xs[n / 2];
  return (xs[n / 2 - 1] + xs[n / 2]) / 2;
}

double plain_slope_median(std::span<const double> xs) {
  std::vector<double> slopes;
  for (std::size_t i = 0; i < xs.size(); ++i)
    for (std::size_t j = i + 1; j < xs.size(); ++j) slopes.push_back((xs[j] - xs[i]) / static_cast<double>(j - i));
  return plain_median(std::move(slopes));
}

double plain_mann_kendall_s(std::span<const double> xs) {
  std::int64_t s = 0;
  for (std::size_t i = 0; i < xs.size(); ++i)
    for (std::size_t j = i + 1; j < xs.size(); ++j)
      s += total_less(xs[i], xs[j]) ? 1 : total_less(xs[j], xs[i]) ? -1 : 0;
  return static_cast<double>(s);
}

bool same_bits(double a, double b) { return std::bit_cast<std::uint64_t>(a) == std::bit_cast<std::uint64_t>(b); }

}  // namespace

TEST_CASE("total_order_key is its own inverse and orders -0 before +0", "[detect][fast]") {
  for (double x : {-1e300, -1.5, -0.0, 0.0, 4.9e-324, 2.5, 1e300, std::numeric_limits<double>::infinity()})
    CHECK(same_bits(from_total_order_key(total_order_key(x)), x));
  CHECK(total_order_key(-0.0) < total_order_key(0.0));
  CHECK(total_order_key(-2.0) < total_order_key(-1.0));
}

TEST_CASE("median by integer keys equals the sorted definition", "[detect][fast]") {
  for (std::size_t n : {1u, 2u, 3u, 10u, 11u, 999u, 1000u})
    for (std::size_t shape = 0; shape < 4; ++shape) {
      const auto xs = series(n, shape, "median-" + std::to_string(n));
      INFO("n=" << n << " shape=" << shape);
      CHECK(same_bits(median(xs), plain_median(xs)));
    }
  CHECK(same_bits(median({-0.0, 0.0}), 0.0));
  CHECK(same_bits(median({0.0, -0.0, -0.0}), -0.0));
  // The selection's partition on orders and ties it must not stumble over: all equal, two
  // values, sorted either way, organ pipe.
  for (std::size_t n : {33u, 64u, 1000u, 1001u}) {
    std::vector<std::vector<double>> shapes(5, std::vector<double>(n));
    for (std::size_t i = 0; i < n; ++i) {
      shapes[0][i] = 7.0;
      shapes[1][i] = i % 3 == 0 ? 1.0 : 2.0;
      shapes[2][i] = static_cast<double>(i);
      shapes[3][i] = -static_cast<double>(i);
      shapes[4][i] = static_cast<double>(std::min(i, n - i));
    }
    for (std::size_t shape = 0; shape < shapes.size(); ++shape) {
      INFO("n=" << n << " shape=" << shape);
      CHECK(same_bits(median(shapes[shape]), plain_median(shapes[shape])));
    }
  }
}

TEST_CASE("Mann-Kendall S by inversions equals the pair count, ties included", "[detect][fast]") {
  for (std::size_t n : {3u, 4u, 17u, 300u, 1000u})
    for (std::size_t shape = 0; shape < 6; ++shape) {
      auto xs = series(n, shape, "mk-" + std::to_string(n));
      if (shape == 5 && n > 4) xs[1] = -0.0, xs[3] = 0.0;  // signed zeros are distinct ranks
      INFO("n=" << n << " shape=" << shape);
      CHECK(mann_kendall(xs).s == plain_mann_kendall_s(xs));
    }
}

TEST_CASE("Theil-Sen's slope is the exact median of all pairwise slopes on every path", "[detect][fast]") {
  for (std::size_t n : {2u, 3u, 50u, 201u, 400u, 1000u})
    for (std::size_t shape = 0; shape < 6; ++shape) {
      const auto xs = series(n, shape, "ts-" + std::to_string(n) + "-" + std::to_string(shape));
      const double expected = plain_slope_median(xs);
      INFO("n=" << n << " shape=" << shape);
      CHECK(same_bits(theil_sen(xs)->slope, expected));
      CHECK(same_bits(detail::median_pairwise_slope(xs, 0), expected));  // store everything
      CHECK(same_bits(detail::median_pairwise_slope(xs, 8), expected));   // a wide bracket: many slopes kept
      CHECK(same_bits(detail::median_pairwise_slope(xs, 64), expected));
    }
  // Extreme magnitudes and infinities go through the exact division.
  std::vector<double> wild = series(400, 0, "ts-wild");
  wild[10] = 1e-310;
  wild[20] = -1e300;
  wild[30] = std::numeric_limits<double>::infinity();
  wild[31] = -0.0;
  CHECK(same_bits(theil_sen(wild)->slope, plain_slope_median(wild)));
}

TEST_CASE("Theil-Sen's slopes listed by inversions give the exact median pair, and that path answers for ordinary "
          "series",
          "[detect][fast]") {
  // Shapes the inversion path must get bit-exact: noise, ties on a coarse grid, few distinct
  // counts, constant, exactly linear (every slope equal), a step, huge and tiny magnitudes,
  // sorted values (every slope positive), and a series whose middle slopes tie at zero.
  const auto shaped = [](std::size_t n, std::size_t shape) {
    auto xs = series(n, shape % 6, "inv-" + std::to_string(n) + "-" + std::to_string(shape));
    switch (shape) {
      case 6: for (double& x : xs) x = std::fmod(std::round(x), 3.0); break;       // 0, 1, 2
      case 7: for (double& x : xs) x = 42.0; break;                                // constant
      case 8: for (std::size_t i = 0; i < n; ++i) xs[i] = 3.0 - 0.25 * static_cast<double>(i); break;
      case 9: for (std::size_t i = n / 2; i < n; ++i) xs[i] *= 1.3; break;         // a step
      case 10: for (double& x : xs) x *= 1e290; break;
      case 11: for (double& x : xs) x *= 1e-305; break;
      case 12: std::sort(xs.begin(), xs.end()); break;
      case 13: for (std::size_t i = 0; i < n; ++i) xs[i] = i % 4 == 0 ? xs[i] : 100.0; break;
      default: break;
    }
    return xs;
  };
  std::size_t answered = 0, cases = 0;
  for (std::size_t n : {33u, 64u, 201u, 1000u})
    for (std::size_t shape = 0; shape < 14; ++shape) {
      if (bhtest::sanitized && n > 201) continue;  // the plain definition sorts 500,000 slopes
      const auto xs = shaped(n, shape);
      const double expected = plain_slope_median(xs);
      INFO("n=" << n << " shape=" << shape);
      CHECK(same_bits(theil_sen(xs)->slope, expected));
      CHECK(same_bits(detail::median_pairwise_slope(xs, 8), expected));
      // The path itself, given the sampled bracket's ends around the exact median: when it
      // answers, it is exact.
      const double spread = std::fabs(expected) * 1e-3 + 1e-3 * (std::fabs(xs.front()) + 1e-300);
      const auto by_inversions = detail::median_pairwise_slope_by_inversions(xs, expected - spread, expected + spread);
      ++cases;
      if (by_inversions) {
        ++answered;
        CHECK(same_bits(*by_inversions, expected));
      }
    }
  // Given a bracket around the median, the path answers for every one of these shapes.
  CHECK(answered == cases);
  // Non-finite values are left to the other paths.
  std::vector<double> wild = series(200, 0, "inv-wild");
  wild[7] = std::numeric_limits<double>::infinity();
  CHECK_FALSE(detail::median_pairwise_slope_by_inversions(wild, -1, 1).has_value());
  CHECK(same_bits(theil_sen(wild)->slope, plain_slope_median(wild)));
}

TEST_CASE("NormalPLimit answers exactly as comparing the unclamped normal p with the limit, which is the clamped "
          "comparison at and above 1e-15",
          "[detect][fast]") {
  const std::size_t n = 1000;
  for (double limit : {1e-15, 1.0000000000000142e-15, 3.7e-9, 0.0125, 0.5, 1.0, 2.0, 1e-16, 1e-40, 3e-120, 0.0}) {
    const NormalPLimit fast(limit);
    for (double tie_term : {0.0, 5000.0}) {
      std::size_t agreed = 0;
      for (std::size_t k : {5u, 7u, 100u, 500u})
        for (std::int64_t sum = static_cast<std::int64_t>(k * (k + 1)); sum <= static_cast<std::int64_t>(k * (2 * n - k + 1));
             sum += 1 + static_cast<std::int64_t>(k / 7)) {
          const double rank_sum = static_cast<double>(sum) / 2;
          const bool plain = mw_normal_p_unclamped(k, n - k, rank_sum, tie_term) <= limit;
          INFO("limit=" << limit << " k=" << k << " sum=" << sum);
          REQUIRE(fast.reaches(k, n - k, rank_sum, tie_term) == plain);
          if (limit >= p_value_floor) REQUIRE((mw_normal_p(k, n - k, rank_sum, tie_term) <= limit) == plain);
          ++agreed;
        }
      CHECK(agreed > 1000);
    }
  }
}
