// Behaviour of the branch judge beyond the vectors: batch determinism, census agreement with
// detect::unjudged_reason (census.json branch precedence), blessing fallback, bad input.

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "benchhist/detect/branch.hpp"
#include "benchhist/detect/census.hpp"
#include "benchhist/detect/detail/scatter.hpp"
#include "benchhist/detect/split_correction.hpp"
#include "benchhist/error.hpp"
#include "common/vectors.hpp"

namespace {

using namespace benchhist;
using namespace benchhist::detect;

BranchSeriesInput series(const std::vector<double>& values, std::optional<double> tip,
                         MetricKind kind = MetricKind::wall_time) {
  BranchSeriesInput in;
  for (std::size_t i = 0; i < values.size(); ++i)
    in.base.push_back(BranchBaseLevel{static_cast<std::int64_t>(i), "c" + std::to_string(i), values[i], std::nullopt});
  in.base_history_count = values.size();
  if (tip) in.tip = BranchObservation{*tip, std::nullopt};
  in.kind = kind;
  return in;
}

std::vector<double> step(std::size_t before, double a, std::size_t after, double b) {
  std::vector<double> v(before, a);
  v.insert(v.end(), after, b);
  return v;
}

// A mixed batch: scattered flat bases, steps, reverted regressions, unresolved tails, short ones.
std::vector<BranchSeriesInput> mixed_batch() {
  std::vector<BranchSeriesInput> out;
  for (int k = 0; k < 24; ++k) {
    const std::vector<std::pair<double, std::size_t>> rle =
        k % 4 == 0   ? std::vector<std::pair<double, std::size_t>>{{100.0, 60}}
        : k % 4 == 1 ? std::vector<std::pair<double, std::size_t>>{{100.0, 30}, {130.0, 30}}
        : k % 4 == 2 ? std::vector<std::pair<double, std::size_t>>{{100.0, 40}, {200.0, 12}, {100.0, 40}}
                     : std::vector<std::pair<double, std::size_t>>{{100.0, 16 + static_cast<std::size_t>(k % 3)}};
    const auto values = detail::scattered_series(rle, 0.02, "batch-" + std::to_string(k));
    out.push_back(series(values, k % 5 == 0 ? std::optional<double>() : std::optional<double>(100.0 + 7.0 * k)));
  }
  out.push_back(series(step(16, 100, 4, 200), 220.0, MetricKind::instruction_count));  // unresolved
  out.push_back(series(std::vector<double>(9, 100.0), 130.0));                           // too few
  return out;
}

bool same(const BranchJudgement& a, const BranchJudgement& b) {
  return a.unjudged == b.unjudged && a.regime.selector_boundaries == b.regime.selector_boundaries &&
         a.regime.current_start == b.regime.current_start && a.regime.unresolved == b.regime.unresolved &&
         a.excursion.gates == b.excursion.gates && a.excursion.relation == b.excursion.relation &&
         a.finding.has_value() == b.finding.has_value() && a.stable_for_comparison == b.stable_for_comparison &&
         a.candidate_commits == b.candidate_commits;
}

}  // namespace

TEST_CASE("the batch result does not depend on the number of threads", "[branch][batch]") {
  const auto inputs = mixed_batch();
  const auto one = judge_branch_batch(inputs, 1);
  for (unsigned threads : {2u, 4u, 7u}) {
    const auto many = judge_branch_batch(inputs, threads);
    REQUIRE(many.size() == one.size());
    for (std::size_t i = 0; i < one.size(); ++i) {
      INFO("series " << i << " threads " << threads);
      CHECK(same(one[i], many[i]));
      CHECK(same(one[i], judge_branch(inputs[i])));
    }
  }
  // The batch exercises every verdict, so the comparison above is not vacuous.
  std::size_t unjudged = 0, findings = 0, quiet = 0, with_boundary = 0;
  for (const auto& j : one) {
    if (!j.judged()) ++unjudged;
    else if (j.finding) ++findings;
    else ++quiet;
    if (!j.regime.selector_boundaries.empty()) ++with_boundary;
  }
  CHECK(unjudged > 0);
  CHECK(findings > 0);
  CHECK(quiet > 0);
  CHECK(with_boundary > 0);
}

TEST_CASE("an empty batch and a zero thread count are accepted", "[branch][batch]") {
  CHECK(judge_branch_batch({}, 4).empty());
  const std::vector<BranchSeriesInput> one{series(std::vector<double>(12, 100.0), 130.0)};
  CHECK(judge_branch_batch(one, 0).at(0).finding.has_value());
}

TEST_CASE("branch census reasons agree with the detect census precedence", "[branch][census]") {
  // census.json prec_branch_not_measured_first: no context point wins over a short base.
  const auto not_measured = judge_branch(series(std::vector<double>(5, 100.0), std::nullopt));
  CHECK(not_measured.unjudged == UnjudgedReason::not_measured_on_branch);
  ReasonInputs r;
  r.mode = AnalysisMode::branch;
  r.context_point = false;
  r.base_levels = 5;
  CHECK(unjudged_reason(r) == not_measured.unjudged);

  // census.json prec_branch_unresolved_after_base_count: 20 levels, unresolved regime.
  const auto unresolved = judge_branch(series(step(16, 100, 4, 200), 220.0, MetricKind::instruction_count));
  CHECK(unresolved.unjudged == UnjudgedReason::current_base_regime_unresolved);
  r.context_point = true;
  r.base_levels = 20;
  r.base_levels_before_blessing = 20;
  r.regime_unresolved = unresolved.regime.unresolved;
  CHECK(unjudged_reason(r) == unresolved.unjudged);

  // Blessing-caused shortfall only when the history before the drain had >= 10 levels.
  auto drained = series(std::vector<double>(9, 100.0), 130.0);
  drained.blessed = true;
  drained.base_history_count = 10;
  CHECK(judge_branch(drained).unjudged == UnjudgedReason::too_few_base_commits_since_blessing);
  drained.base_history_count = 9;
  CHECK(judge_branch(drained).unjudged == UnjudgedReason::too_few_base_commits);
}

TEST_CASE("a blessed series without a boundary reports the blessing commit as its regime start", "[branch]") {
  auto in = series(std::vector<double>(12, 100.0), 130.0);
  in.blessed = true;
  in.blessing_commit = "c0";
  const auto j = judge_branch(in);
  REQUIRE(j.finding);
  CHECK(j.finding->current_regime_start == std::optional<std::string>("c0"));
  CHECK_FALSE(j.current_regime_start_commit);
  // A base boundary wins over the blessing.
  auto moved = series(step(10, 200, 10, 100), 160.0, MetricKind::instruction_count);
  moved.blessed = true;
  moved.blessing_commit = "c0";
  const auto m = judge_branch(moved);
  REQUIRE(m.finding);
  CHECK(m.finding->current_regime_start == std::optional<std::string>("c10"));
}

TEST_CASE("base levels out of first-parent order are refused naming the commit", "[branch][errors]") {
  auto in = series(std::vector<double>(12, 100.0), 130.0);
  std::swap(in.base[3], in.base[4]);
  try {
    (void)judge_branch(in);
    FAIL("expected an error");
  } catch (const Error& e) {
    CHECK(e.kind() == ErrorKind::usage);
    CHECK(std::string(e.what()).find("c3") != std::string::npos);
  }
}

TEST_CASE("non-finite base levels and tips are refused naming the commit", "[branch][errors]") {
  auto in = series(std::vector<double>(12, 100.0), 130.0);
  in.base[7].value = std::numeric_limits<double>::quiet_NaN();
  try {
    (void)judge_branch(in);
    FAIL("expected an error");
  } catch (const Error& e) {
    CHECK(std::string(e.what()).find("c7") != std::string::npos);
  }
  auto tip = series(std::vector<double>(12, 100.0), std::numeric_limits<double>::infinity());
  CHECK_THROWS_AS(judge_branch(tip), Error);
}

TEST_CASE("non-finite and inverted intervals are refused, as history refuses them, naming the commit",
          "[branch][errors]") {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  // A plain +30 % tip over a flat base with intervals: reported as it stands.
  std::vector<double> base(30);
  for (std::size_t i = 0; i < base.size(); ++i) base[i] = 98.0 + static_cast<double>(i % 5);
  auto clean = series(base, 130.0);
  for (auto& l : clean.base) l.interval = Interval{l.value - 1, l.value + 1};
  clean.tip->interval = Interval{129.0, 131.0};
  REQUIRE(judge_branch(clean).finding.has_value());

  const auto refusal = [](const BranchSeriesInput& in) {
    try {
      (void)judge_branch(in);
    } catch (const Error& e) {
      CHECK(e.kind() == ErrorKind::usage);
      CHECK(e.hint().find("low <= high") != std::string::npos);
      return std::string(e.what());
    }
    return std::string("judged");
  };
  auto tip_nan = clean;
  tip_nan.tip->interval = Interval{nan, 131.0};  // it used to stop the tip at interval_disjoint, unreported
  CHECK(refusal(tip_nan).find("branch tip observation's interval has a bound that is not a finite number") !=
        std::string::npos);
  auto base_nan = clean;
  base_nan.base[4].interval = Interval{nan, 1.0};  // it used to make the noise band NaN
  CHECK(refusal(base_nan).find("branch base level at commit c4: its interval has a bound that is not a finite number") !=
        std::string::npos);
  auto inverted = clean;
  inverted.base[9].interval = Interval{200.0, 60.0};
  CHECK(refusal(inverted).find("branch base level at commit c9: its interval is inverted (low 200 > high 60)") !=
        std::string::npos);
  auto tip_inverted = clean;
  tip_inverted.tip->interval = Interval{1e9, -1e9};
  CHECK(refusal(tip_inverted).find("branch tip observation's interval is inverted") != std::string::npos);
}

TEST_CASE("an excursion below the range uses the low edge and both interval gates", "[branch]") {
  const std::vector<double> refs(10, 100.0);
  const std::vector<std::optional<Interval>> ivs(10, Interval{98.0, 102.0});
  const auto e = detail::evaluate_excursion(70.0, Interval{69.0, 71.0}, refs, ivs, MetricKind::wall_time);
  CHECK(e.relation == Relation::below);
  CHECK(e.edge == 100.0);
  CHECK(e.excess == -30.0);
  CHECK(e.passed);
  REQUIRE(e.gates.gates().size() == 5);
  CHECK(e.gates.gates()[3].name == "interval_disjoint");
  // A tip interval reaching into the references' lows is not disjoint.
  const auto overlap = detail::evaluate_excursion(70.0, Interval{60.0, 99.0}, refs, ivs, MetricKind::wall_time);
  CHECK(overlap.gates.first_declined() == std::optional<std::string>("interval_disjoint"));
}

TEST_CASE("equally large families are decided by the newest common commit", "[branch][comparison]") {
  auto older = series(std::vector<double>(10, 100.0), 130.0, MetricKind::instruction_count);
  auto newer = series(std::vector<double>(10, 100.0), 130.0, MetricKind::instruction_count);
  for (auto& l : newer.base) l.topo += 100;
  const std::vector<BranchSeriesInput> ins{older, newer};
  std::vector<BranchJudgement> js = judge_branch_batch(ins, 2);
  const std::vector<DiscriminantSet> sets(2);
  const auto by_set = compare_historical_turns_by_set(ins, js, sets);
  REQUIRE(by_set.size() == 1);
  REQUIRE(by_set[0].comparison);
  CHECK(by_set[0].comparison->members == std::vector<std::size_t>{1});
  CHECK(by_set[0].comparison->commits == std::vector<std::int64_t>{101, 103, 105, 107, 109});
  CHECK(js[1].finding->included_in_historical_comparison);
  CHECK_FALSE(js[0].finding->included_in_historical_comparison);
}

TEST_CASE("a family needs five shared candidate commits", "[branch][comparison]") {
  // Two stable series whose reference lanes share only four commits: each alone still forms
  // a one-series family, the larger shared family cannot be formed.
  auto a = series(std::vector<double>(10, 100.0), 130.0, MetricKind::instruction_count);
  auto b = series(std::vector<double>(10, 100.0), 130.0, MetricKind::instruction_count);
  b.base[9].topo = 20;  // candidate commits 1,3,5,7,20 vs 1,3,5,7,9
  const std::vector<BranchSeriesInput> ins{a, b};
  const auto js = judge_branch_batch(ins, 1);
  const auto c = compare_historical_turns(ins, js);
  REQUIRE(c);
  CHECK(c->series() == 1);
  CHECK(c->commits == std::vector<std::int64_t>{1, 3, 5, 7, 20});  // newest common commit wins the tie
  // Too short a current regime: no family at all.
  const std::vector<BranchSeriesInput> short_one{series(std::vector<double>(10, 100.0), 130.0)};
  auto trimmed = judge_branch_batch(short_one, 1);
  trimmed[0].candidate_commits.pop_back();
  CHECK_FALSE(compare_historical_turns(short_one, trimmed));
}

TEST_CASE("branch findings rank by the size of the move in either direction, then by series key", "[branch][ranking]") {
  const std::vector<BranchSeriesInput> ins{
      series(std::vector<double>(10, 100.0), 120.0),  // +0.20
      series(std::vector<double>(10, 100.0), 70.0),   // -0.30
      series(std::vector<double>(10, 100.0), 101.0),  // quiet
      series(std::vector<double>(10, 100.0), 80.0),   // -0.20, ties with series 0
  };
  const auto js = judge_branch_batch(ins, 2);
  CHECK(rank_branch_findings(js) == std::vector<std::size_t>{1, 0, 3});
  std::vector<SeriesKey> keys(4);
  keys[0].set.machine_key = "m2";
  keys[3].set.machine_key = "m1";
  CHECK(rank_branch_findings(js, keys) == std::vector<std::size_t>{1, 3, 0});
}

TEST_CASE("random bases keep the regime, range and census invariants", "[branch][property]") {
  std::vector<BranchSeriesInput> ins;
  for (int k = 0; k < 60; ++k) {
    const std::size_t n = 8 + static_cast<std::size_t>((k * 37) % 121);  // 8..128 levels
    std::vector<std::pair<double, std::size_t>> rle;
    std::size_t left = n;
    double level = 100.0;
    for (int seg = 0; left > 0; ++seg) {
      const std::size_t len = std::min(left, static_cast<std::size_t>(6 + (k * 13 + seg * 7) % 30));
      rle.emplace_back(level, len);
      left -= len;
      level *= (seg + k) % 3 == 0 ? 1.3 : (seg + k) % 3 == 1 ? 0.8 : 1.02;
    }
    auto in = series(detail::scattered_series(rle, 0.01 * (k % 4), "prop-" + std::to_string(k)),
                     k % 7 == 0 ? std::optional<double>() : std::optional<double>(60.0 + 3.0 * k));
    in.blessed = k % 5 == 0;
    in.base_history_count = in.base.size() + (k % 10);
    ins.push_back(std::move(in));
  }
  const auto js = judge_branch_batch(ins, 3);
  std::size_t with_boundaries = 0, findings = 0, unjudged = 0;
  for (const auto& j : js) {
    with_boundaries += j.regime.selector_boundaries.empty() ? 0 : 1;
    findings += j.finding ? 1 : 0;
    unjudged += j.judged() ? 0 : 1;
  }
  CHECK(with_boundaries >= 5);  // not vacuous: the search, the ladder and the census all fire
  CHECK(findings >= 5);
  CHECK(unjudged >= 5);
  for (std::size_t i = 0; i < ins.size(); ++i) {
    INFO("series " << i);
    const auto& in = ins[i];
    const auto& j = js[i];
    ReasonInputs r;
    r.mode = AnalysisMode::branch;
    r.context_point = in.tip.has_value();
    r.base_levels = in.base.size();
    r.base_levels_before_blessing = in.base_history_count;
    r.blessed = in.blessed;
    r.regime_unresolved = j.regime.unresolved;
    CHECK(unjudged_reason(r) == j.unjudged);
    const auto& b = j.regime.selector_boundaries;
    CHECK(std::is_sorted(b.begin(), b.end()));
    for (std::size_t k = 1; k < b.size(); ++k) CHECK(b[k] - b[k - 1] >= branch_min_regime);
    if (!b.empty()) CHECK(b.front() >= branch_min_regime);
    CHECK(j.regime.ran == (in.tip && in.base.size() >= min_branch_regime_selection_commits));
    if (!j.judged()) {
      CHECK_FALSE(j.finding);
      continue;
    }
    const std::size_t start = *j.current_regime_start_index;
    REQUIRE(start < in.base.size());
    CHECK(j.excursion.reference_count == in.base.size() - start);
    CHECK(j.comparison_base_index == in.base.back().topo);
    for (std::size_t p = start; p < in.base.size(); ++p) {
      CHECK(j.excursion.reference_min <= in.base[p].value);
      CHECK(j.excursion.reference_max >= in.base[p].value);
    }
    if (j.finding) {
      CHECK(j.excursion.relation != Relation::inside);
      CHECK(std::fabs(j.finding->relative_delta) >= branch_practical_relative);
      CHECK(j.finding->direction == (j.finding->delta > 0 ? Direction::regression : Direction::improvement));
    }
    for (std::int64_t c : j.candidate_commits) CHECK(c >= in.base[start].topo);
  }
}
