#include <catch2/catch.hpp>

#include "benchhist/error.hpp"
#include "benchhist/report/closest.hpp"
#include "benchhist/report/hints.hpp"
#include "benchhist/report/json_reporter.hpp"
#include "benchhist/report/markdown_reporter.hpp"
#include "benchhist/report/notes.hpp"
#include "benchhist/report/outcome_reporter.hpp"
#include "benchhist/report/prose.hpp"
#include "benchhist/report/summary_reporter.hpp"
#include "benchhist/report/text_reporter.hpp"
#include "report_fixtures.hpp"

using namespace report_test;

namespace {

bool contains(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

bool ends_with(const std::string& s, const std::string& tail) {
  return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}

// Unicode scalars after the chart axis glyph of each chart row (the plotted cells).
std::vector<std::size_t> chart_row_widths(const std::string& text) {
  std::vector<std::size_t> out;
  std::size_t start = 0;
  while (start < text.size()) {
    auto end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    const std::string line = text.substr(start, end - start);
    for (const char* axis : {"\u2524", "\u253c"}) {
      if (auto pos = line.find(axis); pos != std::string::npos) {
        std::size_t n = 0;
        for (std::size_t i = pos + 3; i < line.size(); ++i)
          if ((static_cast<unsigned char>(line[i]) & 0xC0) != 0x80) ++n;
        out.push_back(n);
        break;
      }
    }
    start = end + 1;
  }
  return out;
}

std::size_t count_of(const std::string& s, const std::string& part) {
  std::size_t n = 0;
  for (auto pos = s.find(part); pos != std::string::npos; pos = s.find(part, pos + part.size())) ++n;
  return n;
}

}  // namespace

TEST_CASE("a branch text report shows lags, the historical comparison and additional excursions", "[text][branch]") {
  const auto text = TextReporter().render(branch_report());
  const std::string expected =
      "Analyzed project nm (branch mode)\n"
      "  commit: 1234567890abcdef1234567890abcdef12345678 + uncommitted changes\n"
      "  runs: 23 (aaaaaaaaaaaa \u2192 1234567890ab)  in-scope series judged: 12 of 14  regressions: 1  improvements: 1\n"
      "\n"
      "callgrind/x86_64-unknown-linux-gnu/m1\n"
      "  runs: 23  regressions: 1  improvements: 1\n"
      "  filter: --engine callgrind --target-triple x86_64-unknown-linux-gnu --machine-key m1\n"
      "  Warning: comparison base is 3 commits behind base (discriminant set mismatch)\n"
      "  Warning: comparison base is 3 commits behind base (no base data at more recent commits)\n"
      "  Warning: comparison base is 1 commit behind base (no base data at more recent commits)\n"
      "  None of 10 comparable base commits showed as much out-of-range movement as this branch (12 series compared).\n"
      "\n"
      "nm/nm::observe/pull\n"
      "  130 instruction_count - higher than all 20 current-base observations\n"
      "    current base range: 99-110 \u00b7 branch excess: +20 / +18.18% \u00b7 @ 1234567890abcdef1234567890abcdef12345678\n"
      " 130 \u2524                    \u256d\n"
      " 122 \u2524                    \u2502\n"
      " 114 \u2524                    \u2502\n"
      " 107 \u253c\u256e     \u256d\u2500\u2500\u2500\u2500\u2500\u256e     \u256d\u2500\u256f\n"
      "  99 \u2524\u2570\u2500\u2500\u2500\u2500\u2500\u256f     \u2570\u2500\u2500\u2500\u2500\u2500\u256f\n"
      "\n"
      "  Additional excursions outside this comparison:\n"
      "\n"
      "nm/scan\n"
      "  100 wall_time - faster than all 15 current-base observations\n"
      "    current base range: 124.6-135.2 \u00b7 branch excess: -24.6 / -19.74% \u00b7 @ 1234567890abcdef1234567890abcdef12345678\n"
      "    The branch value matches the regime preceding base commit the current boundary.\n"
      "\n"
      "Warning: this analysis included dirty runs on top of the base branch.\n";
  CHECK(rtrim_lines(text) == expected);
}

TEST_CASE("a branch Markdown report quotes lags, states the comparison and ends with Coverage", "[markdown][branch]") {
  const auto md = MarkdownReporter().render(branch_report());
  CHECK(contains(md, "\n## callgrind/x86_64-unknown-linux-gnu/m1\n\n- Runs: 23\n- Regressions: 1\n- Improvements: 1\n"
                     "- Filter: `--engine callgrind --target-triple x86_64-unknown-linux-gnu --machine-key m1`\n\n"
                     "> Warning: comparison base is 3 commits behind base (discriminant set mismatch)\n\n"));
  CHECK(contains(md, "\n**Historical comparison:** None of 10 comparable base commits showed as much out-of-range "
                     "movement as this branch (12 series compared).\n\n### `nm/nm::observe/pull`\n"
                     "**130** `instruction_count` - higher than all 20 current-base observations\n\n"
                     "current base range: 99-110"));
  CHECK(contains(md, "\n### Additional excursions outside this comparison\n\n#### `nm/scan`\n"));
  CHECK(contains(md, "```text\n 130 \u2524"));
  // The dirty-base warning precedes the Coverage section, which is last.
  const auto warning = md.find("\nWarning: this analysis included dirty runs");
  const auto coverage = md.find("\n## Coverage\n");
  REQUIRE(warning != std::string::npos);
  REQUIRE(coverage != std::string::npos);
  CHECK(warning < coverage);
  CHECK(ends_with(md, "| with too few base-ref commits to compare against | 2 |\n"));
}

TEST_CASE("a branch JSON report carries branch details, lags and the comparison", "[json][branch]") {
  const auto json = JsonReporter().render(branch_report());
  CHECK(contains(json, "\"improvements\": 1,\n  \"ghosts_excluded\": 0,"));
  CHECK(contains(json, "\"branch\": {\n        \"reference_count\": 20,\n        \"reference_min\": 99.0,\n"
                       "        \"reference_max\": 110.0,\n        \"excess\": 20.0,\n"
                       "        \"relative_excess\": 0.18181818181818182,\n"
                       "        \"current_regime_start\": \"abcdef0123456789abcdef0123456789abcdef01\",\n"
                       "        \"matches_previous_regime\": false,\n"
                       "        \"included_in_historical_comparison\": true\n      }"));
  CHECK(contains(json, "\"comparison_base_lags\": [\n        {\n          \"commits_behind\": 3,\n"
                       "          \"reason\": \"discriminant_set_mismatch\"\n        },"));
  CHECK(count_of(json, "\"commits_behind\"") == 3);  // the duplicate lag is dropped
  CHECK(contains(json, "\"branch_comparison\": {\n        \"evaluated_base_commits\": 10,\n"
                       "        \"at_least_as_much\": 0,\n        \"series\": 12\n      }"));
  CHECK(contains(json, "\"warning\": \"Warning: this analysis included dirty runs on top of the base branch.\",\n  \"findings\""));
  CHECK(json.back() == '}');
  CHECK_FALSE(contains(json, "window_start"));
}

TEST_CASE("an all-quiet branch report still renders every set with its comparison sentence", "[text][branch]") {
  auto r = branch_report();
  r.findings.clear();
  r.sets[0].comparison.reset();
  r.sets[0].lags.clear();
  r.warning.reset();
  const auto text = TextReporter().render(r);
  CHECK(text ==
        "Analyzed project nm (branch mode)\n"
        "  commit: 1234567890abcdef1234567890abcdef12345678 + uncommitted changes\n"
        "  runs: 23 (aaaaaaaaaaaa \u2192 1234567890ab)  in-scope series judged: 12 of 14  regressions: 0  improvements: 0\n"
        "No notable changes detected among the series that were judged.\n"
        "  Judged 12 of 14 in-scope series; no reportable move survived the gates.\n"
        "  Not judged: 4 series not measured at the analyzed context commit; 2 series with too few base-ref commits "
        "to compare against.\n"
        "\n"
        "callgrind/x86_64-unknown-linux-gnu/m1\n"
        "  runs: 23  regressions: 0  improvements: 0\n"
        "  filter: --engine callgrind --target-triple x86_64-unknown-linux-gnu --machine-key m1\n"
        "  There was not enough comparable base history for a report-wide comparison.\n");
  const auto summary = SummaryReporter().render(r);
  CHECK(contains(summary, "\n## callgrind/x86_64-unknown-linux-gnu/m1\n\n**Historical comparison:** There was not enough "
                          "comparable base history for a report-wide comparison.\n\n_Filter:_ `--engine callgrind "
                          "--target-triple x86_64-unknown-linux-gnu --machine-key m1`\n"));
  CHECK(contains(summary, "\nNot judged: 4 series not measured"));
}

TEST_CASE("a report with nothing in scope says so and names the ignored series", "[text][markdown][json]") {
  auto r = history_base();
  r.census = census(0, 3, 2, 0);
  r.sets.push_back({criterion_set(), 128, 0, {}, std::nullopt});
  r.hint = hint_all_ghosts(tip);
  const auto text = TextReporter().render(r);
  CHECK(text ==
        "Analyzed project textproc (history mode)\n"
        "  commit: 9f2c4a1d3b5e708aab12cd34ef5678901234567a\n"
        "  runs: 128 (4d17b0c93ea2 \u2192 9f2c4a1d3b5e)  regressions: 0\n"
        "Nothing was in scope at the analyzed context commit, so nothing was judged.\n"
        "  Of the 5 series accounted for, 2 are ignored by configuration and none of the other 3 is measured at "
        "the analyzed context commit, so nothing was tested.\n"
        "  Not judged: 3 series not measured at the analyzed context commit; 2 series ignored by configuration.\n"
        "\n" + hint_all_ghosts(tip) + "\n");
  const auto md = MarkdownReporter().render(r);
  CHECK_FALSE(contains(md, "In-scope series judged"));
  CHECK(contains(md, "- State: `nothing_in_scope`\n- Metric series accounted for: 5\n- In scope: 0\n- Judged: 0\n"));
  CHECK(contains(JsonReporter().render(r), "\"outcome\": \"nothing_in_scope\",\n  \"notable\": false,"));
  CHECK(OutcomeReporter().render(r) == "nothing_in_scope\n");
}

TEST_CASE("a report whose every series is ignored does not call them unmeasured", "[text]") {
  auto r = history_base();
  r.census = census(0, 0, 4, 0);
  r.sets.push_back({criterion_set(), 128, 0, {}, std::nullopt});
  const auto text = TextReporter().render(r);
  CHECK(contains(text, "  All 4 series accounted for are ignored by configuration, so nothing was tested.\n"));
  CHECK_FALSE(contains(text, "is measured at the analyzed context commit"));
  r.census = census(0, 0, 1, 0);
  CHECK(contains(TextReporter().render(r), "  The 1 series accounted for is ignored by configuration, so nothing was tested.\n"));
}

TEST_CASE("a report with no series names the verdict, no qualification and the hint", "[text][markdown]") {
  auto r = history_base();
  r.runs = {0, std::nullopt, std::nullopt};
  r.ghosts_excluded = 0;
  r.hint = hint_nothing_stored("textproc");
  const auto text = TextReporter().render(r);
  CHECK(text ==
        "Analyzed project textproc (history mode)\n"
        "  commit: 9f2c4a1d3b5e708aab12cd34ef5678901234567a\n"
        "  runs: 0  regressions: 0\n"
        "Nothing was analyzed, so no change could be detected.\n"
        "\n" + hint_nothing_stored("textproc") + "\n");
  const auto md = MarkdownReporter().render(r);
  CHECK(contains(md, "- Runs analyzed: 0\n- Regressions: 0\n\nNothing was analyzed, so no change could be detected.\n\n"
                     "No runs are stored"));
  // The empty reason table is omitted (docs/reports.md#choices-on-open-items); Coverage is still
  // last.
  CHECK(ends_with(md, "\n- Unjudged (including out-of-scope series): 0\n"));
  const auto json = JsonReporter().render(r);
  CHECK(contains(json, "\"reasons\": []"));
  CHECK(contains(json, "\"hint\": \"No runs are stored"));
}

TEST_CASE("nothing judged warns that silence is not evidence", "[text]") {
  auto r = history_base();
  r.census = census(0, 0, 0, 4);
  const auto text = TextReporter().render(r);
  CHECK(contains(text, "\nNothing was judged, so no change could be detected either way.\n"
                       "  Judged 0 of 4 in-scope series, so nothing was tested: this silence is not evidence that "
                       "nothing moved.\n  Not judged: 4 series with too few points in the analyzed window.\n"));
  r.census = census(4, 0, 0, 0);
  CHECK(contains(TextReporter().render(r), "\nNo notable changes detected.\n  Judged 4 of 4 in-scope series; no "
                                           "reportable move survived the gates.\n"));
}

TEST_CASE("the full Markdown report with findings renders set sections, charts and a final Coverage", "[markdown]") {
  const auto md = MarkdownReporter().render(seed_findings_report());
  CHECK(md.rfind("# Benchmark history analysis: textproc\n\n- Commit: 9f2c4a1d3b5e708aab12cd34ef5678901234567a\n"
                 "- Mode: history\n- Runs analyzed: 128 (4d17b0c93ea2 \u2192 9f2c4a1d3b5e)\n"
                 "- In-scope series judged: 5 of 8\n- Ignored by configuration: 1 series\n- Regressions: 2\n\n"
                 "## criterion/x86_64-unknown-linux-gnu/a1b2c3d4\n\n- Runs: 128\n- Regressions: 2\n",
                 0) == 0);
  CHECK(contains(md, "\n### `http_parse/case`\n**+29.57%** `wall_time`\n\nregression via change point \u00b7 100.4 "
                     "\u2192 130.1 \u00b7 somewhere near commit10\n\n```text\n 135 \u2524"));
  CHECK(contains(md, "\n### `index_build/case`\n**+10.40%** `wall_time`\n\nregression via drift \u00b7 98.5 \u2192 "
                     "108.7 \u00b7 accumulated commit0 \u2192 commit29\n"));
  CHECK_FALSE(contains(md, "Improvements"));
  CHECK_FALSE(contains(md, "Not judged:"));  // the breakdown lives in Coverage when findings exist
  CHECK(contains(md, "\n## Coverage\n\n- State: `partial`\n- Metric series accounted for: 11\n- In scope: 8\n"
                     "- Judged: 5\n- Unjudged (including out-of-scope series): 6\n\n| Unjudged reason | Metric series |\n"));
  CHECK(ends_with(md, "\n| with too few points in the analyzed window | 3 |\n"));
}

TEST_CASE("history details name blessings and fall back when no commit is known", "[text]") {
  auto r = seed_findings_report();
  r.findings[0].blessed_at = "b1e55ed0000000000000000000000000000000ff";
  r.findings[0].blessed_commit_time = "2026-03-01T10:00:00Z";
  r.findings[1].window_start.reset();
  const auto text = TextReporter().render(r);
  CHECK(contains(text, "somewhere near commit10\n    blessed at b1e55ed00000 (2026-03-01T10:00:00Z)\n"));
  CHECK(contains(text, "regression via drift \u00b7 98.5 \u2192 108.7 \u00b7 accumulated ending at commit29\n"));
  r.findings[1].commit.reset();
  CHECK(contains(TextReporter().render(r), "108.7 \u00b7 across the analyzed window\n"));
  const auto json = JsonReporter().render(r);
  CHECK(contains(json, "\"blessed_at\": \"b1e55ed00000\",\n      \"blessed_commit_time\": \"2026-03-01T10:00:00Z\""));
}

TEST_CASE("the summary keeps the top 10 findings and says how many there were", "[summary]") {
  auto r = seed_findings_report();
  auto base = r.findings[0];
  r.findings.clear();
  for (int i = 0; i < 12; ++i) {
    auto f = base;
    f.benchmark = BenchmarkId({"bench" + std::to_string(i)});
    f.relative_delta = 0.5 - 0.01 * i;
    f.chart.reset();
    r.findings.push_back(f);
  }
  const auto s = SummaryReporter().render(r);
  CHECK(contains(s, "- Regressions: 12\n\n> Showing the top 10 of 12 findings by magnitude.\n\n## `bench0`\n"
                    "**+50.00%** `wall_time`\n\nregression via change point"));
  CHECK(count_of(s, "\n## `") == 10);
  CHECK_FALSE(contains(s, "bench10"));
  CHECK(count_of(s, "_Filter:_ `--engine criterion") == 10);
  CHECK_FALSE(contains(s, "## Coverage"));
  CHECK(contains(s, "- In-scope series judged: 5 of 8 (the full report's Coverage section lists the unjudged series)\n"));
  r.findings.resize(10);
  CHECK_FALSE(contains(SummaryReporter().render(r), "Showing the top"));
}

TEST_CASE("the summary introduces each set's lags and comparison before its first finding", "[summary][branch]") {
  const auto s = SummaryReporter().render(branch_report());
  const std::string set_intro =
      "\n> Warning: comparison base is 3 commits behind base (discriminant set mismatch)\n\n"
      "> Warning: comparison base is 3 commits behind base (no base data at more recent commits)\n\n"
      "> Warning: comparison base is 1 commit behind base (no base data at more recent commits)\n\n"
      "> **Historical comparison for callgrind/x86_64-unknown-linux-gnu/m1:** None of 10 comparable base commits "
      "showed as much out-of-range movement as this branch (12 series compared).\n\n## `nm/nm::observe/pull`\n";
  CHECK(contains(s, set_intro));
  CHECK(count_of(s, "> Warning: comparison base") == 3);  // once per set, not per finding
  CHECK(contains(s, "\n> **Outside the historical comparison:** This excursion did not meet the shared-history "
                    "requirements of the compared family.\n\n## `nm/scan`\n"));
  CHECK(ends_with(s, "\n\nWarning: this analysis included dirty runs on top of the base branch.\n"));
}

TEST_CASE("historical comparison sentences cover every case", "[prose]") {
  CHECK(historical_comparison_sentence(std::nullopt, true) ==
        "There was not enough comparable base history for a report-wide comparison.");
  CHECK(historical_comparison_sentence(BranchComparison{10, 0, 12}, false) ==
        "The branch produced no reportable out-of-range movement in this comparison (12 series and 10 comparable "
        "base commits).");
  CHECK(historical_comparison_sentence(BranchComparison{10, 0, 12}, true) ==
        "None of 10 comparable base commits showed as much out-of-range movement as this branch (12 series "
        "compared).");
  CHECK(historical_comparison_sentence(BranchComparison{10, 3, 12}, true) ==
        "3 of 10 comparable base commits showed at least as much out-of-range movement as this branch (12 series "
        "compared).");
}

TEST_CASE("branch relations depend on the metric kind and direction", "[prose]") {
  CHECK(branch_relation(MetricKind::wall_time, Direction::regression) == "slower than all");
  CHECK(branch_relation(MetricKind::processor_time, Direction::improvement) == "faster than all");
  CHECK(branch_relation(MetricKind::allocation_count, Direction::improvement) == "lower than all");
  CHECK(branch_relation(MetricKind::instruction_count, Direction::regression) == "higher than all");
}

TEST_CASE("a branch improvement is reported with its own count and headline", "[text][branch]") {
  auto r = branch_report();
  r.findings.erase(r.findings.begin());
  r.findings[0].kind = MetricKind::allocation_count;
  r.findings[0].branch->matches_previous_regime = false;
  r.findings[0].branch->included_in_historical_comparison = true;
  const auto text = TextReporter().render(r);
  CHECK(contains(text, "regressions: 0  improvements: 1\n"));
  CHECK(contains(text, "\nnm/scan\n  100 allocation_count - lower than all 15 current-base observations\n"));
  CHECK_FALSE(contains(text, "Additional excursions"));
  const auto json = JsonReporter().render(r);
  CHECK(contains(json, "\"direction\": \"improvement\""));
  CHECK(contains(json, "\"regressions\": 0,\n  \"improvements\": 1,"));
}

TEST_CASE("color styles headlines and ids but never charts", "[text]") {
  TextOptions o;
  o.color = true;
  const auto text = TextReporter(o).render(seed_findings_report());
  CHECK(contains(text, "\x1b[1mhttp_parse/case\x1b[0m\n\x1b[1;31m  +29.57% wall_time\x1b[0m\n\x1b[2m    regression"));
  CHECK(contains(text, "\n 135 \u2524"));  // chart rows start unstyled
  CHECK_FALSE(contains(TextReporter().render(seed_findings_report()), "\x1b["));
}

TEST_CASE("a narrow terminal gets fewer chart columns", "[text][chart]") {
  TextOptions o;
  o.width = 40;
  const auto text = TextReporter(o).render(seed_findings_report());
  // 40 − 32 = 8 columns: every chart row holds at most 8 cells after its axis.
  const auto widths = chart_row_widths(text);
  REQUIRE(widths.size() >= 8);
  for (auto w : widths) CHECK(w <= 8);
  CHECK(chart_row_widths(TextReporter().render(seed_findings_report())).front() == 30);
  const auto wide = TextReporter().render(seed_findings_report());
  CHECK(wide != text);
}

TEST_CASE("every reporter is deterministic", "[determinism]") {
  const std::vector<AnalysisReport> reports = {seed_findings_report(), seed_silent_report(), branch_report()};
  TextReporter text;
  MarkdownReporter md;
  JsonReporter json;
  SummaryReporter summary;
  OutcomeReporter outcome;
  const std::vector<const Reporter*> all = {&text, &md, &json, &summary, &outcome};
  for (const auto& r : reports) {
    for (const auto* rep : all) {
      const AnalysisReport copy = r;
      CHECK(rep->render(r) == rep->render(copy));
      CHECK(rep->render(r) == rep->render(r));
    }
  }
  CHECK(text.label() == "text");
  CHECK(md.label() == "Markdown");
  CHECK(json.label() == "JSON");
  CHECK(summary.label() == "Markdown summary");
  CHECK(outcome.label() == "outcome");
}

TEST_CASE("every human rendering ends with exactly one newline and JSON with none", "[determinism]") {
  for (const auto& r : {seed_findings_report(), seed_silent_report(), branch_report()}) {
    for (const auto& s : {TextReporter().render(r), MarkdownReporter().render(r), SummaryReporter().render(r)}) {
      REQUIRE(s.size() > 2);
      CHECK(s.back() == '\n');
      CHECK(s[s.size() - 2] != '\n');
    }
    CHECK(JsonReporter().render(r).back() == '}');
  }
}

TEST_CASE("the selection announcement lists filters, base, context and since", "[notes]") {
  SelectionFacts s;
  s.target_triple_filter = "x86_64-pc-windows-msvc (auto-detected)";
  s.machine_key_filter = "abcd (auto-detected)";
  s.base_name = "main";
  s.base_auto_detected = true;
  s.since = "2026-02-20T12:00:00Z";
  s.since_reason = "history-mode default six-month look-back";
  CHECK(selection_announcement(s) ==
        "[bench-history] selection: engine=all, target-triple=x86_64-pc-windows-msvc (auto-detected), "
        "machine-key=abcd (auto-detected); base=main (auto-detected); since=2026-02-20T12:00:00Z (history-mode "
        "default six-month look-back)");
  SelectionFacts u;
  u.show_since = false;
  u.context = tip;
  u.context_defaulted = true;
  CHECK(selection_announcement(u) ==
        "[bench-history] selection: engine=all, target-triple=all, machine-key=all; context=9f2c4a1d3b5e (defaulted "
        "to HEAD)");
}

TEST_CASE("verbose notes name each unjudged series and each declined gate ladder", "[notes]") {
  auto r = seed_findings_report();
  r.verbose.unjudged.push_back({criterion_set(), BenchmarkId({"tokenize", "short"}), MetricKind::wall_time,
                                UnjudgedReason::too_few_points, "7 points"});
  DeclinedCandidate d{criterion_set(), BenchmarkId({"index_build", "case"}), MetricKind::wall_time,
                      FindingMethod::change_point, {}};
  d.gates = {{"min_regime", 5.0, 11.0, GateVerdict::passed},
             {"residual_noise", 5.856462543713299, 5.066522931699197, GateVerdict::declined},
             {"regime_separation", 0.85, std::nullopt, GateVerdict::not_run}};
  r.verbose.declined.push_back(d);
  const auto notes = verbose_notes(r);
  REQUIRE(notes.size() == 5);
  CHECK(notes[0] ==
        "[bench-history] unjudged criterion/x86_64-unknown-linux-gnu/a1b2c3d4 tokenize/short wall_time: "
        "too_few_points (with too few points in the analyzed window; 7 points)");
  CHECK(notes[1] ==
        "[bench-history] declined change_point candidate for criterion/x86_64-unknown-linux-gnu/a1b2c3d4 "
        "index_build/case wall_time at residual_noise:");
  CHECK(notes[3] == "[bench-history]   residual_noise: computed 5.067 \u00b7 demand 5.856 \u00b7 declined");
  CHECK(notes[4] == "[bench-history]   regime_separation: computed - \u00b7 demand 0.85 \u00b7 not run");
}

TEST_CASE("hints say what happened and what to do next", "[hints]") {
  CHECK(dirty_base_warning().rfind("Warning: ", 0) == 0);
  const auto together = hint_nothing_matched("all", "x86_64-unknown-linux-gnu", "abcd", {});
  CHECK(contains(together, "engine=all, target-triple=x86_64-unknown-linux-gnu, machine-key=abcd: each filter "
                           "matches some stored run, but no run matches all of them at once"));
  // The filter that emptied the selection is named with what is stored instead, and only that
  // axis is offered for widening.
  const auto engine = hint_nothing_matched("catch2", "all", "all",
                                           {{"--engine", "catch2", {"bmf", "criterion", "hyperfine"}}});
  CHECK(contains(engine, "machine-key=all: --engine catch2 matches no stored run (stored: bmf, criterion and "
                         "hyperfine). Pass one of the stored values, or widen it with `--engine all`;"));
  CHECK_FALSE(contains(engine, "--target-triple all"));
  const auto many = hint_nothing_matched("all", "t (auto-detected)", "all",
                                         {{"--target-triple", "t (auto-detected)", {"a", "b", "c", "d", "e", "f", "g"}}});
  CHECK(contains(many, "(stored: a, b, c, d, e and 2 more)"));
  const auto h = hint_none_entered({5, 2, 0, 3});
  CHECK(h.rfind("Found 5 stored runs for this project, but none entered the analysis:\n"
                "  - 2 dirty snapshots on base-branch commits\n  - 3 runs older than the --since cutoff\n",
                0) == 0);
  CHECK(contains(h, "--verbose"));
}

TEST_CASE("sets render in engine, triple, machine-key order whatever order they arrive in", "[determinism]") {
  auto r = seed_findings_report();
  DiscriminantSet cg{Engine::callgrind, "x86_64-unknown-linux-gnu", "a1b2c3d4"};
  r.sets.push_back({cg, 4, 3, {}, std::nullopt});
  auto f = r.findings[1];
  f.set = cg;
  f.kind = MetricKind::instruction_count;
  f.chart.reset();
  r.findings.push_back(f);
  const auto text = TextReporter().render(r);
  const auto a = text.find("\ncallgrind/x86_64-unknown-linux-gnu/a1b2c3d4\n");
  const auto b = text.find("\ncriterion/x86_64-unknown-linux-gnu/a1b2c3d4\n");
  REQUIRE(a != std::string::npos);
  REQUIRE(b != std::string::npos);
  CHECK(a < b);
  const auto json = JsonReporter().render(r);
  CHECK(json.find("\"engine\": \"callgrind\",\n      \"target_triple\": \"x86_64-unknown-linux-gnu\",\n"
                  "      \"machine_key\": \"a1b2c3d4\",\n      \"runs\": 4,") <
        json.find("\"engine\": \"criterion\",\n      \"target_triple\": \"x86_64-unknown-linux-gnu\",\n"
                  "      \"machine_key\": \"a1b2c3d4\",\n      \"runs\": 128,"));
  // Findings keep the global ranking: the callgrind finding is still listed last in JSON.
  CHECK(json.rfind("\"kind\": \"instruction_count\"") > json.rfind("\"kind\": \"wall_time\""));
}

TEST_CASE("branch ladders spell the outside-range gate so a reader can tell", "[notes][branch]") {
  auto r = branch_report();
  DeclinedCandidate d{r.sets[0].set, BenchmarkId({"nm", "quiet"}), MetricKind::instruction_count,
                      FindingMethod::branch_excursion, {}};
  d.gates = {{"min_base_commits", 10.0, 20.0, GateVerdict::passed},
             {"non_zero_delta", 0.0, 0.0, GateVerdict::declined}};
  r.verbose.declined.push_back(d);
  const auto notes = verbose_notes(r);
  REQUIRE(notes.size() == 3);
  CHECK(notes[0] == "[bench-history] declined branch_excursion candidate for callgrind/x86_64-unknown-linux-gnu/m1 "
                    "nm/quiet instruction_count at non_zero_delta:");
  CHECK(notes[2] == "[bench-history]   non_zero_delta (outside range): computed 0 \u00b7 demand 0 \u00b7 declined");
}

TEST_CASE("Markdown headings keep benchmark ids with backticks intact", "[markdown]") {
  auto r = seed_findings_report();
  r.findings[0].benchmark = BenchmarkId({"parse`raw`", "case"});
  const auto md = MarkdownReporter().render(r);
  CHECK(contains(md, "\n### `` parse`raw`/case ``\n"));
  CHECK(contains(md, "\n### `index_build/case`\n"));
}

TEST_CASE("the closest names ignore case in the ranking and keep it in the names", "[hints]") {
  const std::vector<std::string> ids{"alloc/vec", "encode/json", "parse/small", "render/page"};
  CHECK(benchhist::report::closest_names("PARSE", ids, 2) == std::vector<std::string>{"parse/small", "alloc/vec"});
  CHECK(benchhist::report::closest_names("Render/Pgae", ids, 1) == std::vector<std::string>{"render/page"});
  CHECK(benchhist::report::closest_names("encode", ids, 1) == std::vector<std::string>{"encode/json"});
}

TEST_CASE("a mistyped prefix is compared with the names' beginnings, not their whole length", "[hints]") {
  // As whole ids, `prase/` is nearer the short `net/io` than `parse/large`; as a prefix it is two
  // edits from `parse/`.
  using benchhist::report::Compare;
  const std::vector<std::string> ids{"net/io", "flat/one", "parse/large", "render/page"};
  CHECK(benchhist::report::closest_names("prase/", ids, 1, Compare::prefix) == std::vector<std::string>{"parse/large"});
  CHECK(benchhist::report::closest_names("rendr/", ids, 1, Compare::prefix) == std::vector<std::string>{"render/page"});
  CHECK(benchhist::report::closest_names("prase/", ids, 1) == std::vector<std::string>{"net/io"});
}

TEST_CASE("a finding whose set the report does not list is refused by every format alike", "[report][check]") {
  // Built by hand (an embedder's dashboard), the set-grouped formats dropped the finding while
  // still counting it, and JSON and the summary showed it.
  auto r = seed_findings_report();
  REQUIRE_FALSE(r.findings.empty());
  r.findings[0].set = DiscriminantSet{Engine::bmf, "x86_64-unknown-linux-gnu", "elsewhere"};
  const TextReporter text;
  const MarkdownReporter markdown;
  const JsonReporter json;
  const SummaryReporter summary;
  const OutcomeReporter outcome;
  for (const Reporter* reporter : std::initializer_list<const Reporter*>{&text, &markdown, &json, &summary, &outcome}) {
    INFO(reporter->label());
    try {
      (void)reporter->render(r);
      FAIL("rendered an inconsistent report");
    } catch (const benchhist::Error& e) {
      CHECK(e.kind() == benchhist::ErrorKind::usage);
      CHECK_THAT(e.message(), Catch::Contains("is in the discriminant set bmf/x86_64-unknown-linux-gnu/elsewhere, which "
                                              "AnalysisReport::sets does not list"));
    }
  }
  r.findings[0].set = seed_findings_report().findings[0].set;
  CHECK_NOTHROW(r.check());
}
