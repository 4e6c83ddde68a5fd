// docs/divergences.md: S1 (the analytic certificate at the unclamped observed p) and S2 (the
// reported split is the estimated start of the new level).
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "benchhist/detect/detail/scatter.hpp"
#include "benchhist/detect/history.hpp"
#include "benchhist/detect/level_start.hpp"
#include "benchhist/detect/split_correction.hpp"
#include "benchhist/detect/stats.hpp"
#include "benchhist/error.hpp"
#include "step_series.hpp"

using namespace benchhist;
using namespace benchhist::detect;
using bhtest::input;
using bhtest::step;

TEST_CASE("the standardised split finds lopsided clean steps that Pettitt's split pulls toward the centre",
          "[detect][sharp]") {
  std::size_t pettitt_off = 0, cases = 0;
  for (std::size_t n : {40u, 100u, 200u})
    for (std::size_t at : {std::size_t{6}, std::size_t{9}, n / 3, n / 2, n - 9, n - 6}) {
      const auto x = step(n, at, 0.10, 0.02, "lopsided-" + std::to_string(n) + "-" + std::to_string(at));
      const auto ranks = doubled_ranks(x);
      INFO("n=" << n << " step at " << at);
      CHECK(new_level_start(x, ranks, min_regime_points) == at);
      pettitt_off += pettitt_from_ranks(ranks).index != at;
      ++cases;
    }
  // The reason S2 exists: the unstandardised maximum misses some of these.
  CHECK(pettitt_off > 0);
  CHECK(cases == 18);
}

TEST_CASE("the standardised split keeps the first of equal scores and stays inside the admissible splits",
          "[detect][sharp]") {
  const std::vector<double> flat(30, 7.0);
  const auto ranks = doubled_ranks(flat);
  CHECK(standardised_split(ranks, 5) == 5);          // every U_t is 0: the first admissible t
  CHECK(two_median_refinement(flat, 5, 5) == 5);     // every cost is 0: the earliest t
  CHECK(new_level_start(flat, ranks, 5) == 5);
  // A step of 2 points at the very end is outside [5, n - 5]: the split stays admissible.
  std::vector<double> late(30, 100.0);
  late[28] = late[29] = 200.0;
  const std::size_t t = new_level_start(late, doubled_ranks(late), 5);
  CHECK(t >= 5);
  CHECK(t <= 25);
}

TEST_CASE("the two-median refinement moves the coarse split to the first point of the new level, never more than "
          "its radius away",
          "[detect][sharp]") {
  // Level change at 50; the coarse split given a few points off on either side is corrected.
  const auto x = step(100, 50, 0.2, 0.01, "refine");
  for (std::size_t coarse : {42u, 47u, 50u, 53u, 58u}) {
    INFO("coarse " << coarse);
    CHECK(two_median_refinement(x, coarse, 5) == 50);
  }
  // Too far away to reach the level change: the refinement stays within its window.
  const std::size_t far = two_median_refinement(x, 20, 5);
  CHECK(far >= 10);
  CHECK(far <= 30);
  CHECK_THROWS_AS(two_median_refinement(std::vector<double>(8, 1.0), 4, 5), benchhist::Error);
  // The history ladder asks with min_regime 1, so the estimate may leave [5, n - 5]: a level
  // starting 3 points from the end is found there (and declined by min_regime, above).
  const auto late = step(30, 27, 0.5, 0.01, "late");
  CHECK(two_median_refinement(late, 25, 1) == 27);
  CHECK(two_median_refinement(late, 25, 5) == 25);
}

TEST_CASE("change points are attributed at the new level's start; Pettitt still decides min_regime",
          "[detect][sharp]") {
  const auto x = step(200, 194, 0.3, 0.02, "near-the-end");
  const auto ranks = doubled_ranks(x);
  const std::size_t pettitt_tau = pettitt_from_ranks(ranks).index;
  // S2 alone against the reference (S3 moves the persistence split too: test_fresh.cpp).
  detail::Departures s2_only = detail::Departures::reference();
  s2_only.level_start_split = true;
  const auto sharp = change_point_cheap_gates(x, {}, benchhist::MetricKind::wall_time, s2_only);
  const auto ref = change_point_cheap_gates(x, {}, benchhist::MetricKind::wall_time, detail::Departures::reference());
  REQUIRE(sharp.candidate);
  CHECK(sharp.candidate->view_index == 194);
  // Pettitt's own split sits too far inside the old level: the reference ladder measures the
  // step there and declines it.
  CHECK(pettitt_tau < 194);
  CHECK_FALSE(ref.candidate);
  CHECK(ref.ladder.first_declined().has_value());
  // The logged persistence gate: Pettitt's shorter side in the reference; with S2 the shorter side
  // of the new level's start too, when that is shorter (here the 6 points after 194).
  REQUIRE(sharp.ladder.find("min_regime"));
  CHECK(*ref.ladder.find("min_regime")->value == static_cast<double>(std::min(pettitt_tau, 200 - pettitt_tau)));
  CHECK(*sharp.ladder.find("min_regime")->value == 6.0);
}

TEST_CASE("a new level that starts fewer than five points from an end is declined at min_regime, never attributed "
          "to the nearest admissible commit",
          "[detect][sharp]") {
  const detail::Departures product{};
  const auto gates = [&](const std::vector<double>& x) {
    return change_point_cheap_gates(x, {}, benchhist::MetricKind::wall_time, product);
  };
  // Ten points, the slowdown in the last four: the only admissible split is 5, which measured
  // the old level. Declined, with the start's shorter side logged.
  const std::vector<double> tip{100, 101, 102, 100, 101, 102, 800, 801, 802, 800};
  auto st = gates(tip);
  CHECK_FALSE(st.candidate);
  CHECK(st.ladder.first_declined() == std::optional<std::string>("min_regime"));
  CHECK(*st.ladder.find("min_regime")->value == 4.0);
  // One more point on the new level: five after it, reported at its first point.
  auto five = tip;
  five.push_back(801);
  st = gates(five);
  REQUIRE(st.candidate);
  CHECK(st.candidate->view_index == 6);
  // The same at the start: four points on the old level are not a regime either.
  const std::vector<double> early{100, 101, 102, 100, 800, 801, 802, 800, 801, 802, 800};
  st = gates(early);
  CHECK_FALSE(st.candidate);
  CHECK(*st.ladder.find("min_regime")->value == 4.0);
  // With five before it, it is reported at its first point.
  std::vector<double> five_before{100, 101, 102, 100, 101};
  five_before.insert(five_before.end(), early.begin() + 4, early.end());
  st = gates(five_before);
  REQUIRE(st.candidate);
  CHECK(st.candidate->view_index == 5);
}

TEST_CASE("S1 certifies an overwhelming step analytically where the clamped threshold could not, and never raises "
          "an adjusted chance level",
          "[detect][sharp]") {
  const auto x = step(200, 120, 0.3, 0.02, "overwhelming");
  // S1 alone (Pettitt's split, the Chernoff / Serfling tails) against the reference.
  detail::Departures s1_only = detail::Departures::reference();
  s1_only.sharp_certificate = true;
  const SplitCalibration sharp = history_calibration(2000, s1_only);
  const SplitCalibration ref = history_calibration(2000, detail::Departures::reference());
  const auto a = split_corrected_change_point(x, sharp);
  const auto b = split_corrected_change_point(x, ref);
  REQUIRE(a);
  REQUIRE(b);
  CHECK(a->tainted_p == b->tainted_p);  // the reported (clamped) p is unchanged
  CHECK(a->tainted_p == p_value_floor);
  CHECK(a->adjusted_p < sharp.accept_analytic_below);  // certified: below the rank-1 bar of a family of 2,000
  CHECK(b->adjusted_p >= ref.accept_analytic_below);   // the clamped threshold could not certify it
  CHECK(a->adjusted_p >= a->tainted_p);

  // Only series whose unclamped p is below 1e-15 can move, and only downwards.
  const SplitCalibration sharp500 = history_calibration(500, s1_only);
  const SplitCalibration ref500 = history_calibration(500, detail::Departures::reference());
  for (std::size_t s = 0; s < 40; ++s) {
    const double lift = 0.01 * static_cast<double>(s % 8);
    const auto y = step(60 + 10 * (s % 5), 30, lift, 0.02, "monotone-" + std::to_string(s));
    const auto p = split_corrected_change_point(y, sharp500);
    const auto q = split_corrected_change_point(y, ref500);
    if (!p) {
      CHECK_FALSE(q);
      continue;
    }
    REQUIRE(q);
    INFO("series " << s);
    CHECK(p->adjusted_p <= q->adjusted_p);
    if (p->tainted_p > p_value_floor) CHECK(p->adjusted_p == q->adjusted_p);
  }
}

TEST_CASE("a lone clear step in a family of 2,000 is reported, and was not by the reference behaviour",
          "[detect][sharp]") {
  std::vector<std::vector<double>> values;
  values.push_back(step(200, 130, 0.10, 0.02, "lone"));
  for (std::size_t i = 1; i < 2000; ++i) values.push_back(detail::scattered_levels(std::vector<double>(10, 50.0), 0.02,
                                                                           "flat-" + std::to_string(i)));
  std::vector<SeriesInput> inputs;
  for (const auto& v : values) inputs.push_back(input(v));
  const auto product = judge_history_family(inputs, 2);
  const auto reference = judge_history_family(inputs, 2, {}, detail::Departures::reference());
  REQUIRE(product.result.findings.size() == 1);
  CHECK(product.result.findings[0].series == 0);
  CHECK(product.result.findings[0].candidate.method == FindingMethod::change_point);
  CHECK(product.result.findings[0].candidate.point_index == 130);
  CHECK(reference.result.findings.empty());
  // Same judgement on any thread count.
  const auto one = judge_history_family(inputs, 1);
  CHECK(one.judgements[0].adjusted_p == product.judgements[0].adjusted_p);
  CHECK(one.result.findings.size() == 1);
}
