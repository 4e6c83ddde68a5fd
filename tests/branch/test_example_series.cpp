// The example catalogue (detect/example_series.hpp) that docs/detection.md's figures and tables
// are rendered from: these are the verdicts the documentation shows. A change here means the
// documentation changes too (`docs-figures`, checked by the docs_figures test).
#include <catch2/catch.hpp>

#include <set>

#include "benchhist/detect/example_series.hpp"
#include "benchhist/error.hpp"

using namespace benchhist;
using namespace benchhist::detect;
namespace ex = benchhist::detect::examples;

namespace {

const Candidate& reported_candidate(const HistoryFamily& f) {
  for (const auto& x : f.result.findings)
    if (x.series == 0) return x.candidate;
  FAIL("the example is not reported");
  throw;  // unreachable
}

std::string declined(const GateLadder& l) { return l.first_declined().value_or("none"); }

}  // namespace

TEST_CASE("the catalogue names every example once and its generated series match the shared vectors' generator",
          "[examples]") {
  std::set<std::string> names;
  for (const auto& e : ex::history_examples()) CHECK(names.insert(e.name).second);
  for (const auto& e : ex::branch_examples()) CHECK(names.insert(e.name).second);
  // The clean step is the vectors' seed_clean_step (same levels, scatter and seed name).
  const auto& step = ex::history_example("clean-step").values;
  REQUIRE(step.size() == 20);
  CHECK(step[0] == 99.80727877100948);
  CHECK(step[19] == 126.07203526080744);
  CHECK_THROWS_AS(ex::history_example("no-such-example"), Error);
  CHECK_THROWS_AS(ex::branch_example("no-such-example"), Error);
}

TEST_CASE("a clean step is reported at the first commit of its new level", "[examples]") {
  const auto f = ex::judge(ex::history_example("clean-step"));
  REQUIRE(ex::reported(f));
  const auto& c = reported_candidate(f);
  CHECK(c.method == Method::change_point);
  CHECK(c.direction == Direction::regression);
  CHECK(c.point_index == 10);
  CHECK(c.baseline == Approx(100.36830218253652));
  CHECK(c.latest == Approx(130.05171405014943));
  CHECK(c.relative_delta == Approx(0.29574488381430086));
}

TEST_CASE("two steps in one series report one change point, at the earlier boundary", "[examples]") {
  const auto f = ex::judge(ex::history_example("multi-step"));
  REQUIRE(ex::reported(f));
  const auto& c = reported_candidate(f);
  CHECK(c.method == Method::change_point);
  CHECK(c.point_index == 10);
  CHECK(c.relative_delta == Approx(0.5007).margin(0.001));
}

TEST_CASE("a slow ramp is reported as a drift over the whole window", "[examples]") {
  const auto f = ex::judge(ex::history_example("slow-ramp"));
  REQUIRE(ex::reported(f));
  const auto& c = reported_candidate(f);
  CHECK(c.method == Method::drift);
  CHECK(c.window_start_index == 0u);
  CHECK(c.point_index == 29);
  CHECK(c.relative_delta == Approx(0.10395864254986495));
  // The step fits worse than the line, which is why drift is kept.
  const auto& e = ex::history_example("slow-ramp");
  const auto cp = change_point_cheap_gates(e.values, {}, e.kind);
  const auto dr = drift_detector(e.values, {}, e.kind);
  REQUIRE(cp.step_residual);
  REQUIRE(dr.line_residual);
  CHECK(*dr.line_residual < *cp.step_residual);
}

TEST_CASE("what does not count: a blip, plain noise, a returned excursion and an oscillation stay silent",
          "[examples]") {
  struct Row {
    const char* name;
    const char* change_point_gate;
    const char* drift_gate;
  };
  for (const auto& row : {Row{"single-blip", "min_regime", "significance"},
                          Row{"flat-noisy", "residual_noise", "significance"},
                          Row{"returned-excursion", "residual_noise", "significance"},
                          Row{"oscillation", "regime_separation", "significance"},
                          Row{"ladder-declined", "residual_noise", "significance"},
                          Row{"small-timing", "absolute_floor", "absolute_floor"}}) {
    INFO(row.name);
    const auto f = ex::judge(ex::history_example(row.name));
    const auto& j = f.judgements[0];
    CHECK(j.judged());
    CHECK_FALSE(ex::reported(f));
    CHECK_FALSE(j.candidate.has_value());
    CHECK(declined(j.change_point) == row.change_point_gate);
    CHECK(declined(j.drift) == row.drift_gate);
  }
}

TEST_CASE("the passing ladder clears every gate of both detectors and the same move at a larger scale clears the "
          "absolute floor",
          "[examples]") {
  const auto pass = ex::judge(ex::history_example("ladder-pass"));
  CHECK(ex::reported(pass));
  CHECK(pass.judgements[0].change_point.passed());
  CHECK(pass.judgements[0].drift.passed());
  CHECK(pass.judgements[0].change_point.find("interval_disjoint") != nullptr);
  CHECK(pass.judgements[0].drift.find("interval_noise_band") != nullptr);
  const auto large = ex::judge(ex::history_example("large-timing"));
  REQUIRE(ex::reported(large));
  CHECK(reported_candidate(large).relative_delta == Approx(0.2 / 3.0));
}

TEST_CASE("the family size decides whether a short perfect step can be reported alone", "[examples]") {
  const auto six = ex::judge(ex::history_example("perfect-10-step-family-6"));
  const auto seven = ex::judge(ex::history_example("perfect-10-step-family-7"));
  CHECK(six.result.family_size == 6);
  CHECK(seven.result.family_size == 7);
  CHECK(ex::reported(six));
  CHECK_FALSE(ex::reported(seven));
  REQUIRE(seven.judgements[0].candidate);
  CHECK(seven.judgements[0].candidate->chance_level == Approx(1.0 / 63));
  CHECK(ex::reported(ex::judge(ex::history_example("lone-step-20-family-2000"))));
  CHECK_FALSE(ex::reported(ex::judge(ex::history_example("lone-step-18-family-2000"))));
  CHECK_FALSE(ex::reported(ex::judge(ex::history_example("lone-step-22-family-2000"))));
}

TEST_CASE("branch examples: an excursion is reported only outside every observed current-base value",
          "[examples]") {
  const auto reported = ex::judge(ex::branch_example("branch-reported"));
  REQUIRE(reported.finding);
  CHECK(reported.finding->direction == Direction::regression);
  CHECK(reported.finding->reference_count == 20);
  CHECK(reported.finding->reference_min == Approx(95.90310687945343));
  CHECK(reported.finding->reference_max == Approx(103.51445693074746));
  CHECK(reported.finding->delta == Approx(26.485543069252543));

  const auto quiet = ex::judge(ex::branch_example("branch-quiet"));
  CHECK(quiet.judged());
  CHECK_FALSE(quiet.finding);
  CHECK(quiet.excursion.relation == Relation::inside);

  const auto moved = ex::judge(ex::branch_example("branch-base-moved"));
  REQUIRE(moved.finding);
  CHECK(moved.finding->direction == Direction::improvement);
  CHECK(moved.current_regime_start_index == 10u);
  CHECK(moved.finding->reference_count == 10);

  const auto contended = ex::judge(ex::branch_example("branch-contended"));
  CHECK(contended.judged());
  CHECK_FALSE(contended.finding);
  CHECK(contended.excursion.reference_max == 1581.042);
}
