// The HTML report: structure, self-containment, escaping, content rules shared with the other
// formats, determinism and the size of large reports.
#include <catch2/catch.hpp>

#include <string>

#include "benchhist/report/html_reporter.hpp"
#include "benchhist/report/markdown_reporter.hpp"
#include "benchhist/report/summary_reporter.hpp"
#include "benchhist/report/prose.hpp"
#include "benchhist/report/svg_chart.hpp"
#include "benchhist/report/value_format.hpp"
#include "html_check.hpp"
#include "report_fixtures.hpp"

using namespace report_test;
using html_check::count;

namespace {

bool contains(const std::string& haystack, const std::string& needle) { return haystack.find(needle) != std::string::npos; }
std::string escape_for_test(const std::string& s) { return svg::escape(s); }

ChartData line_for(const AnalysisReport& r, std::size_t commits) {
  ChartData d;
  for (std::size_t i = 0; i < commits; ++i)
    d.line.push_back({"c" + std::to_string(i) + std::string(38, '0'), "2026-06-01T00:00:00Z", "commit " + std::to_string(i)});
  for (std::size_t i = 0; i < r.findings.size(); ++i) {
    SeriesSketch s;
    s.set = r.findings[i].set;
    s.benchmark = r.findings[i].benchmark;
    s.kind = r.findings[i].kind;
    s.points = r.findings[i].chart->points;
    s.target_index = r.findings[i].chart->target_index;
    s.finding = i;
    d.judged.push_back(s);
  }
  return d;
}

void require_structure(const std::string& html) {
  const auto wf = html_check::well_formed(html);
  INFO(wf.what);
  REQUIRE(wf.ok);
  const auto sc = html_check::self_contained(html);
  INFO(sc.what);
  REQUIRE(sc.ok);
  CHECK(html.size() > 1000);
  CHECK(html.back() == '\n');
}

// The findings section's opening, to check the order of the page's parts.
std::size_t at(const std::string& html, const std::string& what) {
  const auto pos = html.find(what);
  INFO(what);
  REQUIRE(pos != std::string::npos);
  return pos;
}

}  // namespace

TEST_CASE("the HTML report is one well-formed, self-contained document with outcome, coverage, findings and series "
          "in that order",
          "[report][html]") {
  auto r = seed_findings_report();
  r.charts = line_for(r, 30);
  const auto html = HtmlReporter().render(r);
  require_structure(html);
  CHECK(html.rfind("<!DOCTYPE html>\n<html lang=\"en\">", 0) == 0);
  CHECK(at(html, "id=\"outcome\">findings<") < at(html, "In-scope series judged: <strong>5 of 8</strong>"));
  CHECK(at(html, "<strong>5 of 8</strong>") < at(html, "<section id=\"coverage\">"));
  CHECK(at(html, "<section id=\"coverage\">") < at(html, "<section id=\"findings\">"));
  CHECK(at(html, "<section id=\"findings\">") < at(html, "<section id=\"series\">"));
  // The census with every unjudged reason, by phrase and token.
  CHECK(contains(html, "<td>not measured at the analyzed context commit</td><td><code>ghost</code></td><td class=\"num\">2</td>"));
  CHECK(contains(html, "<code>ignored</code></td><td class=\"num\">1</td>"));
  CHECK(contains(html, "<code>too_few_points</code></td><td class=\"num\">3</td>"));
  CHECK(contains(html, "Ignored by configuration</dt><dd>1 series</dd>"));
  // Findings in rank order, with the shared prose and one chart each.
  CHECK(at(html, "id=\"f1\"") < at(html, "id=\"f2\""));
  CHECK(contains(html, escape_for_test(finding_detail(r.findings[0]))));
  CHECK(contains(html, "+29.57% wall_time"));
  CHECK(count(html, "<figure class=\"plot\"><svg") == 2);
  // Every point of both series is a mark with a tooltip naming its commit.
  CHECK(count(html, "<circle class=\"c-pt") == 20 + 30);
  CHECK(contains(html, "<title>c10" + std::string(9, '0') + " \u00b7 128.1 ns\ncommit 10\n2026-06-01T00:00:00Z</title>"));
  // The drift window and the change point's levels and rule.
  CHECK(count(html, "class=\"c-win\"") == 1);
  CHECK(count(html, "class=\"c-level c-baseline\"") == 1);
  CHECK(count(html, "class=\"c-rule c-split\"") == 1);
  // The series table: one row per judged series, each with a lazily drawn small chart.
  CHECK(count(html, "<td class=\"sp\" data-d=\"M") == 2);
  CHECK(contains(html, "<a href=\"#f1\" class=\"bad\">#1 +29.57%</a>"));
}

TEST_CASE("benchmark names with markup characters are escaped everywhere", "[report][html]") {
  auto r = seed_findings_report();
  r.findings[0].benchmark = BenchmarkId({"<script>alert(1)</script>", "a&b \"q\" 'r'"});
  r.project = "p<&>\"'";
  r.hint = "hint with <b> & 'quotes'";
  r.charts = line_for(r, 30);
  r.charts->line[3].subject = "subject </title><script>x</script>";
  const auto html = HtmlReporter().render(r);
  require_structure(html);
  CHECK_FALSE(contains(html, "<script>alert"));
  CHECK_FALSE(contains(html, "</title><script>x"));
  CHECK(contains(html, "&lt;script&gt;alert(1)&lt;/script&gt;/a&amp;b &quot;q&quot; &#39;r&#39;"));
  CHECK(contains(html, "<title>Benchmark history analysis: p&lt;&amp;&gt;&quot;&#39;</title>"));
  CHECK(contains(html, "hint with &lt;b&gt; &amp; &#39;quotes&#39;"));
  CHECK(count(html, "<script>") == 1);  // only the report's own script
}

TEST_CASE("rendering is a pure function of the report", "[report][html]") {
  auto r = seed_findings_report();
  r.charts = line_for(r, 30);
  CHECK(HtmlReporter().render(r) == HtmlReporter().render(r));
  CHECK(HtmlReporter().label() == "HTML");
}

TEST_CASE("a silent report states the verdict and its qualification like the other formats", "[report][html]") {
  const auto r = seed_silent_report();
  const auto html = HtmlReporter().render(r);
  require_structure(html);
  CHECK(contains(html, "id=\"outcome\">partial</span> No notable changes detected among the series that were judged."));
  for (const auto& q : qualification_sentences(r.census)) CHECK(contains(html, q));
  CHECK(count(html, "<article") == 0);
  // Without chart data the report says so instead of an empty table.
  CHECK(contains(html, "rendered without the series data"));
}

TEST_CASE("a branch report groups findings by set with lags, the historical comparison and additional excursions",
          "[report][html]") {
  auto r = branch_report();
  const auto html = HtmlReporter().render(r);
  require_structure(html);
  CHECK(contains(html, "Improvements</dt><dd>1</dd>"));
  CHECK(contains(html, " + uncommitted changes"));
  CHECK(contains(html, "Warning: comparison base is 3 commits behind base (discriminant set mismatch)"));
  CHECK(contains(html, "<strong>Historical comparison:</strong> None of 10 comparable base commits"));
  CHECK(at(html, "id=\"f1\"") < at(html, "Additional excursions outside this comparison"));
  CHECK(at(html, "Additional excursions outside this comparison") < at(html, "id=\"f2\""));
  CHECK(contains(html, "The branch value matches the regime preceding base commit the current boundary."));
  // The observed range band and the tip; the second finding has no chart.
  CHECK(count(html, "class=\"c-band\"") == 1);
  CHECK(count(html, "class=\"c-pt tip\"") == 1);
  CHECK(count(html, "<figure class=\"plot\"><svg") == 1);
  CHECK(contains(html, "Warning: this analysis included dirty runs on top of the base branch."));
}

TEST_CASE("large reports stay a few megabytes: later findings and the series table get compact charts",
          "[report][html]") {
  AnalysisReport r = history_base();
  r.census.judged = 2000;
  r.sets.push_back({criterion_set(), 200, 2000, {}, std::nullopt});
  ChartData d;
  for (std::size_t i = 0; i < 200; ++i)
    d.line.push_back({std::string(40, "0123456789abcdef"[i % 16]), "2026-06-01T00:00:00Z", "subject of commit " + std::to_string(i)});
  auto series = [](std::size_t k) {
    std::vector<ChartPoint> pts;
    for (std::size_t i = 0; i < 200; ++i)
      pts.push_back({i, 1000.0 + static_cast<double>((i * 37 + k) % 23) + (i >= 150 ? 300.0 : 0.0)});
    return pts;
  };
  for (std::size_t k = 0; k < 2000; ++k) {
    SeriesSketch s;
    s.set = criterion_set();
    s.benchmark = BenchmarkId({"group" + std::to_string(k / 100), "bench_" + std::to_string(k)});
    s.points = series(k);
    s.target_index = 199;
    d.judged.push_back(std::move(s));
  }
  auto with_findings = [&](std::size_t n) {
    AnalysisReport x = r;
    x.charts = d;
    for (std::size_t k = 0; k < n; ++k) {
      Finding f;
      f.set = criterion_set();
      f.benchmark = x.charts->judged[k].benchmark;
      f.method = FindingMethod::change_point;
      f.baseline = 1011;
      f.latest = 1311;
      f.relative_delta = 0.29;
      f.commit = x.charts->line[150].id;
      f.chart = FindingChart{x.charts->judged[k].points, 199, 150, std::nullopt};
      x.charts->judged[k].finding = k;
      x.findings.push_back(f);
    }
    return HtmlReporter().render(x);
  };
  const auto typical = with_findings(20);
  require_structure(typical);
  INFO("typical size " << typical.size());
  CHECK(typical.size() < 2'500'000);  // measured 1.64 MB
  CHECK(count(typical, "<td class=\"sp\" data-d=\"M") == 2000);
  CHECK(count(typical, "<figure class=\"plot\"><svg") == 20);

  const auto every = with_findings(2000);
  INFO("every-series-moved size " << every.size());
  CHECK(every.size() < 7'500'000);  // measured 6.5 MB
  CHECK(count(every, "<figure class=\"plot\"><svg") == 100);
  CHECK(count(every, "<div class=\"compact\"") == 1900);
}

TEST_CASE("the examine page charts every stored point with dirty snapshots marked and tabulates the rows",
          "[report][html]") {
  ExamineData d;
  d.project = "p";
  d.benchmark = "parse/<big>";
  d.metric = MetricKind::wall_time;
  ExamineSet s;
  s.set = criterion_set();
  s.target_index = 4;
  s.rows = {{"a" + std::string(39, '1'), 0, 10.0, false, "first", "2026-06-01T00:00:00Z"},
            {"b" + std::string(39, '2'), 1, std::nullopt, false, "no run", "2026-06-01T01:00:00Z"},
            {"c" + std::string(39, '3'), 2, 11.0, false, "third", std::nullopt},
            {"c" + std::string(39, '3'), 2, 15.0, true, "third", std::nullopt},
            {"d" + std::string(39, '4'), 3, 12.0, false, "fourth & last", std::nullopt}};
  d.sets.push_back(s);
  const auto html = render_examine_html(d);
  require_structure(html);
  CHECK(contains(html, "<h1>Data points for <code>parse/&lt;big&gt;</code></h1>"));
  CHECK(count(html, "<circle class=\"c-pt") == 4);
  CHECK(count(html, "<circle class=\"c-pt dirty\"") == 1);
  CHECK(count(html, "class=\"c-gap\"") == 1);  // commit b has no run
  CHECK(contains(html, "<td class=\"num\">n/a</td><td>n/a</td>"));
  CHECK(contains(html, "<td>dirty</td>"));
  CHECK(contains(html, "fourth &amp; last"));
  CHECK(render_examine_html(d) == html);

  ExamineData empty = d;
  empty.sets.clear();
  empty.hint = "nothing";
  const auto e = render_examine_html(empty);
  require_structure(e);
  CHECK(contains(e, "No data point matches the selection."));
}

TEST_CASE("a change point with unmeasured commits before it says so in the HTML, the Markdown and the summary the "
          "findings issue shows",
          "[report][html][markdown]") {
  auto r = seed_findings_report();
  r.charts = line_for(r, 30);
  r.findings[0].commit = "c10" + std::string(37, '0');
  r.findings[0].unmeasured_before = UnmeasuredGap{"c07" + std::string(37, '0'), 2};
  const std::string gap = ": 2 unmeasured commits \u2014 ";
  CHECK(unmeasured_line(r.findings[0]) ==
        "between c07000000000 and c10000000000" + gap + "cargo bench-history bisect pins it");
  CHECK(unmeasured_line(r.findings[1]).empty());  // the drift has none

  const auto html = HtmlReporter().render(r);
  require_structure(html);
  CHECK(count(html, "class=\"detail unmeasured\"") == 1);
  CHECK(contains(html, "<p class=\"detail unmeasured\">between <code>c07000000000</code> and <code>c10000000000</code>" +
                           gap + "<code>cargo bench-history bisect</code> pins it</p>"));
  // Inside the change point's own article, after its detail line.
  CHECK(at(html, "id=\"f1\"") < at(html, "detail unmeasured"));
  CHECK(at(html, "detail unmeasured") < at(html, "id=\"f2\""));

  const std::string md_line = "\nbetween `c07000000000` and `c10000000000`" + gap + "`cargo bench-history bisect` pins it\n";
  for (const std::string& md : {MarkdownReporter().render(r), SummaryReporter().render(r)}) {
    CHECK(contains(md, md_line));
    CHECK(md.find(md_line) > md.find("somewhere near c10"));
  }

  r.findings[0].unmeasured_before.reset();
  CHECK_FALSE(contains(HtmlReporter().render(r), "unmeasured"));
  CHECK_FALSE(contains(SummaryReporter().render(r), "unmeasured"));
}
