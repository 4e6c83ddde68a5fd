// Batch judging is independent of thread count and timing
// (docs/statistics.md#ranking-and-determinism); the fast orbit scorer counts exactly what the
// reference enumeration counts (docs/statistics.md#orbit).
#include <catch2/catch.hpp>

#include <limits>
#include <optional>

#include <algorithm>
#include <cmath>
#include <map>
#include <string>

#include "benchhist/detect/detail/orbit_group.hpp"
#include "benchhist/detect/detail/scatter.hpp"
#include "benchhist/detect/history.hpp"
#include "benchhist/detect/split_correction.hpp"
#include "benchhist/detect/stats.hpp"
#include "step_series.hpp"
#include "benchhist/error.hpp"

using namespace benchhist;
using namespace benchhist::detect;

namespace {

std::vector<std::vector<double>> mixed_family(std::size_t count, std::size_t n) {
  std::vector<std::vector<double>> out;
  for (std::size_t s = 0; s < count; ++s) {
    std::vector<double> levels(n, 100.0);
    switch (s % 4) {
      case 0:  // a real step
        for (std::size_t i = n / 2 + s % 7; i < n; ++i) levels[i] = 112.0;
        break;
      case 1:  // slow drift
        for (std::size_t i = 0; i < n; ++i) levels[i] = 100.0 * (1 + 0.002 * static_cast<double>(i));
        break;
      default:
        break;  // flat noise
    }
    out.push_back(detail::scattered_levels(levels, 0.02, "family-" + std::to_string(s)));
  }
  return out;
}

// Reference count of docs/statistics.md#procedure's full-orbit value: every element scored with the
// plain scorer.
double reference_adjusted(std::span<const double> values, const SplitCalibration& cal, double tainted,
                          double wa_unused) {
  (void)wa_unused;
  const auto ranks = doubled_ranks(values);
  const double tie_term = tie_term_from_doubled_ranks(ranks);
  const std::size_t n = values.size();
  std::uint64_t extreme = 0;
  // p depends only on (tau, D_tau) for a fixed multiset: memoise the plain Mann-Whitney.
  std::map<std::pair<std::size_t, std::int64_t>, double> memo;
  const auto order = detail::for_each_orbit_element(ranks, cal.order_budget, [&](std::span<const std::int64_t> o) {
    const auto sp = pettitt_from_ranks(o);
    const std::size_t k = std::min(sp.index, n - sp.index);
    double p = 1.0;
    if (k >= cal.min_regime) {
      const auto key = std::make_pair(sp.index, sp.d_tau);
      auto it = memo.find(key);
      if (it == memo.end()) {
        double p_split;
        if (exact_mw_feasible(sp.index, n - sp.index)) {
          std::vector<double> before(o.begin(), o.begin() + static_cast<std::ptrdiff_t>(sp.index));
          std::vector<double> after(o.begin() + static_cast<std::ptrdiff_t>(sp.index), o.end());
          p_split = mann_whitney(before, after).two_sided_p;
        } else {  // mann_whitney's normal branch, without re-ranking the same multiset
          p_split = mw_normal_p(sp.index, n - sp.index, static_cast<double>(sp.d_tau) / 2, tie_term);
        }
        it = memo.emplace(key, p_split).first;
      }
      p = it->second;
    }
    if (p <= tainted) ++extreme;
    return true;
  });
  return static_cast<double>(extreme) / static_cast<double>(order);
}

}  // namespace

TEST_CASE("a batch judged with one or two threads gives identical judgements", "[detect][batch]") {
  const auto family = mixed_family(24, 60);
  std::vector<SeriesInput> inputs;
  for (const auto& v : family) inputs.push_back(SeriesInput{v, {}, benchhist::MetricKind::wall_time, 0});
  const auto one = judge_history_batch(inputs, 1);
  const auto two = judge_history_batch(inputs, 2);
  const auto four = judge_history_batch(inputs, 4);
  REQUIRE(one.size() == inputs.size());
  std::size_t with_candidate = 0;
  for (std::size_t i = 0; i < one.size(); ++i) {
    INFO("series " << i);
    CHECK(one[i].change_point == two[i].change_point);
    CHECK(one[i].drift == two[i].drift);
    CHECK(one[i].change_point == four[i].change_point);
    CHECK(one[i].adjusted_p == two[i].adjusted_p);
    CHECK(one[i].candidate.has_value() == four[i].candidate.has_value());
    with_candidate += one[i].candidate.has_value();
  }
  CHECK(with_candidate > 0);
  const auto a = select_history_findings(one, inputs.size());
  const auto b = select_history_findings(four, inputs.size());
  REQUIRE(a.findings.size() == b.findings.size());
  for (std::size_t i = 0; i < a.findings.size(); ++i) CHECK(a.findings[i].series == b.findings[i].series);
}

TEST_CASE("the incremental orbit scorer counts the same extremes as scoring every element", "[detect][orbit]") {
  // Early exits disabled (accept never, reject at 1, weight tiny) so the full orbit is counted.
  SplitCalibration cal;
  cal.analytic_weight = 1e-300;
  cal.accept_analytic_below = 0;
  cal.reject_at_or_above = 1.0;
  cal.min_regime = 5;
  struct Case {
    std::vector<double> values;
    std::uint64_t budget;
  };
  std::vector<Case> cases;
  // Subgroup orbits (distinct values), distinct orbits (ties), and a long tied counter.
  cases.push_back({detail::scattered_levels(std::vector<double>{100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100,
                                                         130, 130, 130, 130, 130, 130, 130, 130},
                                    0.05, "orbit-a"),
                   2000});
  cases.push_back({detail::scattered_levels(std::vector<double>(30, 100.0), 0.05, "orbit-b"), 5000});
  cases.push_back({{1, 1, 1, 2, 1, 1, 2, 2, 2, 1, 2, 2, 2, 2}, 5000});
  {
    std::vector<double> lv(40, 100.0);
    for (std::size_t i = 25; i < 40; ++i) lv[i] = 104;
    cases.push_back({detail::scattered_levels(lv, 0.02, "orbit-c"), 20000});
  }
  // The balanced A6 x S6 group (n >= 12, budget >= 259 200, best grid < 12: here [9]).
  cases.push_back({detail::scattered_levels(std::vector<double>{50, 50, 50, 50, 50, 50, 50, 50, 50, 58, 58, 58, 58, 58, 58, 58},
                                    0.03, "orbit-d"),
                   500'000});
  // The benchmark's shape: 200 points, family-of-2000 budget, product group [7,4,2,2].
  {
    std::vector<double> lv(200, 100.0);
    for (std::size_t i = 83; i < 200; ++i) lv[i] = 112;
    cases.push_back({detail::scattered_levels(lv, 0.02, "orbit-e"), 500'000});
  }
  // 1000 points, group [4,4,4,3,3] (497 664 elements), a 3.5% step in 2% noise: 95% of the
  // elements are extreme; per outer element, all of the inner coordinate is certified extreme
  // at the observed split (42%), all but a few (54%, those few scored one by one), or too few
  // (3%, scored by the search) — every path of the fast scorer.
  {
    std::vector<double> lv(1000, 100.0);
    for (std::size_t i = 430; i < 1000; ++i) lv[i] = 103.5;
    cases.push_back({detail::scattered_levels(lv, 0.02, "orbit-f"), 500'000});
  }
  REQUIRE(detail::fallback_group(200, 500'000).factors == std::vector<std::size_t>{7, 4, 2, 2});
  REQUIRE(detail::fallback_group(16, 500'000).balanced);
  for (std::size_t ci = 0; ci < cases.size(); ++ci) {
    INFO("case " << ci);
    cal.order_budget = cases[ci].budget;
    const auto r = split_corrected_change_point(cases[ci].values, cal);
    REQUIRE(r.has_value());
    // The plain side scores every element one by one: under the sanitizers only the smaller
    // orbits are compared (the fast scorer still runs on every case).
    if (bhtest::sanitized && cases[ci].values.size() * cases[ci].budget > 20'000'000) continue;
    const double fraction = reference_adjusted(cases[ci].values, cal, r->tainted_p, 0);
    const double expected = std::max(std::min({1.0, fraction / (1 - cal.analytic_weight), 1.0}), r->tainted_p);
    CHECK(r->adjusted_p == expected);
  }
}

TEST_CASE("intervals must match the values one to one", "[detect]") {
  std::vector<double> v(12, 1.0);
  std::vector<std::optional<benchhist::Interval>> iv(3);
  CHECK_THROWS_AS(HistoryJudge(1).judge(SeriesInput{v, iv, benchhist::MetricKind::wall_time, 0}), benchhist::Error);
}

TEST_CASE("findings rank by relative move, then method, then set, id and kind", "[detect][ranking]") {
  using benchhist::BenchmarkId;
  using benchhist::DiscriminantSet;
  using benchhist::Engine;
  using benchhist::MetricKind;
  auto finding = [](std::size_t series, FindingMethod m, double rel) {
    Finding f;
    f.series = series;
    f.candidate.method = m;
    f.candidate.relative_delta = rel;
    return f;
  };
  std::vector<SeriesKey> keys{
      {DiscriminantSet{Engine::criterion, "x86_64-unknown-linux-gnu", "m1"}, BenchmarkId({"a"}), MetricKind::wall_time},
      {DiscriminantSet{Engine::all_the_time, "x86_64-unknown-linux-gnu", "m1"}, BenchmarkId({"b"}),
       MetricKind::processor_time},
      {DiscriminantSet{Engine::callgrind, "x86_64-unknown-linux-gnu", "m1"}, BenchmarkId({"a", "z"}),
       MetricKind::indirect_branches},
      {DiscriminantSet{Engine::callgrind, "x86_64-unknown-linux-gnu", "m1"}, BenchmarkId({"a", "z"}),
       MetricKind::instruction_count},
      {DiscriminantSet{Engine::callgrind, "x86_64-unknown-linux-gnu", "m1"}, BenchmarkId({"a", "b"}),
       MetricKind::instruction_count},
  };
  std::vector<Finding> fs{finding(0, FindingMethod::change_point, 0.10), finding(1, FindingMethod::change_point, 0.10),
                          finding(2, FindingMethod::change_point, 0.10), finding(3, FindingMethod::change_point, 0.10),
                          finding(4, FindingMethod::drift, 0.10), finding(4, FindingMethod::change_point, -0.50)};
  std::sort(fs.begin(), fs.end(), [&](const Finding& a, const Finding& b) { return finding_ranks_before(a, b, keys); });
  // |-0.5| first; then among the 10% moves change points before the drift, ordered by
  // engine token (all_the_time < callgrind < criterion), id segments, then kind order.
  std::vector<std::pair<std::size_t, FindingMethod>> order;
  for (const auto& f : fs) order.emplace_back(f.series, f.candidate.method);
  CHECK(order == std::vector<std::pair<std::size_t, FindingMethod>>{{4, FindingMethod::change_point},
                                                             {1, FindingMethod::change_point},
                                                             {3, FindingMethod::change_point},
                                                             {2, FindingMethod::change_point},
                                                             {0, FindingMethod::change_point},
                                                             {4, FindingMethod::drift}});
}

TEST_CASE("ranking keys must match the judged series", "[detect][ranking]") {
  std::vector<HistoryJudgement> js(2);
  std::vector<SeriesKey> keys(1);
  CHECK_THROWS_AS(select_history_findings(js, 2, keys), benchhist::Error);
}

TEST_CASE("a series with a non-finite value or a bad interval is refused naming it and the point",
          "[detect][input]") {
  // One NaN used to turn a clean +15 % step into "clean", and an all-NaN series was judged.
  std::vector<double> step(60);
  for (std::size_t i = 0; i < step.size(); ++i) step[i] = (i < 45 ? 100.0 : 115.0) + static_cast<double>(i % 3);
  const std::vector<double> flat(60, 50.0);
  std::vector<SeriesKey> keys(2);
  keys[0].id = benchhist::BenchmarkId({"parse", "step"});
  keys[1].id = benchhist::BenchmarkId({"parse", "flat"});
  const auto refusal = [&](std::vector<double> values, std::vector<std::optional<benchhist::Interval>> iv = {}) {
    std::vector<SeriesInput> in(2);
    in[0].values = step;
    in[1].values = values;
    in[1].intervals = iv;
    try {
      (void)judge_history_family(in, 2, keys);
    } catch (const benchhist::Error& e) {
      CHECK(e.kind() == benchhist::ErrorKind::usage);
      CHECK_THAT(e.hint(), Catch::Contains("leave a failed measurement out of the series"));
      // The same input judged alone (HistoryJudge, no keys) is refused as well.
      CHECK_THROWS_AS(HistoryJudge(2).judge(in[1]), benchhist::Error);
      return e.message();
    }
    return std::string("accepted");
  };
  auto v = flat;
  v[10] = std::numeric_limits<double>::quiet_NaN();
  CHECK(refusal(v) == "series parse/flat wall_time: value at point 10 is not a finite number (nan)");
  v[10] = std::numeric_limits<double>::infinity();
  CHECK(refusal(v) == "series parse/flat wall_time: value at point 10 is not a finite number (inf)");
  std::vector<std::optional<benchhist::Interval>> iv(60);
  iv[3] = benchhist::Interval{52, 48};
  CHECK(refusal(flat, iv) == "series parse/flat wall_time: interval at point 3 is inverted (low 52 > high 48)");
  iv[3] = benchhist::Interval{std::numeric_limits<double>::quiet_NaN(), 51};
  CHECK(refusal(flat, iv) == "series parse/flat wall_time: interval at point 3 has a bound that is not a finite number");
  // Zero and negative values are judged (ranks and medians are defined for them; heavy-tailed
  // noise in the accuracy scorecard crosses zero), and a negative interval bound is Criterion's
  // bootstrap near zero.
  iv[3] = benchhist::Interval{-0.5, 51};
  v = flat;
  v[10] = 0;
  v[11] = -3;
  CHECK(refusal(v, iv) == "accepted");
}

TEST_CASE("an active start past the end of its series is refused naming the series; at the end it is unjudged",
          "[detect][input]") {
  const std::vector<double> flat(30, 50.0);
  std::vector<SeriesKey> keys(1);
  keys[0].id = benchhist::BenchmarkId({"parse", "blessed"});
  std::vector<SeriesInput> in(1);
  in[0].values = flat;
  in[0].active_start = 31;
  try {
    (void)judge_history_family(in, 1, keys);
    FAIL("accepted");
  } catch (const benchhist::Error& e) {
    CHECK(e.kind() == benchhist::ErrorKind::usage);
    CHECK(e.message() == "series parse/blessed wall_time: active_start 31 is past the end of its 30 values");
    CHECK(e.subject() == "SeriesInput.active_start");
    CHECK_THAT(e.hint(), Catch::StartsWith("pass the index of the first point at or after the blessed commit"));
  }
  CHECK_THROWS_AS(HistoryJudge(1).judge(in[0]), benchhist::Error);
  // A blessing newer than every point leaves nothing to judge: unjudged, not an error.
  in[0].active_start = 30;
  const auto j = HistoryJudge(1).judge(in[0]);
  REQUIRE(j.unjudged.has_value());
  CHECK(*j.unjudged == benchhist::UnjudgedReason::too_few_points_since_blessing);
}

TEST_CASE("intervals of the wrong length name their series, which is the lowest failing one; wrong keys are refused "
          "before anything is judged",
          "[detect][batch]") {
  std::vector<SeriesKey> keys(2);
  keys[0].id = benchhist::BenchmarkId({"parse", "short_intervals"});
  keys[1].id = benchhist::BenchmarkId({"parse", "nan"});
  std::vector<SeriesInput> in(2);
  const std::vector<double> flat(40, 50.0);
  std::vector<double> with_nan = flat;
  with_nan[17] = std::numeric_limits<double>::quiet_NaN();
  const std::vector<std::optional<benchhist::Interval>> iv(39);  // one short
  in[0].values = flat;
  in[0].intervals = iv;
  in[1].values = with_nan;
  for (unsigned threads : {1u, 2u}) {
    INFO("threads " << threads);
    try {
      (void)judge_history_family(in, threads, keys);
      FAIL("accepted");
    } catch (const benchhist::Error& e) {
      CHECK(e.message() == "series parse/short_intervals wall_time: intervals do not match its values: 39 intervals "
                           "for 40 values");
      CHECK(e.subject() == "SeriesInput.intervals");
      CHECK(e.hint() == "pass one optional interval per value, or none at all");
    }
  }
  try {
    (void)HistoryJudge(2).judge(in[0]);
    FAIL("accepted");
  } catch (const benchhist::Error& e) {
    CHECK(e.message() == "series intervals do not match its values: 39 intervals for 40 values");
  }

  // A key count that cannot rank the family is refused before a series is judged: a NaN in the
  // family would otherwise be the error, found while judging.
  try {
    (void)judge_history_family(in, 2, std::span<const SeriesKey>(keys).first(1));
    FAIL("accepted");
  } catch (const benchhist::Error& e) {
    CHECK(e.message() == "ranking keys do not match the judged series: 1 key for 2 series");
  }
}

TEST_CASE("improvements are filtered before Benjamini-Hochberg and the family size stays", "[detect][bh]") {
  std::vector<HistoryJudgement> js(3);
  Candidate up;
  up.direction = Direction::regression;
  up.chance_level = 0.015;
  Candidate down = up;
  down.direction = Direction::improvement;
  down.chance_level = 0.001;
  js[0].candidate = down;
  js[1].candidate = up;
  // m = 10: the regression alone faces rank 1, threshold 0.01, and is dropped (seed example).
  const auto r = select_history_findings(js, 10);
  CHECK(r.findings.empty());
  CHECK(r.dropped[0] == DropReason::direction_filter);
  CHECK(r.dropped[1] == DropReason::benjamini_hochberg);
  CHECK_FALSE(r.dropped[2].has_value());
}
