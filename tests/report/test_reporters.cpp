#include <catch2/catch.hpp>

#include "benchhist/report/json_reporter.hpp"
#include "benchhist/report/markdown_reporter.hpp"
#include "benchhist/report/outcome_reporter.hpp"
#include "benchhist/report/summary_reporter.hpp"
#include "benchhist/report/text_reporter.hpp"
#include "report_fixtures.hpp"

using namespace report_test;

TEST_CASE("the text report reproduces the seed's history example with both charts", "[text]") {
  const auto text = TextReporter().render(seed_findings_report());
  const auto guide = guide_block("Text \u2014 the default output, printed to standard output.", "  97 \u2524\u2570\u256f");
  CHECK(rtrim_lines(text) == rtrim_lines(guide));
  CHECK(text.back() == '\n');
  CHECK(text.substr(text.size() - 2) != "\n\n");
}

TEST_CASE("the JSON report reproduces the seed's findings example byte for byte", "[json]") {
  const auto json = JsonReporter().render(seed_findings_report());
  std::string guide = guide_block("JSON \u2014 the same analysis, written by --json.", "}");
  guide.pop_back();  // the document has no trailing newline (formats.md §9 #12)
  CHECK(json == guide);
}

TEST_CASE("the silent text report reproduces the seed's coverage example", "[text]") {
  const auto text = TextReporter().render(seed_silent_report());
  CHECK(text == guide_block("A report with nothing to say still says how far that silence reaches:", ""));
}

TEST_CASE("the silent Markdown report reproduces the seed's example and ends with Coverage", "[markdown]") {
  const auto md = MarkdownReporter().render(seed_silent_report());
  CHECK(md == guide_block("Full Markdown report \u2014 written by --markdown.",
                          "| with too few points in the analyzed window | 3 |"));
}

TEST_CASE("the silent JSON report reproduces the seed's census example", "[json]") {
  const auto json = JsonReporter().render(seed_silent_report());
  std::string guide = guide_block("JSON report \u2014 the same analysis from --json, with counts under census.", "}");
  guide.pop_back();
  CHECK(json == guide);
}

TEST_CASE("the outcome file holds the outcome token and a newline", "[outcome]") {
  CHECK(OutcomeReporter().render(seed_findings_report()) == "findings\n");
  CHECK(OutcomeReporter().render(seed_silent_report()) == "partial\n");
  auto r = seed_silent_report();
  r.census = census(6, 2, 1, 0);
  CHECK(OutcomeReporter().render(r) == "clean\n");
  r.census = census(0, 2, 1, 3);
  CHECK(OutcomeReporter().render(r) == "insufficient_baseline\n");
  r.census = census(0, 2, 1, 0);
  CHECK(OutcomeReporter().render(r) == "nothing_in_scope\n");
  r.census = Census{};
  CHECK(OutcomeReporter().render(r) == "nothing_in_scope\n");
}
