#include <limits>
#include <catch2/catch.hpp>

#include "benchhist/error.hpp"
#include "benchhist/model/blessing.hpp"
#include "benchhist/model/metric.hpp"
#include "benchhist/model/run.hpp"
#include "benchhist/model/timestamp.hpp"

#include <cmath>
#include <random>

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

// The plain definition run_problem's hashed search must agree with: the smallest position that
// repeats an earlier id, and the first position holding that id.
std::optional<std::pair<std::size_t, std::size_t>> plain_repeat(const std::vector<BenchmarkResult>& results) {
  for (std::size_t k = 0; k < results.size(); ++k)
    for (std::size_t g = 0; g < k; ++g)
      if (results[g].id == results[k].id) return std::pair{g, k};
  return std::nullopt;
}

TEST_CASE("a run's repeated benchmark is found where the plain definition finds it", "[model]") {
  std::mt19937_64 rng(20261207);
  int repeats = 0;
  for (int trial = 0; trial < 2000; ++trial) {
    // Few names, so repeats are common; segments split differently ("a","bc" vs "ab","c") must
    // stay distinct ids.
    const char* const names[] = {"a", "b", "bc", "ab", "c", "", "case_1", "case_10"};
    std::vector<BenchmarkResult> results(std::uniform_int_distribution<std::size_t>(0, 14)(rng));
    for (auto& r : results) {
      std::vector<std::string> segs(std::uniform_int_distribution<std::size_t>(1, 2)(rng));
      for (auto& seg : segs) seg = names[std::uniform_int_distribution<std::size_t>(0, 7)(rng)];
      r.id = BenchmarkId(std::move(segs));
    }
    const auto expected = plain_repeat(results);
    const auto problem = run_problem(results);
    INFO("trial " << trial);
    if (!expected) {
      CHECK_FALSE(problem);
      continue;
    }
    ++repeats;
    REQUIRE(problem);
    CHECK(problem->where == "results[" + std::to_string(expected->second) + "].id");
    CHECK(problem->what == "benchmark \"" + results[expected->second].id.qualified() + "\" is listed twice (first at results[" +
                               std::to_string(expected->first) + "])");
  }
  CHECK(repeats > 500);  // the sample exercises the search, not only its empty case
}

TEST_CASE("a result's own problems are named before a repeat of its id", "[model]") {
  std::vector<BenchmarkResult> results(2);
  results[0].id = BenchmarkId({"x"});
  results[1].id = BenchmarkId({"x"});
  results[1].metrics = {{MetricKind::wall_time, 1.0, std::nullopt, Interval{2.0, 1.0}}};
  // The inverted interval in results[1] comes before the repeat it also is.
  CHECK(run_problem(results)->where == "results[1].metrics");
  results[1].metrics[0].interval = Interval{0.5, 1.5};
  CHECK(run_problem(results)->where == "results[1].id");
  results[1].id = BenchmarkId({"y"});
  CHECK_FALSE(run_problem(results));
  results[1].metrics[0].interval = Interval{std::nan(""), 1.5};
  CHECK(run_problem(results)->where == "results[1].metrics[0].interval_low");
  CHECK(run_problem(results)->what == "the wall_time interval has a bound that is not a finite number (nan)");
  // An infinite bound is no number JSON can hold either (the writer used to call it a bug).
  results[1].metrics[0].interval = Interval{0.5, std::numeric_limits<double>::infinity()};
  CHECK(run_problem(results)->where == "results[1].metrics[0].interval_high");
  CHECK(run_problem(results)->what == "the wall_time interval has a bound that is not a finite number (inf)");
}

TEST_CASE("an error renders as the CLI prints it, and an internal one without a hint says it is a bug", "[model]") {
  CHECK(render(Error(ErrorKind::usage, "bad", "s", "why", "do this")) == "Error: bad\n  caused by: why\n  hint: do this\n");
  CHECK(render(Error(ErrorKind::io, "bad")) == "Error: bad\n");
  CHECK(render(Error(ErrorKind::internal, "odd", {}, "detail")) ==
        "Error: odd\n  caused by: detail\n  hint: this is a bug in cargo-bench-history: please report it with the "
        "command you ran and this message\n");
  CHECK(render(Error(ErrorKind::internal, "odd", {}, {}, "own hint")) == "Error: odd\n  hint: own hint\n");
}
