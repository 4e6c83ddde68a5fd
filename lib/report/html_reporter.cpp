// The self-contained HTML report (report/html_reporter.hpp). The structure follows the full
// Markdown report (docs/formats.md#report-formats) with the outcome and coverage first; every
// sentence comes from report/prose.hpp so the HTML never words a verdict differently from the other
// formats.

#include "benchhist/report/html_reporter.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "benchhist/report/chart_spec.hpp"
#include "benchhist/report/prose.hpp"
#include "benchhist/report/svg_chart.hpp"
#include "benchhist/report/value_format.hpp"
#include "benchhist/version.hpp"
#include "render_common.hpp"

namespace benchhist::report {

namespace {

using svg::escape;

// ---- the page frame (shared by the analysis and the examine page) ------------------------

constexpr std::string_view page_css =
    ":root{color-scheme:light dark;--bg:#ffffff;--fg:#1f2328;--muted:#59636e;--border:#d1d9e0;--soft:#f6f8fa;"
    "--bad:#cf222e;--good:#1a7f37;--warn:#9a6700;--link:#0969da}"
    "@media (prefers-color-scheme:dark){:root{--bg:#0d1117;--fg:#e6edf3;--muted:#9198a1;--border:#3d444d;"
    "--soft:#151b23;--bad:#f85149;--good:#3fb950;--warn:#d29922;--link:#4493f8}}"
    "*{box-sizing:border-box}"
    "body{margin:0 auto;max-width:1000px;padding:16px;background:var(--bg);color:var(--fg);"
    "font:15px/1.5 system-ui,-apple-system,\"Segoe UI\",Roboto,sans-serif}"
    "h1{font-size:1.5em;margin:.2em 0 .4em;overflow-wrap:anywhere}"
    "h2{font-size:1.25em;margin:1.6em 0 .5em;border-bottom:1px solid var(--border);padding-bottom:.2em}"
    "h3{font-size:1.08em;margin:1.4em 0 .3em;overflow-wrap:anywhere}"
    "h4{font-size:1em;margin:1.2em 0 .3em}"
    "code{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:.9em;overflow-wrap:anywhere}"
    "a{color:var(--link)}"
    "p{margin:.4em 0}"
    ".muted{color:var(--muted)}"
    ".outcome{display:inline-block;padding:.1em .7em;border-radius:1em;font-weight:700;border:2px solid currentColor}"
    ".o-findings{color:var(--bad)}.o-clean{color:var(--good)}.o-partial,.o-insufficient_baseline{color:var(--warn)}"
    ".o-nothing_in_scope{color:var(--muted)}"
    "dl.facts{display:grid;grid-template-columns:max-content 1fr;gap:.1em 1em;margin:.8em 0}"
    "dl.facts dt{color:var(--muted)}dl.facts dd{margin:0;overflow-wrap:anywhere}"
    ".meter{height:.55em;background:var(--soft);border:1px solid var(--border);border-radius:.3em;overflow:hidden;"
    "max-width:22em;margin:.3em 0}.meter span{display:block;height:100%;background:var(--good)}"
    ".note{padding:.5em .8em;border-left:4px solid var(--border);background:var(--soft);white-space:pre-wrap;"
    "overflow-wrap:anywhere}.warning{border-left-color:var(--warn)}"
    "nav a{margin-right:1em}"
    "table{border-collapse:collapse;margin:.4em 0;font-size:.94em}"
    "th,td{border-bottom:1px solid var(--border);padding:.3em .6em;text-align:left;vertical-align:middle}"
    ".num{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}"
    ".scroll{overflow-x:auto}td code{overflow-wrap:normal;white-space:nowrap}"
    ".finding{border:1px solid var(--border);border-radius:8px;padding:.6em .9em .7em;margin:.9em 0;break-inside:avoid}"
    ".fhead{margin:0;font-weight:600;overflow-wrap:anywhere}.rank{color:var(--muted);margin-right:.4em}"
    ".headline{font-weight:700;margin:.1em 0}.bad{color:var(--bad)}.good{color:var(--good)}"
    ".detail{margin:.15em 0;color:var(--muted);overflow-wrap:anywhere}"
    "figure.plot{margin:.5em 0 0;overflow-x:auto}figure.plot>svg{min-width:440px}"
    "figcaption{font-size:.85em;color:var(--muted)}"
    "output.pick{display:block;font-size:.85em;white-space:pre-line;min-height:1.3em}"
    ".spark{display:block;width:120px;height:28px}"
    ".spark path{fill:none;stroke:var(--c-series);stroke-width:1.4;stroke-linecap:round;stroke-linejoin:round}"
    ".compact{min-height:60px}.compact .spark{width:100%;height:auto;min-width:440px}"
    "td.sp{width:128px;min-width:128px;height:36px}"
    "#filter{width:100%;max-width:30em;padding:.4em .6em;font:inherit;border:1px solid var(--border);"
    "border-radius:6px;background:var(--bg);color:var(--fg)}"
    "footer{margin-top:2.5em;color:var(--muted);font-size:.85em}"
    "@media (max-width:600px){body{padding:10px;font-size:14px}dl.facts{grid-template-columns:1fr}"
    "dl.facts dt{margin-top:.3em}th,td{padding:.25em .4em}}";

// Print: always the light scheme, no interactive parts, findings kept whole.
std::string print_css() {
  return "@media print{:root{color-scheme:light;--bg:#ffffff;--fg:#000000;--muted:#444c56;--border:#bbbbbb;"
         "--soft:#f4f4f4;--bad:#b00020;--good:#116329;--warn:#7a4e00;--link:#000000}" +
         svg::chart_palette_css(":root", false) +
         "#filter,nav,output.pick{display:none}body{max-width:none;padding:0;font-size:10.5pt}"
         "figure.plot>svg,.compact .spark{min-width:0}a{text-decoration:none}}";
}

// Draws the compact charts when they come into view (and all of them before printing), filters
// the series table, and shows a tapped point's tooltip under its chart (touch screens have no
// hover). The path data is validated before it is inserted.
constexpr std::string_view page_script = R"JS((function(){
'use strict';
var lazy=Array.prototype.slice.call(document.querySelectorAll('[data-d]'));
function draw(el){
  if(el.getAttribute('data-drawn'))return;
  var d=el.getAttribute('data-d')||'',vb=el.getAttribute('data-vb')||'0 0 120 28';
  if(!/^[Mlh0-9 -]*$/.test(d)||!/^[0-9 .]+$/.test(vb))return;
  el.setAttribute('data-drawn','1');
  el.innerHTML='<svg class="spark" viewBox="'+vb+'" preserveAspectRatio="none" aria-hidden="true"><path d="'+d+'"/></svg>';
}
if('IntersectionObserver' in window){
  var io=new IntersectionObserver(function(es){es.forEach(function(e){if(e.isIntersecting){draw(e.target);io.unobserve(e.target);}});},{rootMargin:'300px'});
  lazy.forEach(function(el){io.observe(el);});
}else{lazy.forEach(draw);}
window.addEventListener('beforeprint',function(){lazy.forEach(draw);});
var f=document.getElementById('filter');
if(f){
  var rows=Array.prototype.slice.call(document.querySelectorAll('#series tbody tr')),keys=null,shown=document.getElementById('shown');
  f.hidden=false;
  f.addEventListener('input',function(){
    if(!keys)keys=rows.map(function(r){return r.textContent.toLowerCase();});
    var q=f.value.trim().toLowerCase(),n=0;
    rows.forEach(function(r,i){var on=!q||keys[i].indexOf(q)>=0;r.hidden=!on;if(on)n++;});
    if(shown)shown.textContent=String(n);
  });
}
document.addEventListener('click',function(e){
  var t=e.target;if(!t||!t.classList||!t.classList.contains('c-pt'))return;
  var tip=t.querySelector('title'),fig=t.closest('figure'),out=fig&&fig.querySelector('output.pick');
  if(tip&&out)out.textContent=tip.textContent;
});
})();)JS";

std::string page_head(const std::string& title) {
  std::string out = "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
                    "<meta name=\"viewport\" content=\"width=device-width,initial-scale=1\">\n"
                    "<meta name=\"color-scheme\" content=\"light dark\">\n"
                    "<meta name=\"generator\" content=\"cargo-bench-history " +
                    std::string(tool_version) + "\">\n<title>" + escape(title) + "</title>\n<style>\n";
  out += page_css;
  out += "\n";
  out += svg::chart_palette_css(":root");
  out += "\n";
  out += svg::chart_css();
  out += "\n";
  out += print_css();
  out += "\n</style>\n</head>\n<body>\n";
  return out;
}

std::string page_foot(std::string_view what) {
  std::string out = "<footer>Generated by cargo-bench-history " + std::string(tool_version) + ". " +
                    std::string(what) + "</footer>\n<script>\n";
  out += page_script;
  out += "\n</script>\n</body>\n</html>\n";
  return out;
}

std::string code(const std::string& text) { return "<code>" + escape(text) + "</code>"; }

std::string note(const std::optional<std::string>& text, bool warning) {
  if (!text || text->empty()) return {};
  std::string t = *text;
  while (!t.empty() && t.back() == '\n') t.pop_back();
  return std::string("<p class=\"note") + (warning ? " warning" : "") + "\">" + escape(t) + "</p>\n";
}

std::string percent_of(std::uint64_t part, std::uint64_t whole) {
  if (whole == 0) return "0";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f", 100.0 * static_cast<double>(part) / static_cast<double>(whole));
  std::string s = buf;
  if (s.size() > 2 && s.compare(s.size() - 2, 2, ".0") == 0) s.erase(s.size() - 2);
  return s;
}

// ---- the analysis page -------------------------------------------------------------------

class HtmlWriter {
 public:
  HtmlWriter(const AnalysisReport& r, const HtmlOptions& o) : r_(r), o_(o) {
    line_ = r_.charts ? &r_.charts->line : nullptr;
  }

  std::string run() {
    out_ = page_head("Benchmark history analysis: " + r_.project);
    header();
    out_ += "<main>\n";
    coverage();
    findings();
    series_table();
    out_ += "</main>\n";
    out_ += page_foot(
        "The same analysis as the text, Markdown and JSON reports; <code>cargo bench-history examine</code> prints "
        "every stored point of a series.");
    return std::move(out_);
  }

 private:
  void header() {
    const auto& c = r_.census;
    const auto outcome = std::string(to_string(r_.outcome()));
    out_ += "<header>\n<h1>Benchmark history analysis: " + escape(r_.project) + "</h1>\n";
    std::string summary;
    if (!r_.findings.empty()) {
      summary = plural(r_.regressions(), "regression");
      if (r_.reports_improvements()) summary += ", " + plural(r_.improvements(), "improvement");
    } else {
      summary = verdict_sentence(c.coverage());
    }
    out_ += "<p><span class=\"outcome o-" + outcome + "\" id=\"outcome\">" + escape(outcome) + "</span> " +
            escape(summary) + "</p>\n";
    if (c.in_scope() > 0) {
      out_ += "<p id=\"judged\">In-scope series judged: <strong>" + std::to_string(c.judged) + " of " +
              std::to_string(c.in_scope()) + "</strong> (" + percent_of(c.judged, c.in_scope()) +
              "%)</p>\n<div class=\"meter\" aria-hidden=\"true\"><span style=\"width:" +
              percent_of(c.judged, c.in_scope()) + "%\"></span></div>\n";
    }
    if (r_.findings.empty())
      for (const auto& q : qualification_sentences(c)) out_ += "<p>" + escape(q) + "</p>\n";
    if (auto s = skipped_unreadable_sentence(c.skipped_unreadable); !s.empty())
      out_ += "<p id=\"skipped-unreadable\">" + escape(s) + "</p>\n";
    out_ += "<dl class=\"facts\">\n";
    fact("Commit", code(r_.context_commit) + (r_.context_dirty ? " + uncommitted changes" : ""));
    fact("Mode", escape(std::string(to_string(r_.mode))));
    fact("Runs analyzed", escape(format_run_span(r_.runs.runs, r_.runs.oldest, r_.runs.newest)));
    fact("Regressions", std::to_string(r_.regressions()));
    if (r_.reports_improvements()) fact("Improvements", std::to_string(r_.improvements()));
    if (c.count(UnjudgedReason::ignored) > 0)
      fact("Ignored by configuration", escape(plural(c.count(UnjudgedReason::ignored), "series")));
    out_ += "</dl>\n";
    out_ += note(r_.hint, false);
    out_ += note(r_.warning, true);
    out_ += "<nav><a href=\"#coverage\">Coverage</a><a href=\"#findings\">Findings (" +
            std::to_string(r_.findings.size()) + ")</a>";
    if (r_.charts) out_ += "<a href=\"#series\">Judged series (" + std::to_string(r_.charts->judged.size()) + ")</a>";
    out_ += "</nav>\n</header>\n";
  }

  void fact(const std::string& term, const std::string& html) {
    out_ += "<dt>" + escape(term) + "</dt><dd>" + html + "</dd>\n";
  }

  void coverage() {
    const auto& c = r_.census;
    out_ += "<section id=\"coverage\">\n<h2>Coverage</h2>\n";
    out_ += "<p>State: " + code(std::string(to_string(c.coverage()))) + "</p>\n";
    out_ += "<div class=\"scroll\"><table class=\"census\">\n<tbody>\n";
    auto row = [&](const std::string& what, std::uint64_t n) {
      out_ += "<tr><th scope=\"row\">" + escape(what) + "</th><td class=\"num\">" + std::to_string(n) + "</td></tr>\n";
    };
    row("Metric series accounted for", c.total());
    row("In scope", c.in_scope());
    row("Judged", c.judged);
    row("Unjudged (including out-of-scope series)", c.unjudged());
    out_ += "</tbody>\n</table></div>\n";
    if (c.unjudged() == 0) {
      out_ += "<p>Every accounted series was judged.</p>\n";
    } else {
      out_ += "<div class=\"scroll\"><table class=\"reasons\">\n<thead><tr><th>Unjudged reason</th><th>Token</th>"
              "<th class=\"num\">Metric series</th></tr></thead>\n<tbody>\n";
      for (auto reason : all_unjudged_reasons) {
        if (c.count(reason) == 0) continue;
        out_ += "<tr><td>" + escape(std::string(reason_phrase(reason))) + "</td><td>" +
                code(std::string(to_string(reason))) + "</td><td class=\"num\">" + std::to_string(c.count(reason)) +
                "</td></tr>\n";
      }
      out_ += "</tbody>\n</table></div>\n";
    }
    if (r_.ghosts_excluded > 0)
      out_ += "<p class=\"muted\">Ghost benchmarks (no longer measured at the analyzed commit) excluded: " +
              std::to_string(r_.ghosts_excluded) + ".</p>\n";
    out_ += "</section>\n";
  }

  void findings() {
    out_ += "<section id=\"findings\">\n<h2>Findings</h2>\n";
    if (r_.findings.empty()) {
      out_ += "<p>" + escape(verdict_sentence(r_.census.coverage())) + "</p>\n";
    } else {
      out_ += "<p class=\"muted\">Ranked by the size of the move, as in every report format. Hover or tap a point "
              "for its commit, value and date.</p>\n";
    }
    for (const auto* s : detail::sets_to_render(r_)) set_section(*s);
    out_ += "</section>\n";
  }

  void set_section(const SetReport& s) {
    const auto fs = r_.findings_in(s.set);
    out_ += "<section class=\"set\">\n<h3>" + code(s.set.label()) + "</h3>\n";
    std::string facts = "Runs: " + std::to_string(s.runs) + " \u00b7 Regressions: " +
                        std::to_string(r_.regressions_in(s.set));
    if (r_.reports_improvements()) facts += " \u00b7 Improvements: " + std::to_string(r_.improvements_in(s.set));
    out_ += "<p class=\"muted\">" + escape(facts) + " \u00b7 Filter: " + code(filter_arguments(s.set)) + "</p>\n";
    for (const auto& lag : ordered_lags(s.lags)) out_ += note(lag_warning(lag), true);
    if (r_.mode == AnalysisMode::branch)
      out_ += "<p><strong>Historical comparison:</strong> " +
              escape(historical_comparison_sentence(s.comparison, detail::any_included(fs))) + "</p>\n";
    std::vector<const Finding*> primary, other;
    detail::split_primary(fs, s.comparison.has_value(), primary, other);
    for (const auto* f : primary) finding(*f);
    if (!other.empty()) {
      out_ += "<h4>Additional excursions outside this comparison</h4>\n";
      for (const auto* f : other) finding(*f);
    }
    out_ += "</section>\n";
  }

  std::size_t rank_of(const Finding& f) const {
    return static_cast<std::size_t>(&f - r_.findings.data()) + 1;
  }

  void finding(const Finding& f) {
    const std::size_t rank = rank_of(f);
    const bool bad = f.direction == Direction::regression;
    out_ += "<article class=\"finding\" id=\"f" + std::to_string(rank) + "\">\n";
    out_ += "<p class=\"fhead\"><span class=\"rank\">#" + std::to_string(rank) + "</span>" +
            code(f.benchmark.qualified()) + "</p>\n";
    out_ += "<p class=\"headline " + std::string(bad ? "bad" : "good") + "\">" + escape(finding_headline(f)) + "</p>\n";
    out_ += "<p class=\"detail\">" + escape(finding_detail(f)) + "</p>\n";
    if (auto u = unmeasured_line(f, [](std::string_view s) { return code(std::string(s)); }); !u.empty())
      out_ += "<p class=\"detail unmeasured\">" + u + "</p>\n";
    if (auto b = blessing_line(f); !b.empty()) out_ += "<p class=\"detail\">" + escape(b) + "</p>\n";
    if (auto p = previous_regime_line(f); !p.empty()) out_ += "<p class=\"detail\">" + escape(p) + "</p>\n";
    if (f.chart && !f.chart->points.empty()) {
      if (rank <= o_.detailed_findings)
        detailed_chart(f);
      else
        compact_chart(f);
    }
    out_ += "</article>\n";
  }

  void detailed_chart(const Finding& f) {
    const auto spec = finding_chart_spec(f, line_);
    out_ += "<figure class=\"plot\">" + svg::render(spec, svg::Embedding::inline_html) + "\n<figcaption>" +
            escape(legend(f)) + "</figcaption><output class=\"pick\"></output></figure>\n";
  }

  // Past the detailed findings: the series line only, drawn when it scrolls into view.
  void compact_chart(const Finding& f) {
    const svg::SparkFrame frame{640, 120, 4, 160};
    const auto d = svg::path_data(svg::sparkline(f.chart->points, f.chart->target_index, frame));
    out_ += "<figure class=\"plot\"><div class=\"compact\" data-vb=\"0 0 640 120\" data-d=\"" + escape(d) +
            "\"></div><figcaption>Compact chart (this report has more than " + std::to_string(o_.detailed_findings) +
            " findings): the series in first-parent order. <code>examine</code> lists every point.</figcaption>"
            "</figure>\n";
  }

  std::string legend(const Finding& f) const {
    std::string s = "Dots: observations in first-parent order; a faint dashed link crosses commits without a "
                    "measurement.";
    bool dirty = false;
    for (const auto& p : f.chart->points) dirty = dirty || p.dirty;
    if (dirty) s += " Hollow dots: dirty snapshots.";
    switch (f.method) {
      case FindingMethod::change_point:
        s += " Grey line: the baseline level; coloured line: the latest level; dashed rule: the attributed commit.";
        break;
      case FindingMethod::drift: s += " Shaded: the accumulated window; dashed line: the fitted trend."; break;
      case FindingMethod::branch_excursion:
        s += " Shaded band: the observed current-base range; large dot: the context commit, with its excess beyond "
             "the nearest edge.";
        break;
    }
    if (f.chart->blessed_index) s += " Green rule: the blessing that re-baselined the series.";
    return s;
  }

  void series_table() {
    out_ += "<section id=\"series\">\n<h2>Judged series</h2>\n";
    if (!r_.charts) {
      out_ += "<p class=\"muted\">This report was rendered without the series data (pipeline::chart_data).</p>\n"
              "</section>\n";
      return;
    }
    const auto& judged = r_.charts->judged;
    out_ += "<p>Every series this analysis judged, with or without a finding: <strong id=\"shown\">" +
            std::to_string(judged.size()) + "</strong> of " + std::to_string(judged.size()) + " shown.</p>\n";
    out_ += "<p><input type=\"search\" id=\"filter\" placeholder=\"Filter by set, benchmark or metric\" "
            "aria-label=\"Filter the judged series\" hidden></p>\n";
    out_ += "<div class=\"scroll\"><table>\n<thead><tr><th>Set</th><th>Benchmark</th><th>Metric</th>"
            "<th class=\"num\">Points</th><th class=\"num\">Last point</th><th>Finding</th><th>Chart</th></tr></thead>\n"
            "<tbody>\n";
    for (const auto& s : judged) {
      out_ += "<tr><td>" + code(s.set.label()) + "</td><td>" + code(s.benchmark.qualified()) + "</td><td>" +
              escape(std::string(to_string(s.kind))) + "</td><td class=\"num\">" + std::to_string(s.points.size()) +
              "</td><td class=\"num\">";
      if (!s.points.empty())
        out_ += escape(format_value(s.points.back().value) + " " + std::string(unit_of(s.kind)));
      out_ += "</td><td>";
      if (s.finding && *s.finding < r_.findings.size()) {
        const auto& f = r_.findings[*s.finding];
        out_ += "<a href=\"#f" + std::to_string(*s.finding + 1) + "\" class=\"" +
                (f.direction == Direction::regression ? "bad" : "good") + "\">#" + std::to_string(*s.finding + 1) +
                " " + escape(format_percent(f.relative_delta)) + "</a>";
      } else {
        out_ += "<span class=\"muted\">none</span>";
      }
      out_ += "</td><td class=\"sp\" data-d=\"" + escape(svg::path_data(svg::sparkline(s.points, s.target_index))) +
              "\"></td></tr>\n";
    }
    out_ += "</tbody>\n</table></div>\n</section>\n";
  }

  const AnalysisReport& r_;
  const HtmlOptions& o_;
  const std::vector<LineCommit>* line_ = nullptr;
  std::string out_;
};

}  // namespace

std::string HtmlReporter::render(const AnalysisReport& report) const {
  report.check();
  return HtmlWriter(report, options_).run();
}

// ---- the examine page ----------------------------------------------------------------------

std::string render_examine_html(const ExamineData& d) {
  const std::string unit(unit_of(d.metric));
  std::string out = page_head("Data points for " + d.benchmark + " in " + d.project);
  out += "<header>\n<h1>Data points for " + code(d.benchmark) + "</h1>\n<p>Metric " +
         code(std::string(to_string(d.metric))) + " (" + escape(unit) + ") in project " + escape(d.project) +
         "</p>\n</header>\n<main>\n";
  if (d.empty()) out += "<p>No data point matches the selection.</p>\n";
  else {
    for (const auto& s : d.sets) {
      out += "<section class=\"set\">\n<h2>" + code(s.set.label()) + "</h2>\n";
      // The rows cover every first-parent commit of the range: they label the chart's indices.
      std::vector<LineCommit> line;
      std::vector<ChartPoint> points;
      for (const auto& row : s.rows) {
        if (line.size() <= row.index) line.resize(row.index + 1);
        line[row.index] = LineCommit{row.commit, row.committed, row.title};
        if (row.value) points.push_back({row.index, *row.value, row.dirty});
      }
      if (!points.empty()) {
        auto spec = chart_spec(points, std::max(s.target_index, points.back().index), d.metric, ChartOverlay{}, &line);
        spec.title = d.benchmark + " " + std::string(to_string(d.metric)) + " in " + s.set.label();
        out += "<figure class=\"plot\">" + svg::render(spec, svg::Embedding::inline_html) +
               "\n<figcaption>Every stored point in first-parent order; a faint dashed link crosses commits without "
               "a measurement; hollow dots are dirty snapshots. Hover or tap a point for its commit, value and date."
               "</figcaption><output class=\"pick\"></output></figure>\n";
      }
      out += "<div class=\"scroll\"><table>\n<thead><tr><th>Commit</th><th class=\"num\">Value</th><th>Kind</th>"
             "<th>Committed</th><th>Title</th></tr></thead>\n<tbody>\n";
      for (const auto& row : s.rows) {
        const std::string kind = !row.value ? "n/a" : row.dirty ? "dirty" : "clean";
        out += "<tr><td>" + code(std::string(short_id(row.commit))) + "</td><td class=\"num\">" +
               escape(row.value ? format_value(*row.value) : std::string("n/a")) + "</td><td>" + kind + "</td><td>" +
               escape(row.committed.value_or("")) + "</td><td>" + escape(row.title) + "</td></tr>\n";
      }
      out += "</tbody>\n</table></div>\n</section>\n";
    }
  }
  out += note(d.hint, false);
  out += note(d.warning, true);
  out += "</main>\n";
  out += page_foot("The same points as <code>examine</code>'s text, Markdown and JSON outputs.");
  return out;
}

}  // namespace benchhist::report
