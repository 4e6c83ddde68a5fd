// Every case of vectors/history_change_point.json and history_drift.json
// (docs/pipeline.md#reconstruction, docs/statistics.md): verdicts, candidates, full gate ladders
// and the selection adjustment.
#include "benchhist/detect/history.hpp"
#include "history_check.hpp"
#include "revisions.hpp"

using namespace benchhist::detect;
using namespace bhtest;

namespace {

void check_history_case(const json::object& c, Behaviour behaviour) {
  const auto values = series_of(c);
  const auto intervals = intervals_of(c);
  SeriesInput s;
  s.values = values;
  s.intervals = intervals;
  s.kind = metric_of(c);
  s.active_start = c.contains("active_start") ? static_cast<std::size_t>(num(c.at("active_start"))) : 0;
  const std::size_t m = c.contains("family_size") ? static_cast<std::size_t>(num(c.at("family_size"))) : 1;
  const auto& exp = c.at("expected").as_object();

  const HistoryJudge judge(m, departures_of(behaviour));
  const HistoryJudgement j = judge.judge(s);
  CHECK(j.judged() == exp.at("judged").as_bool());
  if (!exp.at("judged").as_bool()) {
    REQUIRE(j.unjudged.has_value());
    CHECK(std::string(to_string(*j.unjudged)) == str(exp.at("unjudged_reason")));
    CHECK(str(exp.at("verdict")) == "unjudged");
    return;
  }
  check_declined(j.change_point, exp.at("declined_gate").at("change_point"));
  check_declined(j.drift, exp.at("declined_gate").at("drift"));
  check_ladder(j.change_point, exp.at("gates").at("change_point"), "change_point");
  check_ladder(j.drift, exp.at("gates").at("drift"), "drift");
  if (exp.contains("tainted_p")) {
    REQUIRE(j.tainted_p.has_value());
    REQUIRE(j.adjusted_p.has_value());
    BH_CHECK_CLOSE(*j.tainted_p, num(exp.at("tainted_p")), tol_erfc);
    BH_CHECK_CLOSE(*j.adjusted_p, num(exp.at("adjusted_p")), tol_erfc);
  } else {
    CHECK_FALSE(j.tainted_p.has_value());
  }
  if (exp.at("candidate").is_null()) {
    CHECK_FALSE(j.candidate.has_value());
  } else {
    REQUIRE(j.candidate.has_value());
    check_candidate(*j.candidate, exp.at("candidate").as_object());
  }
  // Verdict through the family level: this series plus m - 1 silent judged companions.
  std::vector<HistoryJudgement> family{j};
  const FamilyResult fr = select_history_findings(family, m);
  const std::string verdict = str(exp.at("verdict"));
  CHECK((fr.findings.empty() ? "quiet" : "reported") == verdict);
  if (exp.contains("dropped_by")) {
    REQUIRE(fr.dropped[0].has_value());
    CHECK((*fr.dropped[0] == DropReason::direction_filter ? "direction_filter" : "benjamini_hochberg") ==
          str(exp.at("dropped_by")));
  } else {
    CHECK_FALSE(fr.dropped[0].has_value());
  }
}

void check_history_file(const std::string& file, std::size_t count) {
  for (const Behaviour b : {Behaviour::product, Behaviour::reference}) {
    const auto cases = vectors_for(file, b);
    REQUIRE(cases.size() == count);
    for (const auto& v : cases) {
      const auto& c = v.as_object();
      DYNAMIC_SECTION(to_string(b) << " " << str(c.at("name"))) { check_history_case(c, b); }
    }
  }
}

}  // namespace

// The product against the vectors with the S1/S2 revisions applied; the reference behaviour
// against the vectors as recorded.
TEST_CASE("every history_change_point vector yields its verdict, candidate and ladders", "[detect][vectors]") {
  check_history_file("history_change_point.json", 53);
}

TEST_CASE("every history_drift vector yields its verdict, candidate and ladders", "[detect][vectors]") {
  check_history_file("history_drift.json", 10);
}
