#include <catch2/catch.hpp>

#include "benchhist/report/examine_output.hpp"
#include "benchhist/report/list_output.hpp"
#include "benchhist/report/prune_output.hpp"
#include "report_fixtures.hpp"

using namespace report_test;

namespace {

bool ends_with(const std::string& s, const std::string& tail) {
  return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}

std::string commit_id(char c) { return std::string(40, c); }

ExamineData examine_data() {
  ExamineData d;
  d.project = "textproc";
  d.benchmark = "http_parse/case";
  d.metric = MetricKind::wall_time;
  ExamineSet s;
  s.set = criterion_set();
  s.target_index = 3;
  s.rows = {{commit_id('a'), 0, 100.36830218253652, false, "Initial parser"},
            {commit_id('b'), 1, std::nullopt, false, "Docs only | no bench"},
            {commit_id('c'), 2, 130.05, false,
             "A very long subject line that goes on well past fity characters \u2192 truncated"},
            {commit_id('c'), 2, 1234.5, true,  // 1234.5 is a tie: half-to-even prints 1234
             "A very long subject"},
            {commit_id('d'), 3, std::nullopt, false, ""}};
  d.sets.push_back(s);
  return d;
}

}  // namespace

TEST_CASE("examine text lists every commit with aligned values, n/a gaps and dirty flags", "[examine]") {
  const auto text = render_examine_text(examine_data());
  const std::string header =
      "Data points for http_parse/case metric wall_time (ns) in project textproc\n\n"
      "criterion/x86_64-unknown-linux-gnu/a1b2c3d4\n";
  REQUIRE(text.rfind(header, 0) == 0);
  const std::string rows =
      "\n\n"
      "  aaaaaaaaaaaa  100.4  Initial parser\n"
      "  bbbbbbbbbbbb    n/a  Docs only | no bench\n"
      "  cccccccccccc  130.1  A very long subject line that goes on well past fi\n"
      "  cccccccccccc   1234  A very long subject  (dirty)\n"
      "  dddddddddddd    n/a\n";
  CHECK(text.size() > rows.size());
  CHECK(text.substr(text.size() - rows.size()) == rows);
  CHECK(text.find("\u2524") != std::string::npos);  // the chart is drawn (≥ 2 observations)
}

TEST_CASE("examine without matching data says so and carries the hint", "[examine]") {
  ExamineData d = examine_data();
  d.sets.clear();
  d.hint = "2 runs entered the analysis, but none recorded it.";
  CHECK(render_examine_text(d) ==
        "Data points for http_parse/case metric wall_time (ns) in project textproc\n\n"
        "No data point matches the selection.\n\n2 runs entered the analysis, but none recorded it.\n");
  CHECK(render_examine_markdown(d) ==
        "# Data points for http_parse/case in textproc\n\n**Metric:** wall_time (ns)\n\n"
        "No data point matches the selection.\n\n2 runs entered the analysis, but none recorded it.\n");
  CHECK(render_examine_json(d) ==
        "{\n  \"project\": \"textproc\",\n  \"benchmark\": \"http_parse/case\",\n  \"metric\": \"wall_time\",\n"
        "  \"unit\": \"ns\",\n  \"sets\": [],\n  \"hint\": \"2 runs entered the analysis, but none recorded it.\"\n}");
}

TEST_CASE("examine Markdown tabulates kinds and escapes pipes in titles", "[examine]") {
  const auto md = render_examine_markdown(examine_data());
  CHECK(md.rfind("# Data points for http_parse/case in textproc\n\n**Metric:** wall_time (ns)\n\n"
                 "## criterion/x86_64-unknown-linux-gnu/a1b2c3d4\n\n```text\n",
                 0) == 0);
  const std::string table =
      "```\n\n| Commit | Value | Kind | Title |\n| --- | --- | --- | --- |\n"
      "| aaaaaaaaaaaa | 100.4 | clean | Initial parser |\n"
      "| bbbbbbbbbbbb | n/a | n/a | Docs only \\| no bench |\n"
      "| cccccccccccc | 130.1 | clean | A very long subject line that goes on well past fi |\n"
      "| cccccccccccc | 1234 | dirty | A very long subject |\n"
      "| dddddddddddd | n/a | n/a |  |\n";
  CHECK(md.substr(md.size() - table.size()) == table);
}

TEST_CASE("examine JSON keeps full values, full titles and null gaps", "[examine][json]") {
  const auto json = render_examine_json(examine_data());
  CHECK(json.find("{\n          \"commit\": \"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\",\n"
                  "          \"value\": 100.36830218253652,\n          \"dirty\": false,\n"
                  "          \"title\": \"Initial parser\"\n        }") != std::string::npos);
  CHECK(json.find("\"value\": null,\n          \"title\": \"Docs only | no bench\"") != std::string::npos);
  CHECK(json.find("past fity characters \u2192 truncated\"") != std::string::npos);
  CHECK(json.find("\"dirty\": true") != std::string::npos);
  CHECK(json.back() == '}');
}

TEST_CASE("list runs shows per-commit counts only where they say something", "[list]") {
  RunListing l;
  l.project = "textproc";
  ListedSet s{criterion_set(), 8, {{commit_id('a'), 1, 0}, {commit_id('b'), 2, 1}, {commit_id('c'), 0, 1}}};
  l.sets.push_back(s);
  l.sets.push_back({DiscriminantSet{Engine::callgrind, "x86_64-unknown-linux-gnu", "a1b2c3d4"}, 3, {{commit_id('a'), 1, 0}}});
  CHECK(render_runs_text(l) ==
        "Data set for project textproc\n\n"
        "criterion/x86_64-unknown-linux-gnu/a1b2c3d4\n"
        "  5 runs, 8 series across 3 commits\n"
        "    aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\n"
        "    bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb  2 clean runs + 1 dirty run\n"
        "    cccccccccccccccccccccccccccccccccccccccc  0 clean runs + 1 dirty run\n\n"
        "callgrind/x86_64-unknown-linux-gnu/a1b2c3d4\n"
        "  1 run, 3 series across 1 commit\n"
        "    aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\n\n"
        "Total: 6 runs, 11 series across 2 discriminant sets\n");
  const auto md = render_runs_markdown(l);
  CHECK(md.rfind("# Data set for textproc\n\n## criterion/x86_64-unknown-linux-gnu/a1b2c3d4\n\n"
                 "5 runs, 8 series across 3 commits\n\n| Commit | Runs | Clean | Dirty |\n| --- | --- | --- | --- |\n"
                 "| aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa | 1 | 1 | 0 |\n",
                 0) == 0);
  CHECK(ends_with(md, "\n**Total:** 6 runs, 11 series across 2 discriminant sets\n"));
  const auto json = render_runs_json(l);
  CHECK(json.find("\"totals\": {\n    \"runs\": 6,\n    \"series\": 11,\n    \"discriminant_sets\": 2\n  }") !=
        std::string::npos);
  CHECK(json.find("{\n          \"commit\": \"bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb\",\n          \"runs\": 3,\n"
                  "          \"clean\": 2,\n          \"dirty\": 1\n        }") != std::string::npos);
  RunListing empty;
  empty.project = "p";
  empty.hint = "No runs are stored for this project yet.";
  CHECK(render_runs_text(empty) ==
        "Data set for project p\n\nNo stored run matches the selection.\n\nNo runs are stored for this project yet.\n");
}

TEST_CASE("list discriminants renders sets or the empty sentence", "[list]") {
  const std::vector<DiscriminantSet> sets = {criterion_set()};
  CHECK(render_discriminants_text(sets) == "Discriminant sets:\n  - criterion/x86_64-unknown-linux-gnu/a1b2c3d4\n");
  CHECK(render_discriminants_text({}) == "No discriminant sets found.\n");
  CHECK(render_discriminants_markdown(sets) ==
        "# Discriminant sets\n\n| Engine | Target triple | Machine key |\n| --- | --- | --- |\n"
        "| criterion | x86_64-unknown-linux-gnu | a1b2c3d4 |\n");
  CHECK(render_discriminants_markdown({}) == "# Discriminant sets\n\nNo discriminant sets found.\n");
  CHECK(render_discriminants_json(sets) ==
        "[\n  {\n    \"engine\": \"criterion\",\n    \"target_triple\": \"x86_64-unknown-linux-gnu\",\n"
        "    \"machine_key\": \"a1b2c3d4\"\n  }\n]");
  CHECK(render_discriminants_json({}) == "[]");
}

TEST_CASE("list blessings renders the HEAD view and the window view", "[list]") {
  BlessingListing head;
  head.project = "textproc";
  head.head_commit = tip;
  head.blessings = {{criterion_set(), std::nullopt, tip, std::nullopt, "2026-03-01T10:00:00Z", {"http_parse/", "lex/"}},
                    {criterion_set(), std::nullopt, tip, std::nullopt, std::nullopt, {}}};
  CHECK(render_blessings_text(head) ==
        "Blessings for project textproc at commit 9f2c4a1d3b5e\n\n"
        "criterion/x86_64-unknown-linux-gnu/a1b2c3d4\n"
        "  9f2c4a1d3b5e accepts http_parse/, lex/ (issued 2026-03-01T10:00:00Z)\n"
        "  9f2c4a1d3b5e accepts all benchmarks\n");
  const auto hjson = render_blessings_json(head);
  CHECK(hjson.find("\"scope\": \"head\",\n  \"commit\": \"9f2c4a1d3b5e708aab12cd34ef5678901234567a\",") !=
        std::string::npos);
  CHECK(hjson.find("\"prefixes\": [\n        \"http_parse/\",\n        \"lex/\"\n      ]") != std::string::npos);
  CHECK(render_blessings_markdown(head).find("| Commit | Prefixes | Issued |\n| --- | --- | --- |\n"
                                             "| 9f2c4a1d3b5e | http_parse/, lex/ | 2026-03-01T10:00:00Z |\n") !=
        std::string::npos);
  BlessingListing window;
  window.project = "textproc";
  window.window = true;
  window.blessings = {{criterion_set(), "http_parse/case", tip, "2026-02-01T09:00:00Z", std::nullopt, {}}};
  CHECK(render_blessings_text(window) ==
        "Most recent blessings for project textproc\n\n"
        "criterion/x86_64-unknown-linux-gnu/a1b2c3d4\n"
        "  http_parse/case  blessed at 9f2c4a1d3b5e (2026-02-01T09:00:00Z)\n");
  const auto wjson = render_blessings_json(window);
  CHECK(wjson.find("\"scope\": \"window\",\n  \"blessings\"") != std::string::npos);
  CHECK(wjson.find("\"prefixes\"") == std::string::npos);
  CHECK(render_blessings_markdown(window).rfind("# Most recent blessings for textproc\n\n## criterion", 0) == 0);
  BlessingListing none;
  none.project = "p";
  none.head_commit = tip;
  CHECK(render_blessings_text(none) == "No blessings recorded at commit 9f2c4a1d3b5e.\n");
  none.window = true;
  CHECK(render_blessings_text(none) == "No blessings in the analysis window.\n");
}

TEST_CASE("prune renders the plan, the verb of a dry run and blessing counts", "[prune]") {
  PrunePlan p;
  p.project = "textproc";
  p.target_ref = "main~50";
  p.dry_run = true;
  p.sets.push_back({criterion_set(),
                    {{commit_id('a'), 2, 1, {"k1", "k2", "k3"}}, {commit_id('b'), 1, 0, {"k4"}}}});
  CHECK(render_prune_text(p) ==
        "Prune plan for project textproc (target main~50)\n\n"
        "criterion/x86_64-unknown-linux-gnu/a1b2c3d4\n"
        "  3 runs (plus 1 blessing) across 2 commits\n"
        "    aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa  2 runs (plus 1 blessing)\n"
        "    bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb  1 run\n\n"
        "Would remove 3 runs (plus 1 blessing) across 1 discriminant set\n");
  p.dry_run = false;
  const auto md = render_prune_markdown(p);
  CHECK(md.rfind("# Prune plan for textproc (target main~50)\n\n## criterion/x86_64-unknown-linux-gnu/a1b2c3d4\n\n"
                 "3 runs (plus 1 blessing) across 2 commits\n\n| Commit | Runs | Blessings |\n| --- | --- | --- |\n",
                 0) == 0);
  CHECK(ends_with(md, "\n**Removed 3 runs (plus 1 blessing) across 1 discriminant set**\n"));
  const auto json = render_prune_json(p);
  CHECK(json.find("\"dry_run\": false,") != std::string::npos);
  CHECK(json.find("\"keys\": [\n            \"k1\",\n            \"k2\",\n            \"k3\"\n          ]") !=
        std::string::npos);
  CHECK(json.find("\"totals\": {\n    \"runs\": 3,\n    \"blessings\": 1,\n    \"discriminant_sets\": 1\n  }") !=
        std::string::npos);
  PrunePlan empty;
  empty.project = "p";
  empty.target_ref = "HEAD";
  CHECK(render_prune_text(empty) == "Prune plan for project p (target HEAD)\n\nNo run matches the selection.\n");
}
