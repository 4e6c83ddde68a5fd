#include <catch2/catch.hpp>

#include "benchhist/error.hpp"
#include "benchhist/model/blessing.hpp"
#include "benchhist/model/metric.hpp"
#include "benchhist/model/timestamp.hpp"

using namespace benchhist;

TEST_CASE("a benchmark identity matches prefixes as raw strings", "[model]") {
  BenchmarkId id({"foo", "bar"});
  CHECK(id.qualified() == "foo/bar");
  CHECK(id.matches_prefix("foo/bar"));
  CHECK(id.matches_prefix("foo/ba"));
  CHECK_FALSE(id.matches_prefix("foo/bar/"));
  CHECK(BenchmarkId({"foo", "barbaz"}).matches_prefix("foo/bar"));
}

TEST_CASE("metric tokens round trip and are case-sensitive", "[model]") {
  for (auto k : all_metric_kinds) CHECK(parse_metric_kind(to_string(k)) == k);
  CHECK_FALSE(parse_metric_kind("Wall_Time"));
  CHECK(unit_of(MetricKind::peak_outstanding_bytes) == "bytes");
  CHECK(parse_engine("CallGrind") == Engine::callgrind);
  CHECK_FALSE(parse_engine("iai"));
}

TEST_CASE("blessing scopes follow the matches/intersects/contains rules", "[model]") {
  DiscriminantSet set{Engine::criterion, "x86_64-unknown-linux-gnu", "a1b2"};
  BlessingScope any{};
  BlessingScope one{{"CRITERION"}, {}, {"a1b2", "ffff"}};
  CHECK(any.matches(set));
  CHECK(one.matches(set));
  CHECK_FALSE(BlessingScope{{"callgrind"}, {}, {}}.matches(set));
  CHECK(one.label() == "CRITERION/all/a1b2|ffff");
  CHECK(contains(any, one));
  CHECK_FALSE(contains(one, any));
  CHECK(contains(one, BlessingScope{{"criterion"}, {"t"}, {"ffff"}}));
  CHECK(intersects(one, BlessingScope{{}, {"t"}, {"ffff"}}));
  CHECK_FALSE(intersects(one, BlessingScope{{"callgrind"}, {}, {}}));
}

TEST_CASE("RFC 3339 timestamps parse offsets and format with the shortest fraction", "[model]") {
  auto t = parse_rfc3339("2026-08-20T09:14:03.512Z");
  REQUIRE(t);
  CHECK(format_rfc3339(*t) == "2026-08-20T09:14:03.512Z");
  CHECK(format_rfc3339(*parse_rfc3339("2026-08-21T10:00:00.123456789Z")) == "2026-08-21T10:00:00.123456789Z");
  CHECK(unix_nanos(*parse_rfc3339("2026-08-21T10:00:00.123456789Z")) == 1787306400123456789LL);
  CHECK(format_rfc3339(*parse_rfc3339("2026-01-01T02:00:00+02:00")) == "2026-01-01T00:00:00Z");
  CHECK_FALSE(parse_rfc3339("2026-13-01T00:00:00Z"));
  // fuzz finding: instants a nanosecond Timestamp cannot hold are refused, never overflowed.
  CHECK_FALSE(parse_rfc3339("4052-08-20T09:14:03Z"));
  CHECK_FALSE(parse_rfc3339("9999-12-31T23:59:59Z"));
  CHECK_FALSE(parse_rfc3339("0001-01-01T00:00:00Z"));
  CHECK(format_rfc3339(*parse_rfc3339("2262-04-10T00:00:00Z")) == "2262-04-10T00:00:00Z");
  CHECK(format_rfc3339(*parse_rfc3339("1677-09-22T00:00:00Z")) == "1677-09-22T00:00:00Z");
  CHECK_FALSE(parse_rfc3339("2026-01-01 junk"));
  CHECK_FALSE(parse_rfc3339("2026-01-01T00:00:00"));
}

TEST_CASE("an error kind's name is its enumerator's", "[model]") {
  CHECK(std::string(to_string(ErrorKind::not_found)) == "not_found");
  CHECK(std::string(to_string(ErrorKind::benchmark_inconsistent)) == "benchmark_inconsistent");
  CHECK(std::string(to_string(ErrorKind::internal)) == "internal");
  static_assert(std::string_view(to_string(ErrorKind::usage)) == "usage");
}
