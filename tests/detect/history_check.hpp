#pragma once
// Field-by-field comparison of one history judgement with a vector's `expected` object.

#include <string>

#include "benchhist/detect/history.hpp"
#include "common/vectors.hpp"

namespace bhtest {

inline benchhist::MetricKind metric_of(const json::object& c) {
  const auto k = benchhist::parse_metric_kind(str(c.at("metric")));
  REQUIRE(k.has_value());
  return *k;
}

inline bool erfc_gate(const std::string& name) { return name == "significance" || name == "selection_adjustment"; }

inline void check_ladder(const benchhist::detect::GateLadder& got, const json::value& want, const char* which) {
  INFO("ladder " << which);
  const auto& w = want.as_array();
  REQUIRE(got.gates().size() == w.size());
  for (std::size_t i = 0; i < w.size(); ++i) {
    const auto& g = got.gates()[i];
    const auto& e = w[i].as_object();
    INFO("gate #" << i << " " << str(e.at("gate")));
    CHECK(g.name == str(e.at("gate")));
    CHECK(g.passed == e.at("passed").as_bool());
    const double rel = erfc_gate(g.name) ? tol_erfc : tol_exact;
    if (e.at("value").is_null()) CHECK_FALSE(g.value.has_value());
    else {
      REQUIRE(g.value.has_value());
      BH_CHECK_CLOSE(*g.value, num(e.at("value")), rel);
    }
    if (e.at("threshold").is_null()) CHECK_FALSE(g.threshold.has_value());
    else {
      REQUIRE(g.threshold.has_value());
      BH_CHECK_CLOSE(*g.threshold, num(e.at("threshold")), rel);
    }
  }
}

inline void check_declined(const benchhist::detect::GateLadder& got, const json::value& want) {
  if (want.is_null()) CHECK_FALSE(got.first_declined().has_value());
  else {
    REQUIRE(got.first_declined().has_value());
    CHECK(*got.first_declined() == str(want));
  }
}

// `c` is an expected candidate object (history vectors).
inline void check_candidate(const benchhist::detect::Candidate& got, const json::object& c) {
  using namespace benchhist::detect;
  CHECK(std::string(to_string(got.method)) == str(c.at("method")));
  CHECK(std::string(to_string(got.direction)) == str(c.at("direction")));
  BH_CHECK_CLOSE(got.baseline, num(c.at("baseline")), tol_exact);
  BH_CHECK_CLOSE(got.latest, num(c.at("latest")), tol_exact);
  BH_CHECK_CLOSE(got.delta, num(c.at("delta")), tol_exact);
  BH_CHECK_CLOSE(got.relative_delta, num(c.at("relative_delta")), tol_exact);
  BH_CHECK_CLOSE(got.chance_level, num(c.at("chance_level")), tol_erfc);
  CHECK("commit" + std::to_string(got.point_index) == str(c.at("commit")));
  if (c.contains("commit_index")) CHECK(got.view_index == static_cast<std::size_t>(num(c.at("commit_index"))));
  if (c.contains("window_start")) {
    REQUIRE(got.window_start_index.has_value());
    CHECK("commit" + std::to_string(*got.window_start_index) == str(c.at("window_start")));
  } else {
    CHECK_FALSE(got.window_start_index.has_value());
  }
}

}  // namespace bhtest
