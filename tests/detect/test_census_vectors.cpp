// Every case of vectors/census.json (docs/statistics.md#census): counts, tokens and reason
// precedence.
#include "benchhist/detect/census.hpp"
#include "common/vectors.hpp"

using namespace benchhist;
using namespace benchhist::detect;
using namespace bhtest;

namespace {

void check_census(const json::object& c) {
  const auto& in = c.at("input").as_object();
  Census got;
  got.judged = static_cast<std::uint64_t>(num(in.at("judged")));
  const auto findings = static_cast<std::size_t>(num(in.at("findings")));
  for (const auto& [token, n] : in.at("unjudged").as_object()) {
    const auto r = parse_unjudged_reason(std::string(token));
    REQUIRE(r.has_value());
    got.set(*r, static_cast<std::uint64_t>(num(n)));
  }
  const auto& exp = c.at("expected").as_object();
  CHECK(got.total() == static_cast<std::uint64_t>(num(exp.at("total"))));
  CHECK(got.in_scope() == static_cast<std::uint64_t>(num(exp.at("in_scope"))));
  CHECK(got.judged == static_cast<std::uint64_t>(num(exp.at("judged"))));
  CHECK(got.unjudged() == static_cast<std::uint64_t>(num(exp.at("unjudged"))));
  CHECK(std::string(to_string(got.coverage())) == str(exp.at("coverage")));
  CHECK(std::string(to_string(got.outcome(findings))) == str(exp.at("outcome")));
  CHECK(parse_coverage(str(exp.at("coverage"))) == got.coverage());
  CHECK(parse_outcome(str(exp.at("outcome"))) == got.outcome(findings));
  CHECK((got.outcome(findings) == Outcome::findings) == exp.at("notable").as_bool());
  const auto& reasons = exp.at("reasons").as_array();
  const auto listed = got.reasons();
  REQUIRE(listed.size() == reasons.size());
  for (std::size_t i = 0; i < reasons.size(); ++i) {
    CHECK(std::string(to_string(listed[i].first)) == str(reasons[i].at("reason")));
    CHECK(listed[i].second == static_cast<std::uint64_t>(num(reasons[i].at("count"))));
  }
}

void check_precedence(const json::object& c) {
  const auto& in = c.at("input").as_object();
  ReasonInputs r;
  const auto mode = parse_analysis_mode(str(in.at("analysis_mode")));
  REQUIRE(mode);
  r.mode = *mode;
  r.present_at_context = in.at("present_at_context").as_bool();
  if (in.contains("matches_ignore_prefix")) r.matches_ignore_prefix = in.at("matches_ignore_prefix").as_bool();
  if (in.contains("active_points")) r.active_points = static_cast<std::size_t>(num(in.at("active_points")));
  if (in.contains("blessed_active_start"))
    r.active_start = static_cast<std::size_t>(num(in.at("blessed_active_start")));
  if (in.contains("context_point")) r.context_point = in.at("context_point").as_bool();
  if (in.contains("base_levels")) {
    r.base_levels = static_cast<std::size_t>(num(in.at("base_levels")));
    r.base_levels_before_blessing = r.base_levels;
  }
  if (in.contains("regime_unresolved")) r.regime_unresolved = in.at("regime_unresolved").as_bool();
  const auto got = unjudged_reason(r);
  const auto& exp = c.at("expected").as_object();
  if (exp.at("reason").is_null()) {
    CHECK_FALSE(got.has_value());
  } else {
    REQUIRE(got.has_value());
    CHECK(std::string(to_string(*got)) == str(exp.at("reason")));
  }
}

}  // namespace

TEST_CASE("every census vector yields its counts, coverage, outcome and reason", "[detect][vectors]") {
  const auto cases = load_vectors("census.json");
  REQUIRE(cases.size() == 21);
  for (const auto& v : cases) {
    const auto& c = v.as_object();
    DYNAMIC_SECTION(str(c.at("name"))) {
      if (str(c.at("mode")) == "census") check_census(c);
      else check_precedence(c);
    }
  }
}

TEST_CASE("branch shortfall caused by a blessing drain is named as such", "[detect]") {
  ReasonInputs r;
  r.mode = AnalysisMode::branch;
  r.base_levels = 4;
  r.base_levels_before_blessing = 12;
  r.blessed = true;
  CHECK(unjudged_reason(r) == UnjudgedReason::too_few_base_commits_since_blessing);
  r.base_levels_before_blessing = 8;
  CHECK(unjudged_reason(r) == UnjudgedReason::too_few_base_commits);
}
