#include <catch2/catch.hpp>

#include "benchhist/report/json_reporter.hpp"
#include "benchhist/report/markdown_reporter.hpp"
#include "benchhist/report/outcome_reporter.hpp"
#include "benchhist/report/summary_reporter.hpp"
#include "benchhist/report/text_reporter.hpp"
#include "report_fixtures.hpp"

using namespace report_test;
using benchhist::testing::example;

TEST_CASE("the text report reproduces the seed's history example with both charts", "[text]") {
  const auto text = TextReporter().render(seed_findings_report());
  const auto guide = example("guide/report-findings.txt");
  CHECK(rtrim_lines(text) == rtrim_lines(guide));
  CHECK(text.back() == '\n');
  CHECK(text.substr(text.size() - 2) != "\n\n");
}

TEST_CASE("the JSON report reproduces the seed's findings example byte for byte", "[json]") {
  const auto json = JsonReporter().render(seed_findings_report());
  std::string guide = example("guide/report-findings.json");
  guide.pop_back();  // the document has no trailing newline (docs/reports.md#choices-on-open-items)
  CHECK(json == guide);
}

TEST_CASE("the silent text report reproduces the seed's coverage example", "[text]") {
  const auto text = TextReporter().render(seed_silent_report());
  CHECK(text == example("guide/report-silent.txt"));
}

TEST_CASE("the silent Markdown report reproduces the seed's example and ends with Coverage", "[markdown]") {
  const auto md = MarkdownReporter().render(seed_silent_report());
  CHECK(md == example("guide/report-silent.md"));
}

TEST_CASE("the silent JSON report reproduces the seed's census example", "[json]") {
  const auto json = JsonReporter().render(seed_silent_report());
  std::string guide = example("guide/report-silent.json");
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
