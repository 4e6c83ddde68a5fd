// Every case of vectors/history_multiplicity.json
// (docs/detection.md#6-many-series-the-false-discovery-correction,
// docs/statistics.md#benjamini-hochberg, #ranking-and-determinism).
#include "benchhist/detect/history.hpp"

#include <limits>
#include <span>

#include "benchhist/error.hpp"
#include "history_check.hpp"
#include "revisions.hpp"

using namespace benchhist::detect;
using namespace bhtest;

namespace {

void check_single(const json::object& c, Behaviour behaviour) {
  const auto values = series_of(c);
  SeriesInput s;
  s.values = values;
  s.kind = metric_of(c);
  const auto m = static_cast<std::size_t>(num(c.at("family_size")));
  const auto& exp = c.at("expected").as_object();
  const HistoryJudgement j = HistoryJudge(m, departures_of(behaviour)).judge(s);
  CHECK(j.judged() == exp.at("judged").as_bool());
  if (exp.contains("tainted_p")) {
    REQUIRE(j.tainted_p.has_value());
    BH_CHECK_CLOSE(*j.tainted_p, num(exp.at("tainted_p")), tol_erfc);
    BH_CHECK_CLOSE(*j.adjusted_p, num(exp.at("adjusted_p")), tol_erfc);
  }
  if (exp.contains("declined_gate")) {
    check_declined(j.change_point, exp.at("declined_gate").at("change_point"));
    check_declined(j.drift, exp.at("declined_gate").at("drift"));
  }
  if (exp.contains("gates")) {
    check_ladder(j.change_point, exp.at("gates").at("change_point"), "change_point");
    check_ladder(j.drift, exp.at("gates").at("drift"), "drift");
  }
  if (exp.at("candidate").is_null()) CHECK_FALSE(j.candidate.has_value());
  else {
    REQUIRE(j.candidate.has_value());
    check_candidate(*j.candidate, exp.at("candidate").as_object());
  }
  std::vector<HistoryJudgement> family{j};
  const FamilyResult fr = select_history_findings(family, m);
  CHECK((fr.findings.empty() ? "quiet" : "reported") == str(exp.at("verdict")));
  if (exp.contains("dropped_by")) {
    REQUIRE(fr.dropped[0].has_value());
    CHECK((*fr.dropped[0] == DropReason::direction_filter ? "direction_filter" : "benjamini_hochberg") ==
          str(exp.at("dropped_by")));
  }
}

void check_batch(const json::object& c, Behaviour behaviour) {
  std::vector<std::vector<double>> values;
  std::vector<std::vector<std::optional<benchhist::Interval>>> intervals;
  std::vector<std::string> names;
  for (const auto& m : c.at("batch").as_array()) {
    values.push_back(series_of(m.as_object()));
    intervals.push_back(intervals_of(m.as_object()));
    names.push_back(str(m.at("name")));
  }
  std::vector<SeriesInput> inputs;
  const auto& batch = c.at("batch").as_array();
  for (std::size_t i = 0; i < batch.size(); ++i) {
    SeriesInput s;
    s.values = values[i];
    s.intervals = intervals[i];
    s.kind = metric_of(batch[i].as_object());
    inputs.push_back(s);
  }
  const auto& exp = c.at("expected").as_object();
  const std::size_t m = history_family_size(inputs);
  CHECK(m == static_cast<std::size_t>(num(exp.at("family_size"))));
  const auto judged = judge_history_batch(inputs, 2, std::nullopt, departures_of(behaviour));
  const auto& per = exp.at("per_series").as_array();
  REQUIRE(per.size() == judged.size());
  for (std::size_t i = 0; i < per.size(); ++i) {
    const auto& e = per[i].as_object();
    INFO("series " << names[i]);
    CHECK(str(e.at("name")) == names[i]);
    CHECK(judged[i].judged() == e.at("judged").as_bool());
    if (e.contains("unjudged_reason")) {
      REQUIRE(judged[i].unjudged.has_value());
      CHECK(std::string(to_string(*judged[i].unjudged)) == str(e.at("unjudged_reason")));
    }
    if (e.contains("candidate")) {
      if (e.at("candidate").is_null()) CHECK_FALSE(judged[i].candidate.has_value());
      else {
        REQUIRE(judged[i].candidate.has_value());
        check_candidate(*judged[i].candidate, e.at("candidate").as_object());
      }
    }
  }
  const FamilyResult fr = select_history_findings(judged, m);
  const auto& ranked = exp.at("findings_ranked").as_array();
  REQUIRE(fr.findings.size() == ranked.size());
  for (std::size_t i = 0; i < ranked.size(); ++i) {
    INFO("rank " << i + 1);
    CHECK(names[fr.findings[i].series] == str(ranked[i].at("name")));
    check_candidate(fr.findings[i].candidate, ranked[i].as_object());
  }
}

void check_bh(const json::object& c) {
  const auto p = numbers(c.at("p_values"));
  const double q = num(c.at("q"));
  const auto m = static_cast<std::size_t>(num(c.at("family_size")));
  const auto& exp = c.at("expected").as_object();
  const auto keep = benjamini_hochberg(p, m, q);
  const auto& want = exp.at("keep").as_array();
  REQUIRE(keep.size() == want.size());
  for (std::size_t i = 0; i < keep.size(); ++i) {
    INFO("p[" << i << "] = " << p[i]);
    CHECK(keep[i] == want[i].as_bool());
  }
  const auto thresholds = numbers(exp.at("rank_thresholds"));
  for (std::size_t k = 0; k < thresholds.size(); ++k) CHECK(bh_rank_threshold(k + 1, m, q) == thresholds[k]);
}

}  // namespace

TEST_CASE("every history_multiplicity vector: families, BH staircase and ranking", "[detect][vectors]") {
  for (const Behaviour b : {Behaviour::product, Behaviour::reference}) {
    const auto cases = vectors_for("history_multiplicity.json", b);
    REQUIRE(cases.size() == 24);
    for (const auto& v : cases) {
      const auto& c = v.as_object();
      DYNAMIC_SECTION(to_string(b) << " " << str(c.at("name"))) {
        if (str(c.at("mode")) == "benjamini_hochberg") check_bh(c);
        else if (c.contains("batch")) check_batch(c, b);
        else check_single(c, b);
      }
    }
  }
}

TEST_CASE("benjamini_hochberg refuses arguments that would keep or drop silently", "[detect][multiplicity]") {
  const std::vector<double> p{0.001, 0.2};
  const auto refusal = [](std::span<const double> levels, std::size_t m, double q) {
    try {
      (void)benjamini_hochberg(levels, m, q);
    } catch (const benchhist::Error& e) {
      CHECK(e.kind() == benchhist::ErrorKind::usage);
      return e.message();
    }
    return std::string("accepted");
  };
  CHECK(refusal(p, 10, 5.0) == "false-discovery rate q must lie in (0, 1]");
  CHECK(refusal(p, 10, std::numeric_limits<double>::quiet_NaN()) == "false-discovery rate q must lie in (0, 1]");
  CHECK(refusal(p, 10, 0.0) == "false-discovery rate q must lie in (0, 1]");
  const std::vector<double> nan{0.001, std::numeric_limits<double>::quiet_NaN()};
  CHECK(refusal(nan, 10, 0.05) == "chance level 1 is not a number");
  CHECK(refusal(p, 1, 0.05) == "false-discovery family of 1 is smaller than its 2 candidates");
  CHECK(benjamini_hochberg(p, 10, 0.05) == std::vector<bool>{true, false});
  CHECK(benjamini_hochberg({}, 0, 0.05).empty());
}
