// Every case of vectors/branch.json (docs/statistics.md#branch-excursion), loaded at run time and
// compared field by field with the README's tolerances.

#include <map>
#include <string>
#include <vector>

#include "benchhist/detect/branch.hpp"
#include "benchhist/model/engine.hpp"
#include "common/vectors.hpp"

namespace {

using namespace benchhist;
using namespace benchhist::detect;
using bhtest::json::array;
using bhtest::json::object;
using bhtest::json::value;
using bhtest::num;
using bhtest::str;

DiscriminantSet parse_set(const std::string& label) {
  const auto a = label.find('/');
  const auto b = label.find('/', a + 1);
  DiscriminantSet s;
  const auto engine = parse_engine(label.substr(0, a));
  REQUIRE(engine);
  s.engine = *engine;
  s.target_triple = label.substr(a + 1, b - a - 1);
  s.machine_key = label.substr(b + 1);
  return s;
}

std::optional<Interval> interval_of(const value& v) {
  if (v.is_null()) return std::nullopt;
  return Interval{num(v.as_array()[0]), num(v.as_array()[1])};
}

BranchSeriesInput input_of(const object& c) {
  BranchSeriesInput in;
  const std::vector<double> values = c.contains("base") ? bhtest::numbers(c.at("base")) : bhtest::expand_rle(c.at("base_rle"));
  for (std::size_t i = 0; i < values.size(); ++i) {
    BranchBaseLevel l;
    l.topo = c.contains("base_topo") ? static_cast<std::int64_t>(num(c.at("base_topo").as_array()[i]))
                                     : static_cast<std::int64_t>(i);
    l.commit = "c" + std::to_string(l.topo);
    l.value = values[i];
    if (c.contains("base_intervals")) l.interval = interval_of(c.at("base_intervals").as_array()[i]);
    in.base.push_back(std::move(l));
  }
  in.base_history_count =
      c.contains("base_history_count") ? static_cast<std::size_t>(num(c.at("base_history_count"))) : values.size();
  in.blessed = c.contains("blessed") && c.at("blessed").as_bool();
  if (!c.at("tip").is_null()) {
    BranchObservation tip{num(c.at("tip")), std::nullopt};
    if (c.contains("tip_interval")) tip.interval = interval_of(c.at("tip_interval"));
    in.tip = tip;
  }
  const auto kind = parse_metric_kind(str(c.at("metric")));
  REQUIRE(kind);
  in.kind = *kind;
  return in;
}

constexpr double tol = bhtest::tol_exact;

void check_optional_number(const value& expected, const std::optional<double>& actual, const char* what) {
  INFO(what);
  if (expected.is_null()) {
    CHECK_FALSE(actual.has_value());
  } else {
    REQUIRE(actual.has_value());
    BH_CHECK_CLOSE(*actual, num(expected), tol);
  }
}

// Field-by-field comparison of one series' expectation.
void check_series(const object& e, const BranchSeriesInput& in, const BranchJudgement& j) {
  CHECK(j.judged() == e.at("judged").as_bool());
  if (e.contains("unjudged_reason")) {
    REQUIRE(j.unjudged);
    CHECK(to_string(*j.unjudged) == str(e.at("unjudged_reason")));
  }
  const std::string verdict = !j.judged() ? "unjudged" : j.finding ? "reported" : "quiet";
  CHECK(verdict == str(e.at("verdict")));
  if (e.contains("selector_boundaries")) {
    std::vector<std::size_t> sb;
    for (const auto& v : e.at("selector_boundaries").as_array()) sb.push_back(static_cast<std::size_t>(num(v)));
    CHECK(j.regime.selector_boundaries == sb);
  }
  if (!j.judged()) return;

  const Excursion& x = j.excursion;
  CHECK(to_string(x.relation) == str(e.at("relation")));
  CHECK(x.reference_count == static_cast<std::size_t>(num(e.at("reference_count"))));
  BH_CHECK_CLOSE(x.reference_min, num(e.at("reference_min")), tol);
  BH_CHECK_CLOSE(x.reference_max, num(e.at("reference_max")), tol);
  check_optional_number(e.at("edge"), x.edge, "edge");
  check_optional_number(e.at("excess"), x.excess, "excess");
  check_optional_number(e.at("relative_excess"), x.relative_excess, "relative_excess");

  // The logged ladder, rung by rung.
  const array& gates = e.at("gates").as_array();
  REQUIRE(x.gates.gates().size() == gates.size());
  for (std::size_t g = 0; g < gates.size(); ++g) {
    const object& eg = gates[g].as_object();
    const Gate& ag = x.gates.gates()[g];
    INFO("gate " << g << " " << str(eg.at("gate")));
    CHECK(ag.name == str(eg.at("gate")));
    CHECK(ag.passed == eg.at("passed").as_bool());
    check_optional_number(eg.at("value"), ag.value, "gate value");
    check_optional_number(eg.at("threshold"), ag.threshold, "gate threshold");
  }
  if (e.at("declined_gate").is_null()) CHECK_FALSE(x.gates.first_declined().has_value());
  else CHECK(x.gates.first_declined() == std::optional<std::string>(str(e.at("declined_gate"))));

  if (e.contains("method")) {
    REQUIRE(j.finding);
    const BranchFinding& f = *j.finding;
    CHECK(str(e.at("method")) == branch_method_token);
    CHECK(to_string(f.direction) == str(e.at("direction")));
    BH_CHECK_CLOSE(f.baseline, num(e.at("baseline")), tol);
    BH_CHECK_CLOSE(f.latest, num(e.at("latest")), tol);
    BH_CHECK_CLOSE(f.delta, num(e.at("delta")), tol);
    BH_CHECK_CLOSE(f.relative_delta, num(e.at("relative_delta")), tol);
    CHECK(str(e.at("commit")) == "branch-tip");  // the caller names the context commit
    CHECK(f.reference_count == x.reference_count);
    CHECK(f.matches_previous_regime == e.at("matches_previous_regime").as_bool());
    CHECK(f.comparison_base_index == static_cast<std::int64_t>(num(e.at("comparison_base_index"))));
    CHECK(f.current_regime_start == j.current_regime_start_commit);  // no blessing in these cases
  } else {
    CHECK_FALSE(j.finding);
  }

  REQUIRE(j.current_regime_start_index);
  CHECK(*j.current_regime_start_index == static_cast<std::size_t>(num(e.at("current_regime_start_index"))));
  if (e.at("current_regime_start_commit").is_null()) CHECK_FALSE(j.current_regime_start_commit);
  else CHECK(j.current_regime_start_commit == std::optional<std::string>(str(e.at("current_regime_start_commit"))));
  if (e.at("previous_range").is_null()) {
    CHECK_FALSE(j.regime.previous_range);
  } else {
    REQUIRE(j.regime.previous_range);
    BH_CHECK_CLOSE(j.regime.previous_range->first, num(e.at("previous_range").as_array()[0]), tol);
    BH_CHECK_CLOSE(j.regime.previous_range->second, num(e.at("previous_range").as_array()[1]), tol);
  }
  CHECK(j.matches_previous_regime == e.at("matches_previous_regime").as_bool());
  CHECK(j.regime.ran == e.at("regime_selection_ran").as_bool());
  if (e.contains("search_alpha")) {
    REQUIRE(j.regime.search_alpha);
    BH_CHECK_CLOSE(*j.regime.search_alpha, num(e.at("search_alpha")), tol);
  } else {
    CHECK_FALSE(j.regime.search_alpha);
  }
  CHECK(j.stable_for_comparison == e.at("stable_for_comparison").as_bool());
  REQUIRE(j.comparison_base_index);
  CHECK(*j.comparison_base_index == static_cast<std::int64_t>(num(e.at("comparison_base_index"))));
  (void)in;
}

void check_comparison(const value& expected, const std::optional<HistoricalComparison>& c) {
  if (expected.is_null()) {
    CHECK_FALSE(c.has_value());
    return;
  }
  const object& e = expected.as_object();
  REQUIRE(c.has_value());
  CHECK(c->evaluated_base_commits() == static_cast<std::size_t>(num(e.at("evaluated_base_commits"))));
  CHECK(c->at_least_as_much == static_cast<std::size_t>(num(e.at("at_least_as_much"))));
  CHECK(c->series() == static_cast<std::size_t>(num(e.at("series"))));
  BH_CHECK_CLOSE(c->branch_score, num(e.at("branch_score")), tol);
  const std::vector<double> scores = bhtest::numbers(e.at("base_scores"));
  REQUIRE(c->base_scores.size() == scores.size());
  for (std::size_t i = 0; i < scores.size(); ++i) BH_CHECK_CLOSE(c->base_scores[i], scores[i], tol);
  CHECK(std::is_sorted(c->commits.begin(), c->commits.end()));
}

const array& branch_cases() {
  static const array cases = bhtest::load_vectors("branch.json");
  return cases;
}

}  // namespace

TEST_CASE("every single-series branch vector is judged exactly as the spec expects", "[branch][vectors]") {
  std::size_t seen = 0;
  for (const auto& cv : branch_cases()) {
    const object& c = cv.as_object();
    if (c.contains("batch")) continue;
    ++seen;
    SECTION(str(c.at("name"))) {
      const BranchSeriesInput in = input_of(c);
      const BranchJudgement j = judge_branch(in);
      check_series(c.at("expected").as_object(), in, j);
      // The single series forms (or fails to form) its set's historical-turn family alone.
      std::vector<BranchSeriesInput> ins{in};
      std::vector<BranchJudgement> js{j};
      std::vector<DiscriminantSet> sets{parse_set(str(c.at("set")))};
      const auto by_set = compare_historical_turns_by_set(ins, js, sets);
      REQUIRE(by_set.size() == 1);
      const value& ec = c.at("expected").at("comparison");
      check_comparison(ec, by_set[0].comparison);
      if (!ec.is_null()) CHECK(by_set[0].set.label() == str(ec.at("set")));
      if (js[0].finding) CHECK(js[0].finding->included_in_historical_comparison == !ec.is_null());
      check_comparison(ec, compare_historical_turns(ins, std::vector<BranchJudgement>{j}));
    }
  }
  CHECK(seen == 40);
}

TEST_CASE("every batch branch vector gives the per-series verdicts and per-set comparisons", "[branch][vectors]") {
  std::size_t seen = 0;
  for (const auto& cv : branch_cases()) {
    const object& c = cv.as_object();
    if (!c.contains("batch")) continue;
    ++seen;
    SECTION(str(c.at("name"))) {
      std::vector<BranchSeriesInput> ins;
      std::vector<DiscriminantSet> sets;
      for (const auto& m : c.at("batch").as_array()) {
        ins.push_back(input_of(m.as_object()));
        sets.push_back(parse_set(str(m.at("set"))));
      }
      auto js = judge_branch_batch(ins, 2);
      const object& e = c.at("expected").as_object();
      const array& per = e.at("per_series").as_array();
      REQUIRE(per.size() == js.size());
      for (std::size_t i = 0; i < js.size(); ++i) {
        INFO("member " << str(c.at("batch").as_array()[i].at("name")));
        check_series(per[i].as_object(), ins[i], js[i]);
      }
      const auto by_set = compare_historical_turns_by_set(ins, js, sets);
      const array& comps = e.at("comparisons").as_array();
      std::vector<const SetComparison*> formed;
      for (const auto& sc : by_set)
        if (sc.comparison) formed.push_back(&sc);
      REQUIRE(formed.size() == comps.size());
      for (std::size_t k = 0; k < comps.size(); ++k) {
        CHECK(formed[k]->set.label() == str(comps[k].at("set")));
        check_comparison(comps[k], formed[k]->comparison);
        for (std::size_t m : formed[k]->comparison->members)
          if (js[m].finding) CHECK(js[m].finding->included_in_historical_comparison);
      }
      // Findings outside every family (unstable series) stay listed but are not included.
      std::vector<bool> member(js.size(), false);
      for (const auto* sc : formed)
        for (std::size_t m : sc->comparison->members) member[m] = true;
      for (std::size_t i = 0; i < js.size(); ++i)
        if (js[i].finding) CHECK(js[i].finding->included_in_historical_comparison == member[i]);
    }
  }
  CHECK(seen == 4);
}

TEST_CASE("the branch census-precedence vectors come out of the judge in the same order", "[branch][census][vectors]") {
  const array cases = bhtest::load_vectors("census.json");
  std::size_t seen = 0;
  for (const auto& cv : cases) {
    const object& c = cv.as_object();
    if (str(c.at("mode")) != "census_precedence" || str(c.at("input").at("analysis_mode")) != "branch") continue;
    ++seen;
    SECTION(str(c.at("name"))) {
      const object& in = c.at("input").as_object();
      // A base of the stated length; an unresolved regime is a step in the last 4 of >= 20 levels.
      const auto n = static_cast<std::size_t>(num(in.at("base_levels")));
      const bool unresolved = in.contains("regime_unresolved") && in.at("regime_unresolved").as_bool();
      BranchSeriesInput s;
      for (std::size_t i = 0; i < n; ++i)
        s.base.push_back(BranchBaseLevel{static_cast<std::int64_t>(i), "c" + std::to_string(i),
                                         unresolved && i + 4 >= n ? 200.0 : 100.0, std::nullopt});
      s.base_history_count = n;
      s.kind = MetricKind::instruction_count;
      if (in.at("context_point").as_bool()) s.tip = BranchObservation{100.0, std::nullopt};
      const BranchJudgement j = judge_branch(s);
      CHECK(j.regime.unresolved == unresolved);
      REQUIRE(j.unjudged);
      CHECK(to_string(*j.unjudged) == str(c.at("expected").at("reason")));
    }
  }
  CHECK(seen == 2);
}
