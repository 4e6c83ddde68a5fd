#include <catch2/catch.hpp>

#include "benchhist/analysis/filters.hpp"
#include "benchhist/error.hpp"

using namespace benchhist;
using namespace benchhist::analysis;

TEST_CASE("a filter containing all in any case is unconstrained", "[analysis][filters]") {
  const auto f = resolve_filter(FilterAxis::machine_key, {"abcd", "ALL"}, std::string("host"));
  CHECK(f.unconstrained());
  CHECK(f.describe() == "all");
  CHECK(f.accepts("anything"));
}

TEST_CASE("explicit values are unioned, sanitized and matched case-insensitively", "[analysis][filters]") {
  const auto f = resolve_filter(FilterAxis::target_triple, {"X86_64-PC-Windows-MSVC", "weird:name", "x86_64-pc-windows-msvc"},
                                std::string("host"));
  CHECK(f.origin == DiscriminantFilter::Origin::explicit_values);
  CHECK(f.describe() == "X86_64-PC-Windows-MSVC|weird:name");
  CHECK(f.accepts("x86_64-pc-windows-msvc"));
  CHECK(f.accepts("weird_name"));
  CHECK_FALSE(f.accepts("host"));
}

TEST_CASE("omitted triple and machine key auto-detect while omitted engine means all", "[analysis][filters]") {
  const auto filters = resolve_filters({}, {}, {}, std::string("x86_64-unknown-linux-gnu"), std::string("a1b2"));
  CHECK(filters.describe() ==
        "engine=all, target-triple=x86_64-unknown-linux-gnu (auto-detected), machine-key=a1b2 (auto-detected)");
  CHECK(filters.accepts({Engine::callgrind, "x86_64-unknown-linux-gnu", "a1b2"}));
  CHECK_FALSE(filters.accepts({Engine::callgrind, "x86_64-unknown-linux-gnu", "a1b2c"}));
  // list discriminants passes no auto-detected value: omitted means all.
  CHECK(resolve_filter(FilterAxis::machine_key, {}).unconstrained());
}

TEST_CASE("engine filters must name known engines", "[analysis][filters]") {
  const auto f = resolve_filter(FilterAxis::engine, {"Callgrind", "criterion"});
  CHECK(f.describe() == "callgrind|criterion");
  CHECK(f.accepts("callgrind"));
  CHECK_FALSE(f.accepts("alloc_tracker"));
  try {
    resolve_filter(FilterAxis::engine, {"iai"});
    FAIL("accepted");
  } catch (const Error& e) {
    CHECK(e.message() == "unknown engine \"iai\"; expected one of: criterion, callgrind, alloc_tracker, all_the_time, google_benchmark, hyperfine, catch2, bmf, libtest, or all");
  }
}

TEST_CASE("an empty triple or machine-key value is refused, not matched against nothing", "[analysis][filters]") {
  // `--machine-key "$MK"` with MK unset selected nothing and passed a --fail-on gate.
  CHECK_THROWS_WITH(resolve_filter(FilterAxis::machine_key, {""}, std::string("host")),
                    "an empty --machine-key value matches no stored run");
  CHECK_THROWS_WITH(resolve_filter(FilterAxis::target_triple, {"x86_64-unknown-linux-gnu", " "}),
                    "an empty --target-triple value matches no stored run");
  CHECK(resolve_filter(FilterAxis::machine_key, {"abcd"}).describe() == "abcd");
}

TEST_CASE("the effective-selection announcement is spelled exactly", "[analysis][filters]") {
  const auto filters = resolve_filters({}, {}, {}, std::string("x86_64-pc-windows-msvc"), std::string("abcd"));
  CHECK(selection_announcement(filters, AnnouncedBase{"main", true, std::nullopt}, std::nullopt,
                               AnnouncedSince{parse_rfc3339("2026-02-20T12:00:00.25Z"), SinceReason::history_default}) ==
        "[bench-history] selection: engine=all, target-triple=x86_64-pc-windows-msvc (auto-detected), "
        "machine-key=abcd (auto-detected); base=main (auto-detected); since=2026-02-20T12:00:00Z "
        "(history-mode default six-month look-back)");
  const auto explicit_filters = resolve_filters({"criterion", "callgrind"}, {"all"}, {"k1"}, std::string("t"), std::string("m"));
  CHECK(selection_announcement(explicit_filters, AnnouncedBase{"develop", false, std::nullopt},
                               AnnouncedContext{"0123456789abcdef0123", true}, std::nullopt) ==
        "[bench-history] selection: engine=criterion|callgrind, target-triple=all, machine-key=k1; base=develop; "
        "context=0123456789ab (defaulted to HEAD)");
  CHECK(selection_announcement(explicit_filters, std::nullopt, std::nullopt,
                               AnnouncedSince{std::nullopt, SinceReason::no_default_outside_history}) ==
        "[bench-history] selection: engine=criterion|callgrind, target-triple=all, machine-key=k1; since=none (no "
        "default look-back window outside history mode)");
}

TEST_CASE("a configured default branch that does not resolve is named in the announcement", "[analysis][filters]") {
  const auto filters = resolve_filters({}, {"all"}, {"all"}, std::string("t"), std::string("m"));
  CHECK(selection_announcement(filters, AnnouncedBase{"main", true, std::string("mian")}) ==
        "[bench-history] selection: engine=all, target-triple=all, machine-key=all; base=main (auto-detected) "
        "[warning: the configured project.default_branch \"mian\" does not resolve in this repository; fix it in the "
        "[project] table of the configuration file]");
}
