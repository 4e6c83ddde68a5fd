#include <catch2/catch.hpp>

#include <boost/json.hpp>
#include <algorithm>
#include <fstream>
#include <sstream>

#include "benchhist/report/json_reporter.hpp"
#include "benchhist/report/outcome_reporter.hpp"
#include "common/vectors.hpp"
#include "report_fixtures.hpp"

using namespace report_test;

TEST_CASE("the JSON census, outcome and notable flag match every census count vector", "[census][json]") {
  const auto cases = bhtest::load_vectors("census.json");
  std::size_t checked = 0;
  for (const auto& cv : cases) {
    const auto& c = cv.as_object();
    const auto& input = c.at("input").as_object();
    if (!input.contains("unjudged")) continue;  // precedence cases belong to the pipeline
    INFO(c.at("name").as_string().c_str());
    AnalysisReport r = history_base();
    if (c.at("analysis_mode").as_string() == "branch") r.mode = AnalysisMode::branch;
    r.census.judged = static_cast<std::uint64_t>(input.at("judged").as_int64());
    for (const auto& kv : input.at("unjudged").as_object()) {
      auto reason = parse_unjudged_reason(std::string(kv.key()));
      REQUIRE(reason);
      r.census.set(*reason, static_cast<std::uint64_t>(kv.value().as_int64()));
    }
    for (std::int64_t i = 0; i < input.at("findings").as_int64(); ++i) {
      Finding f;
      f.set = criterion_set();
      f.benchmark = BenchmarkId({"b" + std::to_string(i)});
      r.findings.push_back(f);
    }
    // A finding's set is listed (AnalysisReport::check).
    if (!r.findings.empty() && std::none_of(r.sets.begin(), r.sets.end(),
                                            [](const SetReport& s) { return s.set == criterion_set(); })) {
      SetReport set;
      set.set = criterion_set();
      r.sets.push_back(set);
    }
    const auto doc = boost::json::parse(JsonReporter().render(r)).as_object();
    const auto& expected = c.at("expected").as_object();
    const auto& census = doc.at("census").as_object();
    for (const char* k : {"total", "in_scope", "judged", "unjudged", "coverage", "reasons"})
      CHECK(census.at(k) == expected.at(k));
    CHECK(doc.at("outcome") == expected.at("outcome"));
    CHECK(doc.at("notable") == expected.at("notable"));
    CHECK(doc.at("series").as_int64() == expected.at("in_scope").as_int64());
    CHECK(OutcomeReporter().render(r) == std::string(expected.at("outcome").as_string()) + "\n");
    ++checked;
  }
  CHECK(checked >= 14);
}

TEST_CASE("reason tokens and phrases keep the fixed reporting order", "[census]") {
  CHECK(to_string(all_unjudged_reasons.front()) == "ghost");
  CHECK(to_string(all_unjudged_reasons[1]) == "ignored");
  CHECK(to_string(all_unjudged_reasons.back()) == "current_base_regime_unresolved");
  CHECK(reason_phrase(UnjudgedReason::too_few_base_commits_since_blessing) ==
        "with too few base-ref commits remaining since being blessed");
  for (auto r : all_unjudged_reasons) CHECK(parse_unjudged_reason(to_string(r)) == r);
  CHECK_FALSE(parse_unjudged_reason("Ghost"));
}

TEST_CASE("comparison-base lags are deduplicated and ordered by distance then mismatch first", "[census]") {
  const std::vector<ComparisonBaseLag> computed{{1, LagReason::no_recent_base_data},
                                                {3, LagReason::no_recent_base_data},
                                                {3, LagReason::discriminant_set_mismatch},
                                                {1, LagReason::no_recent_base_data},
                                                {7, LagReason::no_recent_base_data},
                                                {0, std::nullopt}};
  auto lags = ordered_lags(computed);
  REQUIRE(lags.size() == 4);
  CHECK(lags[0] == ComparisonBaseLag{7, LagReason::no_recent_base_data});
  CHECK(lags[1] == ComparisonBaseLag{3, LagReason::discriminant_set_mismatch});
  CHECK(lags[2] == ComparisonBaseLag{3, LagReason::no_recent_base_data});
  CHECK(lags[3] == ComparisonBaseLag{1, LagReason::no_recent_base_data});
}

namespace {

AnalysisReport spec_branch_report() {
  auto r = branch_report();
  r.findings.resize(1);
  r.sets[0].series = 12;
  r.sets[0].lags = {{3, LagReason::discriminant_set_mismatch}};
  return r;
}

}  // namespace

TEST_CASE("the JSON report matches formats.md's seed example by value", "[json]") {
  const auto expected = boost::json::parse(benchhist::testing::example("formats/report-history-seed.json"));
  const auto actual = boost::json::parse(JsonReporter().render(seed_findings_report()));
  CHECK(actual == expected);
}

TEST_CASE("branch findings and sets match formats.md's hand-written examples by value", "[json][branch]") {
  const auto finding = boost::json::parse(benchhist::testing::example("formats/report-branch-finding.json"));
  const auto set = boost::json::parse(benchhist::testing::example("formats/report-branch-set.json"));
  const auto doc = boost::json::parse(JsonReporter().render(spec_branch_report())).as_object();
  CHECK(doc.at("findings").as_array().at(0) == finding);
  CHECK(doc.at("sets").as_array().at(0) == set);
}
