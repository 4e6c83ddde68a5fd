// Every case of vectors/branch_lag.json (docs/statistics.md#comparison-base-lag): the detector's
// gap and reason, the per-set order the reports use (ordered_lags) and the warning line the CLI
// prints (report::lag_warning).

#include "benchhist/detect/lag.hpp"
#include "benchhist/error.hpp"
#include "benchhist/model/engine.hpp"
#include "benchhist/model/verdict.hpp"
#include "benchhist/report/prose.hpp"
#include "common/vectors.hpp"

namespace {

using namespace benchhist;
using namespace benchhist::detect;
using bhtest::json::object;
using bhtest::num;
using bhtest::str;

DiscriminantSet set_of(const bhtest::json::value& v) {
  const auto& a = v.as_array();
  DiscriminantSet s;
  const auto engine = parse_engine(str(a[0]));
  REQUIRE(engine);
  s.engine = *engine;
  s.target_triple = str(a[1]);
  s.machine_key = str(a[2]);
  return s;
}

LagReason reason_of(const bhtest::json::value& v) {
  const auto r = parse_lag_reason(str(v));
  REQUIRE(r);
  return *r;
}

}  // namespace

TEST_CASE("every comparison-base lag vector gets its gap, reason and warning text", "[branch][lag][vectors]") {
  const auto cases = bhtest::load_vectors("branch_lag.json");
  std::size_t seen = 0;
  for (const auto& cv : cases) {
    const object& c = cv.as_object();
    const object& in = c.at("input").as_object();
    const object& e = c.at("expected").as_object();
    ++seen;
    SECTION(str(c.at("name"))) {
      if (str(c.at("mode")) == "comparison_base_lag") {
        std::vector<SiblingCleanPoint> points;
        for (const auto& p : in.at("sibling_clean_points").as_array())
          points.push_back(SiblingCleanPoint{set_of(p.at("set")), static_cast<std::int64_t>(num(p.at("topo"))),
                                             p.at("has_same_benchmark_and_metric").as_bool()});
        const DiscriminantSet finding_set = in.contains("finding_set") ? set_of(in.at("finding_set")) : DiscriminantSet{};
        const auto base_ref = static_cast<std::int64_t>(num(in.at("base_ref_index")));
        const auto comparison_base = static_cast<std::int64_t>(num(in.at("comparison_base_index")));

        // The evidence counts the same whether it was already loaded or fetched lazily.
        const auto loaded = comparison_base_lag(base_ref, comparison_base, finding_set, points);
        const auto fetched = comparison_base_lag(base_ref, comparison_base, finding_set, {},
                                                 [&] { return std::optional(points); });
        for (const auto& lag : {loaded, fetched}) {
          CHECK(lag.commits_behind == static_cast<std::int64_t>(num(e.at("commits_behind"))));
          if (e.at("reason").is_null()) {
            CHECK_FALSE(lag.reason);
            CHECK_FALSE(lag.lags());
          } else {
            REQUIRE(lag.reason);
            CHECK(*lag.reason == reason_of(e.at("reason")));
            if (e.contains("text")) CHECK(report::lag_warning(lag) == str(e.at("text")));
          }
        }
      } else {
        REQUIRE(str(c.at("mode")) == "comparison_base_lag_set");
        std::vector<ComparisonBaseLag> lags;
        for (const auto& l : in.at("lags").as_array())
          lags.push_back(ComparisonBaseLag{static_cast<std::int64_t>(num(l.as_array()[0])), reason_of(l.as_array()[1])});
        std::vector<ComparisonBaseLag> expected;
        for (const auto& l : e.at("lags").as_array())
          expected.push_back({static_cast<std::int64_t>(num(l.as_array()[0])), reason_of(l.as_array()[1])});
        CHECK(ordered_lags(lags) == expected);
      }
    }
  }
  CHECK(seen == 8);
}

TEST_CASE("a failed lazy sibling fetch degrades to no recent base data", "[branch][lag]") {
  const DiscriminantSet set{Engine::callgrind, "x86_64-unknown-linux-gnu", "m1"};
  const auto failed = comparison_base_lag(10, 9, set, {}, [] { return std::optional<std::vector<SiblingCleanPoint>>(); });
  CHECK(failed.reason == LagReason::no_recent_base_data);
  const auto threw = comparison_base_lag(10, 9, set, {}, []() -> std::optional<std::vector<SiblingCleanPoint>> {
    throw Error(ErrorKind::decode, "corrupt sibling run", "some/key");
  });
  CHECK(threw.reason == LagReason::no_recent_base_data);
}

TEST_CASE("the lazy sibling fetch is not called when the loaded evidence settles the reason", "[branch][lag]") {
  const DiscriminantSet set{Engine::callgrind, "x86_64-unknown-linux-gnu", "m1"};
  const std::vector<SiblingCleanPoint> loaded{{{Engine::callgrind, "x86_64-unknown-linux-gnu", "m2"}, 10, true}};
  bool called = false;
  const auto lag = comparison_base_lag(10, 9, set, loaded, [&] {
    called = true;
    return std::optional<std::vector<SiblingCleanPoint>>();
  });
  CHECK(lag.reason == LagReason::discriminant_set_mismatch);
  CHECK_FALSE(called);
  // Not lagging: nothing to explain, nothing fetched.
  const auto current = comparison_base_lag(10, 10, set, {}, [&] {
    called = true;
    return std::optional<std::vector<SiblingCleanPoint>>();
  });
  CHECK_FALSE(current.reason);
  CHECK_FALSE(called);
}
