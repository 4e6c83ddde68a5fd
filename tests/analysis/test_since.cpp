#include <catch2/catch.hpp>
#include <variant>

#include "benchhist/analysis/since.hpp"
#include "benchhist/error.hpp"

using namespace benchhist;
using namespace benchhist::analysis;

namespace {
Timestamp at(const char* text) { return *parse_rfc3339(text); }
std::string since(const char* text, const char* now = "2024-06-15T12:30:00Z") {
  return format_rfc3339(parse_since(text, at(now)));
}
}  // namespace

TEST_CASE("--since accepts RFC 3339 instants and bare dates at UTC midnight", "[analysis][since]") {
  CHECK(since("2024-01-02T03:04:05Z") == "2024-01-02T03:04:05Z");
  CHECK(since("2024-01-02T03:04:05+02:00") == "2024-01-02T01:04:05Z");
  CHECK(since("2024-02-29") == "2024-02-29T00:00:00Z");
  CHECK(since("  2024-02-29  ") == "2024-02-29T00:00:00Z");
}

TEST_CASE("--since friendly spans look back with calendar-correct UTC arithmetic", "[analysis][since]") {
  CHECK(since("6 months") == "2023-12-15T12:30:00Z");
  CHECK(since("30 days ago") == "2024-05-16T12:30:00Z");
  CHECK(since("2w") == "2024-06-01T12:30:00Z");
  CHECK(since("1 year") == "2023-06-15T12:30:00Z");
  CHECK(since("1y 2M") == "2023-04-15T12:30:00Z");
  CHECK(since("90m") == "2024-06-15T11:00:00Z");
  CHECK(since("3h, 30min") == "2024-06-15T09:00:00Z");
  CHECK(since("-2 days") == "2024-06-13T12:30:00Z");  // the sign is ignored
  CHECK(since("1 month", "2024-03-31T00:00:00Z") == "2024-02-29T00:00:00Z");  // day clamped
  CHECK(since("12 months", "2024-02-29T08:00:00Z") == "2023-02-28T08:00:00Z");
}

TEST_CASE("--since ISO 8601 durations are look-backs too", "[analysis][since]") {
  CHECK(since("P6M") == "2023-12-15T12:30:00Z");
  CHECK(since("P1Y2M3D") == "2023-04-12T12:30:00Z");
  CHECK(since("P2W") == "2024-06-01T12:30:00Z");
  CHECK(since("PT1H30M") == "2024-06-15T11:00:00Z");
  CHECK(since("PT0.5S") == "2024-06-15T12:29:59.5Z");
  CHECK(since("p1d") == "2024-06-14T12:30:00Z");
}

TEST_CASE("--since rejects anything else with the exact message", "[analysis][since]") {
  for (const char* bad : {"", "yesterday", "6 fortnights", "P", "PT", "P1H", "2024-02-30", "5", "months", "P1M1Y",
                          "2wago"}) {
    INFO(bad);
    try {
      parse_since(bad, at("2024-06-15T00:00:00Z"));
      FAIL("accepted");
    } catch (const Error& e) {
      CHECK(e.kind() == ErrorKind::usage);
      CHECK(e.message() == std::string("invalid --since value \"") + bad +
                               "\"; expected an RFC 3339 timestamp, a YYYY-MM-DD date, or a relative duration such "
                               "as \"6 months\" or \"30 days ago\"");
      // What to type instead, and the shell's part in it.
      CHECK(e.hint() == "pass a date (2026-06-01), an instant (2026-06-01T12:00:00Z) or a span (\"6 months\", "
                        "\"2w\", P1Y2M); quote a span that contains a space");
    }
  }
}

TEST_CASE("--since spans beyond the representable range are a clear error", "[analysis][since]") {
  try {
    parse_since("500 years", at("2024-06-15T00:00:00Z"));
    FAIL("accepted");
  } catch (const Error& e) {
    CHECK(e.message() == "500 years is out of the representable range");
  }
  CHECK_THROWS_AS(parse_since("99999999999999999999999 days", at("2024-06-15T00:00:00Z")), Error);
  // fuzz_since finding: a count of ~2^80 weeks overflowed the 128-bit span (UB); huge counts
  // and many components now saturate and are reported as out of range.
  const std::string huge = "P" + std::string(26, '8') + "3W";
  CHECK_THROWS_WITH(parse_since(huge, at("2024-06-15T00:00:00Z")), huge + " is out of the representable range");
  std::string many;
  for (int i = 0; i < 2000; ++i) many += "99999999999999999999999999 weeks ";
  CHECK_THROWS_AS(parse_since(many, at("2024-06-15T00:00:00Z")), Error);
  CHECK_THROWS_AS(parse_span_before("P" + std::string(40, '9') + "Y", at("2024-06-15T00:00:00Z")), Error);
}

TEST_CASE("the default window is six calendar months in history mode and none in branch mode", "[analysis][since]") {
  const auto h = resolve_since(std::nullopt, true, at("2024-08-31T10:00:00Z"));
  REQUIRE(h.cutoff);
  CHECK(format_rfc3339(*h.cutoff) == "2024-02-29T10:00:00Z");
  CHECK(to_string(h.reason) == "history-mode default six-month look-back");
  const auto b = resolve_since(std::nullopt, false, at("2024-08-31T10:00:00Z"));
  CHECK_FALSE(b.cutoff);
  CHECK(to_string(b.reason) == "no default look-back window outside history mode");
  const auto e = resolve_since(parse_since("2024-01-01"), false, at("2024-08-31T10:00:00Z"));
  CHECK(to_string(e.reason) == "from the --since option");
}

TEST_CASE("a window that counts back from an unset now (the epoch) is refused", "[analysis][since]") {
  // A library caller who forgot SelectionRequest::now got a window ending in 1970: every run in.
  CHECK_THROWS_WITH(resolve_since(std::nullopt, true, Timestamp{}),
                    "the selection's `now` is not set (it is the Unix epoch)");
  CHECK_THROWS_WITH(resolve_since(parse_since("30 days"), false, Timestamp{}), Catch::Contains("`now` is not set"));
  // Nothing counts back from it here, so nothing is refused.
  CHECK_NOTHROW(resolve_since(std::nullopt, false, Timestamp{}));
  CHECK(resolve_since(parse_since("2024-01-01"), true, Timestamp{}).cutoff == at("2024-01-01T00:00:00Z"));
}

TEST_CASE("a commit exactly at the cutoff stays and an unknown time never drops", "[analysis][since]") {
  const std::optional<Timestamp> cutoff = at("2024-01-01T00:00:00Z");
  CHECK(before_cutoff(at("2023-12-31T23:59:59Z"), cutoff));
  CHECK_FALSE(before_cutoff(at("2024-01-01T00:00:00Z"), cutoff));
  CHECK_FALSE(before_cutoff(std::nullopt, cutoff));
  CHECK_FALSE(before_cutoff(at("1999-01-01T00:00:00Z"), std::nullopt));
}

TEST_CASE("a parsed --since keeps a span until the selection resolves it against its own now", "[analysis][since]") {
  const Since span = parse_since(" 1 month ");
  REQUIRE(std::holds_alternative<SinceSpan>(span.value));
  CHECK(format_rfc3339(span.cutoff(at("2024-03-31T12:00:00Z"))) == "2024-02-29T12:00:00Z");
  CHECK(format_rfc3339(span.cutoff(at("2024-07-15T00:00:00Z"))) == "2024-06-15T00:00:00Z");
  const Since instant = parse_since("2024-01-02");
  CHECK(instant.cutoff(at("2030-01-01T00:00:00Z")) == at("2024-01-02T00:00:00Z"));
  // Parsing knows no now: a span past the timestamp range is refused when it is resolved.
  const Since far = parse_since("500 years");
  CHECK_THROWS_WITH(far.cutoff(at("2024-06-15T00:00:00Z")), "500 years is out of the representable range");
  CHECK_THROWS_WITH(parse_since("banana"), Catch::StartsWith("invalid --since value \"banana\""));
}

TEST_CASE("prune has no default look-back", "[analysis][since]") {
  const auto none = resolve_prune_since(std::nullopt, at("2024-06-15T00:00:00Z"));
  CHECK_FALSE(none.cutoff);
  CHECK(to_string(none.reason) == "no default look-back");
  const auto given = resolve_prune_since(parse_since("P1D"), at("2024-06-15T00:00:00Z"));
  REQUIRE(given.cutoff);
  CHECK(format_rfc3339(*given.cutoff) == "2024-06-14T00:00:00Z");
}

TEST_CASE("a span alone resolves like --since's spans; instants and dates are not spans", "[analysis][since]") {
  const Timestamp now = at("2026-03-31T12:00:00Z");
  auto span = [&](const char* text) {
    auto t = parse_span_before(text, now);
    return t ? format_rfc3339(*t) : std::string("(not a span)");
  };
  CHECK(span("24 hours") == "2026-03-30T12:00:00Z");
  CHECK(span("24 hours ago") == "2026-03-30T12:00:00Z");
  CHECK(span("P14D") == "2026-03-17T12:00:00Z");
  CHECK(span("1 month") == "2026-02-28T12:00:00Z");  // calendar month, day clamped
  CHECK(span("P1M") == "2026-02-28T12:00:00Z");
  CHECK(span("0 hours") == "2026-03-31T12:00:00Z");
  CHECK(span("PT0S") == "2026-03-31T12:00:00Z");
  CHECK(span("2026-03-01") == "(not a span)");
  CHECK(span("2026-03-01T00:00:00Z") == "(not a span)");
  CHECK(span("") == "(not a span)");
  CHECK(span("a fortnight") == "(not a span)");
  CHECK_THROWS_WITH(parse_span_before("100000 years", now), Catch::Contains("out of the representable range"));
}
