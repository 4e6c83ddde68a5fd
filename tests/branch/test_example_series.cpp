// The example catalogue (detect/example_series.hpp) that docs/detection.md's figures and tables
// are rendered from: these are the verdicts the documentation shows. Every entry of the catalogue,
// history and branch, has one row in the verdict tables below, and a test fails for an entry
// without a row: a new example cannot reach the documentation unasserted. A change of verdict
// means the documentation changes too (`docs-figures`, checked by the docs_figures_check test).
#include <catch2/catch.hpp>

#include <optional>
#include <set>

#include "benchhist/detect/example_series.hpp"
#include "benchhist/error.hpp"

using namespace benchhist;
using namespace benchhist::detect;
namespace ex = benchhist::detect::examples;

namespace {

std::string declined(const GateLadder& l) { return l.first_declined().value_or("none"); }

// ---- History: one row per catalogue entry ------------------------------------------------

// The candidate left after both ladders and arbitration (reported, or dropped by the family's
// false-discovery correction).
struct Kept {
  FindingMethod method;
  std::size_t point_index;       // change point: first commit of the new level; drift: newest point
  double relative_delta;
  std::optional<double> chance;  // asserted where the documentation's tables print it
};

struct HistoryVerdict {
  const char* name;
  bool reported;
  std::optional<Kept> kept;          // nullopt: no candidate survived the ladders
  const char* change_point_declined;  // the first declined gate of each ladder, or "none"
  const char* drift_declined;
};

const std::vector<HistoryVerdict>& history_verdicts() {
  using M = FindingMethod;
  static const std::vector<HistoryVerdict> v{
      {"clean-step", true, Kept{M::change_point, 10, 0.29574488381430086, std::nullopt}, "none", "slope_within_levels"},
      // The wander guard's known cost (docs/divergences.md#s4--wander-is-not-a-step): the staircase's
      // misfit and its differences both look correlated, the step misses its raised demand, the line
      // is kept.
      {"multi-step", true, Kept{M::drift, 29, 0.74571661886506158, std::nullopt}, "residual_noise", "none"},
      {"slow-ramp", true, Kept{M::drift, 29, 0.10395864254986495, std::nullopt}, "residual_noise", "none"},
      // The search never puts fewer than five points on a side: the blip is inside the after-side
      // and moves no median.
      {"single-blip", false, std::nullopt, "non_zero_delta", "significance"},
      {"flat-noisy", false, std::nullopt, "residual_noise", "significance"},
      {"returned-excursion", false, std::nullopt, "residual_noise", "significance"},
      {"oscillation", false, std::nullopt, "regime_separation", "significance"},
      {"ladder-pass", true, Kept{M::change_point, 10, 0.29574488381430086, 0.0023815194093831865}, "none", "slope_within_levels"},
      {"ladder-declined", false, std::nullopt, "residual_noise", "significance"},
      {"small-timing", false, std::nullopt, "absolute_floor", "absolute_floor"},
      {"large-timing", true, Kept{M::change_point, 10, 0.2 / 3.0, std::nullopt}, "none", "slope_within_levels"},
      // A regression that just landed: one point on the new level, then five (docs/detection.md).
      {"fresh-step-landing", false, std::nullopt, "relative_floor", "significance"},
      {"fresh-step-five-later", true, Kept{M::change_point, 40, 0.3004030398900247, 0.0011786285183902879}, "none",
       "significance"},
      // detection-tip.md W5's real series: the excursion came back, current_level declines it.
      {"loaded-excursion", false, std::nullopt, "current_level", "residual_noise"},
      {"perfect-10-step-family-6", true, Kept{M::change_point, 5, 0.3, 1.0 / 63}, "none", "slope_within_levels"},
      {"perfect-10-step-family-7", false, Kept{M::change_point, 5, 0.3, 1.0 / 63}, "none", "slope_within_levels"},
      {"lone-step-18-family-2000", false, Kept{M::change_point, 9, 0.3, 9.1411856117738465e-05}, "none", "slope_within_levels"},
      {"lone-step-20-family-2000", true, Kept{M::change_point, 10, 0.3, 2.4055751609931177e-05}, "none", "slope_within_levels"},
      {"lone-step-22-family-2000", false, Kept{M::change_point, 11, 0.3, 0.00073713696004717685}, "none", "slope_within_levels"},
  };
  return v;
}

// ---- Branch: one row per catalogue entry -------------------------------------------------

struct Excess {
  Direction direction;
  double delta;           // beyond the nearest edge, signed
  double relative_delta;  // over that edge
};

struct BranchVerdict {
  const char* name;
  std::optional<Excess> reported;  // nullopt: nothing reported
  Relation relation;
  std::size_t reference_count;     // current-regime base observations
  double reference_min;
  double reference_max;
  std::size_t regime_start;        // window position of the current regime's first observation
  const char* declined;            // first declined gate of the excursion ladder, or "none"
};

const std::vector<BranchVerdict>& branch_verdicts() {
  static const std::vector<BranchVerdict> v{
      {"branch-reported", Excess{Direction::regression, 26.485543069252529, 0.25586322775157583}, Relation::above, 20,
       95.903106879453432, 103.51445693074747, 0, "none"},
      {"branch-quiet", std::nullopt, Relation::inside, 20, 95.903106879453432, 103.51445693074747, 0, "non_zero_delta"},
      {"branch-base-moved", Excess{Direction::improvement, -24.645638436929744, -0.19772563842577093}, Relation::below,
       10, 124.64563843692974, 135.20230880977945, 10, "none"},
      // The disturbed reading stays in the range: the tip at +10 % is inside it.
      {"branch-contended", std::nullopt, Relation::inside, 19, 1034.325, 1581.042, 0, "non_zero_delta"},
  };
  return v;
}

template <class Row>
const Row* row_for(const std::vector<Row>& rows, const std::string& name) {
  for (const auto& r : rows)
    if (name == r.name) return &r;
  return nullptr;
}

const Candidate& reported_candidate(const HistoryFamily& f) {
  for (const auto& x : f.result.findings)
    if (x.series == 0) return x.candidate;
  FAIL("the example is not reported");
  throw;  // unreachable
}

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

TEST_CASE("every history example of the catalogue gets exactly the verdict the documentation shows", "[examples]") {
  // Every row names an entry (history_example throws otherwise) …
  for (const auto& row : history_verdicts()) CHECK_NOTHROW(ex::history_example(row.name));
  // … and every entry has a row.
  for (const auto& e : ex::history_examples()) {
    INFO(e.name);
    const auto* row = row_for(history_verdicts(), e.name);
    if (!row) FAIL("no expected verdict for history example \"" << e.name << "\": add a row to history_verdicts()");
    const auto f = ex::judge(e);
    const auto& j = f.judgements[0];
    CHECK(j.judged());
    CHECK(f.result.family_size == e.family_size);
    CHECK(ex::reported(f) == row->reported);
    CHECK(ex::reported(ex::judge(e, 2)) == row->reported);  // docs-figures judges on two workers
    CHECK(declined(j.change_point) == row->change_point_declined);
    CHECK(declined(j.drift) == row->drift_declined);
    REQUIRE(j.candidate.has_value() == row->kept.has_value());
    if (!row->kept) continue;
    const auto& c = *j.candidate;
    CHECK(c.method == row->kept->method);
    CHECK(c.direction == Direction::regression);
    CHECK(c.point_index == row->kept->point_index);
    CHECK(c.relative_delta == Approx(row->kept->relative_delta).epsilon(1e-12));
    if (row->kept->chance) CHECK(c.chance_level == Approx(*row->kept->chance).epsilon(1e-9));
    if (c.method == FindingMethod::drift) CHECK(c.window_start_index == 0u);
    if (row->reported) {
      CHECK(reported_candidate(f).point_index == c.point_index);
    } else {
      // A candidate that is not reported was dropped by the false-discovery correction.
      REQUIRE(f.result.dropped[0].has_value());
      CHECK(*f.result.dropped[0] == DropReason::benjamini_hochberg);
    }
  }
}

TEST_CASE("every branch example of the catalogue gets exactly the verdict the documentation shows", "[examples]") {
  for (const auto& row : branch_verdicts()) CHECK_NOTHROW(ex::branch_example(row.name));
  for (const auto& e : ex::branch_examples()) {
    INFO(e.name);
    const auto* row = row_for(branch_verdicts(), e.name);
    if (!row) FAIL("no expected verdict for branch example \"" << e.name << "\": add a row to branch_verdicts()");
    const auto j = ex::judge(e);
    REQUIRE(j.judged());
    const auto& x = j.excursion;
    CHECK(x.relation == row->relation);
    CHECK(x.reference_count == row->reference_count);
    CHECK(x.reference_min == Approx(row->reference_min).epsilon(1e-12));
    CHECK(x.reference_max == Approx(row->reference_max).epsilon(1e-12));
    REQUIRE(j.current_regime_start_index);
    CHECK(*j.current_regime_start_index == row->regime_start);
    CHECK(declined(x.gates) == row->declined);
    CHECK(x.passed == row->reported.has_value());
    REQUIRE(j.finding.has_value() == row->reported.has_value());
    if (!row->reported) {
      // Inside the range there is no edge and no excess to report.
      CHECK_FALSE(x.edge);
      continue;
    }
    const auto& f = *j.finding;
    CHECK(f.direction == row->reported->direction);
    CHECK(f.latest == e.tip);
    CHECK(f.delta == Approx(row->reported->delta).epsilon(1e-12));
    CHECK(f.relative_delta == Approx(row->reported->relative_delta).epsilon(1e-12));
    CHECK(f.reference_count == row->reference_count);
    // The excess is measured from the nearest edge of the observed range.
    CHECK(f.baseline == (f.direction == Direction::regression ? x.reference_max : x.reference_min));
    CHECK(f.latest - f.baseline == Approx(f.delta));
  }
}

TEST_CASE("a step and a line both fit a clean or a double step and the step, which fits better, is kept",
          "[examples]") {
  // Arbitration proper, so without the shape guard (docs/divergences.md#s6--a-drift-is-a-slope-not-a-step),
  // which declines the clean step's line before any comparison. The double step also without the
  // wander guard: with it, its step misses the raised noise demand
  // (docs/divergences.md#s4--wander-is-not-a-step) and there is nothing to compare.
  const detail::Departures shapeless{.drift_shape = false};
  const detail::Departures unguarded{.wander_guard = false, .drift_shape = false};
  for (const char* name : {"clean-step", "multi-step"}) {
    INFO(name);
    const auto& e = ex::history_example(name);
    const detail::Departures rules = std::string(name) == "multi-step" ? unguarded : shapeless;
    const auto cp = change_point_cheap_gates(e.values, {}, e.kind, rules);
    const auto dr = drift_detector(e.values, {}, e.kind, rules, cp.level_start);
    REQUIRE(cp.candidate);
    REQUIRE(dr.candidate);
    REQUIRE(cp.step_residual);
    REQUIRE(dr.line_residual);
    CHECK(*cp.step_residual < *dr.line_residual);
    std::vector<SeriesInput> in{SeriesInput{e.values, {}, e.kind, 0}};
    CHECK(judge_history_family(in, 1, {}, rules).judgements[0].candidate->method == FindingMethod::change_point);
  }
  // With every departure the clean step's line is no trend: flat within its two levels.
  const auto& clean = ex::history_example("clean-step");
  const auto shaped =
      drift_detector(clean.values, {}, clean.kind, {}, change_point_cheap_gates(clean.values, {}, clean.kind).level_start);
  CHECK_FALSE(shaped.candidate);
  CHECK(shaped.ladder.first_declined() == std::optional<std::string>("slope_within_levels"));
  CHECK_FALSE(change_point_cheap_gates(ex::history_example("multi-step").values, {}, MetricKind::wall_time).candidate);
  // The ramp's step is declined by a gate before any comparison: the line is kept alone.
  const auto& ramp = ex::history_example("slow-ramp");
  CHECK_FALSE(change_point_cheap_gates(ramp.values, {}, ramp.kind).candidate);
  CHECK(drift_detector(ramp.values, {}, ramp.kind).candidate);
}

TEST_CASE("the passing ladder clears every change-point gate, the interval gate included, and its line is no trend",
          "[examples]") {
  const auto& e = ex::history_example("ladder-pass");
  const auto pass = ex::judge(e);
  CHECK(pass.judgements[0].change_point.passed());
  CHECK(pass.judgements[0].change_point.find("interval_disjoint") != nullptr);
  // The line clears every drift gate up to the shape guard, which sees a step: flat within its levels.
  CHECK(pass.judgements[0].drift.first_declined() == std::optional<std::string>("slope_within_levels"));
  // Without the guard the line clears the rest, the interval gate included.
  const detail::Departures shapeless{.drift_shape = false};
  const auto line =
      drift_detector(e.values, e.intervals, e.kind, shapeless, change_point_cheap_gates(e.values, e.intervals, e.kind).level_start);
  CHECK(line.ladder.passed());
  CHECK(line.ladder.find("interval_noise_band") != nullptr);
  // Without intervals the same series has no interval rows at all.
  const auto plain = ex::judge(ex::history_example("clean-step"));
  CHECK(plain.judgements[0].change_point.find("interval_disjoint") == nullptr);
}

TEST_CASE("the branch examples reach the judge as analyze hands them over: base commits in order, then the tip",
          "[examples]") {
  for (const auto& e : ex::branch_examples()) {
    INFO(e.name);
    const auto in = ex::branch_input(e);
    REQUIRE(in.base.size() == e.base.size());
    CHECK(in.base_history_count == e.base.size());
    for (std::size_t i = 0; i < in.base.size(); ++i) {
      CHECK(in.base[i].topo == static_cast<std::int64_t>(i));
      CHECK(in.base[i].commit == "c" + std::to_string(i));
      CHECK(in.base[i].value == e.base[i]);
    }
    REQUIRE(in.tip);
    CHECK(in.tip->value == e.tip);
  }
}
