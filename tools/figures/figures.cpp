// The documentation's figures and tables (figures.hpp). Every verdict, number and report excerpt
// here is computed by the product: the example catalogue judged by the history family path or
// the branch judge, the example analysis run through the real pipeline and reporters.

#include "figures.hpp"

#include <algorithm>
#include <fstream>
#include <set>
#include <sstream>

#include "benchhist/detect/example_series.hpp"
#include "benchhist/detect/stats.hpp"
#include "benchhist/report/chart_spec.hpp"
#include "benchhist/report/html_reporter.hpp"
#include "benchhist/report/markdown_reporter.hpp"
#include "benchhist/report/prose.hpp"
#include "benchhist/report/svg_chart.hpp"
#include "benchhist/report/text_reporter.hpp"
#include "benchhist/report/value_format.hpp"
#include "example_report.hpp"

namespace benchhist::figures {

namespace fs = std::filesystem;
namespace ex = detect::examples;
using report::format_percent;
using report::format_value;

namespace {

// ---------------------------------------------------------------- catalogue access

// A history example by name, recorded as used by the rendering (Rendering::examples).
const ex::HistoryExample& use_history(Rendering& out, std::string_view name) {
  const auto& e = ex::history_example(name);
  out.examples.push_back(e.name);
  return e;
}

// ---------------------------------------------------------------- gate ladders

// The order each history detector applies its gates (lib/detect/history.cpp), so a table can
// show the rungs a candidate never reached.
const std::vector<std::string> change_point_gates{"split_located",  "min_regime",        "non_zero_delta",
                                                  "relative_floor", "absolute_floor",    "residual_noise",
                                                  "regime_separation", "current_level", "interval_disjoint",
                                                  "selection_adjustment", "significance"};
const std::vector<std::string> drift_gates{"min_series_points", "significance",  "non_zero_delta",
                                           "relative_floor",    "absolute_floor", "residual_noise",
                                           "current_level",     "slope_within_levels", "interval_noise_band"};

// How a gate compares its computed value with its demand.
std::string comparator(const std::string& gate) {
  if (gate == "non_zero_delta" || gate == "residual_noise" || gate == "interval_noise_band") return "> ";
  if (gate == "significance") return "< ";
  return "\u2265 ";
}

std::string demand_of(const detect::Gate& g) {
  if (g.name == "split_located" || g.name == "interval_disjoint") return "must hold";
  if (g.name == "selection_adjustment") return "(corrects the chance level)";
  if (!g.threshold) return "\u2014";
  return comparator(g.name) + format_value(*g.threshold);
}

std::string computed_of(const detect::Gate& g) {
  if (g.name == "split_located") return g.passed ? "a split exists" : "no split";
  if (g.name == "interval_disjoint") return g.passed ? "disjoint" : "overlapping";
  if (g.name == "selection_adjustment" && g.value && g.threshold)
    return format_value(*g.threshold) + " \u2192 " + format_value(*g.value);
  return g.value ? format_value(*g.value) : "\u2014";
}

std::string ladder_table(const detect::GateLadder& ladder, const std::vector<std::string>& order) {
  std::string out = "| Gate | Demand | Computed | Verdict |\n| --- | --- | --- | --- |\n";
  const auto& logged = ladder.gates();
  std::size_t j = 0;
  bool declined = false;
  for (std::size_t i = 0; i < order.size(); ++i) {
    const std::string& name = order[i];
    if (j < logged.size() && logged[j].name == name) {
      const auto& g = logged[j++];
      out += "| `" + name + "` | " + demand_of(g) + " | " + computed_of(g) + " | " +
             (g.passed ? "passed" : "**declined**") + " |\n";
      if (!g.passed) declined = true;
      continue;
    }
    std::string verdict;
    if (declined)
      verdict = "not run";
    else if (j < logged.size())
      verdict = "skipped (nothing to check)";  // a later gate ran: this one did not apply
    else if (name == "selection_adjustment" || name == "significance")
      verdict = "not run (drift fitted better)";
    else
      verdict = "skipped (nothing to check)";
    out += "| `" + name + "` | | | " + verdict + " |\n";
  }
  return out;
}

const detect::Gate* first_declined(const detect::GateLadder& l) {
  for (const auto& g : l.gates())
    if (!g.passed) return &g;
  return nullptr;
}

std::string stop_phrase(const detect::Gate& g) {
  return "`" + g.name + "` (computed " + computed_of(g) + " against a demand of " + demand_of(g) + ")";
}

// ---------------------------------------------------------------- verdict sentences

const detect::Finding* finding_of(const detect::HistoryFamily& family) {
  for (const auto& f : family.result.findings)
    if (f.series == 0) return &f;
  return nullptr;
}

std::string commit_name(std::size_t i) { return "commit" + std::to_string(i); }

struct Verdict {
  std::string caption;  // one short line under the figure
  std::string text;     // the Markdown paragraph under the figure
};

Verdict history_verdict(const detect::HistoryFamily& family) {
  const auto& j = family.judgements[0];
  if (const auto* f = finding_of(family)) {
    const auto& c = f->candidate;
    const std::string pct = format_percent(c.relative_delta);
    if (c.method == benchhist::FindingMethod::change_point) {
      const std::string where = commit_name(c.point_index);
      return {"Reported: " + pct + " via change point, somewhere near " + where,
              "**Reported.** A " + std::string(to_string(c.direction)) + " of " + pct +
                  " via change point, somewhere near " + where + ". The level moved from " + format_value(c.baseline) +
                  " to " + format_value(c.latest) + "."};
    }
    const std::string window = commit_name(*c.window_start_index) + " \u2192 " + commit_name(c.point_index);
    return {"Reported: " + pct + " via drift, accumulated " + window,
            "**Reported.** A " + std::string(to_string(c.direction)) + " of " + pct + " via drift, accumulated " +
                window + ". The fitted line moved from " + format_value(c.baseline) + " to " + format_value(c.latest) +
                "."};
  }
  if (j.unjudged)
    return {"Not judged: " + std::string(to_string(*j.unjudged)),
            "**Not judged** (`" + std::string(to_string(*j.unjudged)) + "`)."};
  if (j.candidate) {
    const auto& c = *j.candidate;
    if (c.direction == benchhist::Direction::improvement)
      return {"Nothing reported: an improvement (history reports regressions)",
              "**Nothing reported.** The candidate is an improvement, and history mode reports regressions only."};
    const double bar = detect::bh_rank_threshold(1, family.result.family_size, detect::target_false_discovery_rate);
    return {"Nothing reported: dropped by the false-discovery correction",
            "**Nothing reported.** The " + std::string(c.method == benchhist::FindingMethod::change_point ? "change point" : "drift") +
                " cleared every gate with chance level " + format_value(c.chance_level) +
                ", but the false-discovery bar at rank 1 in a family of " + std::to_string(family.result.family_size) +
                " judged series is " + format_value(bar) + "."};
  }
  std::vector<std::string> parts, short_parts;
  for (const auto& [ladder, label] : {std::pair{&j.change_point, "change-point"}, std::pair{&j.drift, "drift"}}) {
    if (const auto* g = first_declined(*ladder)) {
      parts.push_back("the " + std::string(label) + " candidate stopped at " + stop_phrase(*g));
      short_parts.push_back(std::string(label) + " stopped at " + g->name);
    }
  }
  std::string text = "**Nothing reported.** ";
  for (std::size_t i = 0; i < parts.size(); ++i) {
    std::string p = parts[i];
    if (i == 0) p[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(p[0])));
    text += (i ? "; " : "") + p;
  }
  text += ".";
  std::string caption = "Nothing reported: ";
  for (std::size_t i = 0; i < short_parts.size(); ++i) caption += (i ? ", " : "") + short_parts[i];
  return {caption, text};
}

// ---------------------------------------------------------------- figures

std::vector<report::LineCommit> named_line(std::size_t n, const std::string& prefix) {
  std::vector<report::LineCommit> line;
  for (std::size_t i = 0; i < n; ++i) line.push_back({prefix + std::to_string(i), std::nullopt, ""});
  return line;
}

std::string figure_block(const std::string& name, const std::string& alt, const std::string& text) {
  return "![" + alt + "](figures/" + name + ".svg)\n\n" + text + "\n";
}

void history_figure(const ex::HistoryExample& e, Rendering& out) {
  out.examples.push_back(e.name);
  const auto family = ex::judge(e, 2);
  const auto& j = family.judgements[0];
  std::vector<report::ChartPoint> points;
  for (std::size_t i = 0; i < e.values.size(); ++i) points.push_back({i, e.values[i]});
  const auto line = named_line(e.values.size(), "commit");
  report::ChartOverlay overlay;
  if (const auto* f = finding_of(family)) {
    const auto& c = f->candidate;
    overlay.method = c.method == benchhist::FindingMethod::change_point ? benchhist::FindingMethod::change_point
                                                               : benchhist::FindingMethod::drift;
    overlay.direction = c.direction == benchhist::Direction::regression ? benchhist::Direction::regression
                                                                      : benchhist::Direction::improvement;
    overlay.baseline = c.baseline;
    overlay.latest = c.latest;
    overlay.analysed_from = j.view.offset;
    if (c.method == benchhist::FindingMethod::change_point) overlay.split_index = c.point_index;
  }
  auto spec = report::chart_spec(points, points.size() - 1, e.kind, overlay, &line);
  const auto verdict = history_verdict(family);
  spec.title = e.summary;
  spec.caption = {verdict.caption};
  out.files.push_back({std::string(figures_dir) + "/" + e.name + ".svg",
                       report::svg::render(spec, report::svg::Embedding::standalone) + "\n"});
  out.blocks.push_back({"figure:" + e.name, figure_block(e.name, e.summary, verdict.text)});
}

void branch_figure(const ex::BranchExample& e, Rendering& out) {
  out.examples.push_back(e.name);
  const auto j = ex::judge(e);
  const std::size_t n = e.base.size();
  std::vector<report::ChartPoint> points;
  for (std::size_t i = 0; i < n; ++i) points.push_back({i, e.base[i]});
  points.push_back({n, e.tip});
  auto line = named_line(n, "c");
  line.push_back({"branch-tip", std::nullopt, ""});
  const auto& x = j.excursion;
  report::ChartOverlay overlay;
  overlay.method = benchhist::FindingMethod::branch_excursion;
  overlay.quiet = !j.finding;
  overlay.direction = j.finding && j.finding->direction == benchhist::Direction::improvement
                          ? benchhist::Direction::improvement
                          : benchhist::Direction::regression;
  overlay.baseline = x.edge.value_or(e.tip);
  overlay.latest = e.tip;
  overlay.range = std::pair<double, double>{x.reference_min, x.reference_max};
  overlay.range_from = j.current_regime_start_index;
  overlay.tip_index = n;
  auto spec = report::chart_spec(points, n, e.kind, overlay, &line);
  const std::string range = format_value(x.reference_min) + "\u2013" + format_value(x.reference_max);
  std::string caption, text;
  const std::string regime =
      j.current_regime_start_index && *j.current_regime_start_index > 0
          ? " The current base regime starts at c" + std::to_string(*j.current_regime_start_index) +
                "; the older observations are not part of the range."
          : "";
  if (const auto& f = j.finding) {
    const auto dir = f->direction;
    caption = "Reported: " + std::string(to_string(dir)) + ", " + format_value(e.tip) + " outside " + range +
              " (excess " + report::format_signed_value(f->delta) + ")";
    text = "**Reported.** A" + std::string(dir == benchhist::Direction::improvement ? "n " : " ") +
           std::string(to_string(dir)) + " at the context commit: " + format_value(e.tip) + " is " +
           report::branch_relation(e.kind, dir) + " " + std::to_string(f->reference_count) +
           " current-base observations (" + range + "); the excess beyond the nearest edge is " +
           report::format_signed_value(f->delta) + " (" + format_percent(f->relative_delta) + ")." + regime;
  } else if (x.relation == detect::Relation::inside) {
    caption = "Nothing reported: " + format_value(e.tip) + " is inside the observed range " + range;
    text = "**Nothing reported.** The context value " + format_value(e.tip) + " lies inside the observed range of the " +
           std::to_string(x.reference_count) + " current-base observations, " + range + "." + regime;
  } else {
    const auto* g = first_declined(x.gates);
    caption = "Nothing reported: outside the range, stopped at " + (g ? g->name : std::string("a gate"));
    text = "**Nothing reported.** The context value " + format_value(e.tip) + " is outside the observed range " + range +
           ", but the excursion stopped at " + (g ? stop_phrase(*g) : std::string("a gate")) + "." + regime;
  }
  spec.title = e.summary;
  spec.caption = {caption};
  out.files.push_back({std::string(figures_dir) + "/" + e.name + ".svg",
                       report::svg::render(spec, report::svg::Embedding::standalone) + "\n"});
  out.blocks.push_back({"figure:" + e.name, figure_block(e.name, e.summary, text)});
}

// ---------------------------------------------------------------- tables

void ladder_blocks(Rendering& out) {
  for (const char* name : {"ladder-pass", "ladder-declined", "fresh-step-landing", "loaded-excursion"}) {
    const auto& e = use_history(out, name);
    const auto family = ex::judge(e, 2);
    const auto& j = family.judgements[0];
    std::string b = "*" + e.summary + ".* " + history_verdict(family).text + "\n\nChange point:\n\n" +
                    ladder_table(j.change_point, change_point_gates) + "\nDrift:\n\n" +
                    ladder_table(j.drift, drift_gates);
    out.blocks.push_back({"ladder:" + std::string(name), b});
  }
}

void floor_block(Rendering& out) {
  std::string b = "| Series | Move | Relative (demand \u2265 " + format_value(detect::practical_relative) +
                  ") | Absolute (demand \u2265 " + format_value(detect::absolute_floor(MetricKind::wall_time)) +
                  " ns) | Verdict |\n| --- | --- | --- | --- | --- |\n";
  for (const char* name : {"small-timing", "large-timing"}) {
    const auto& e = use_history(out, name);
    const auto family = ex::judge(e, 2);
    const auto& l = family.judgements[0].change_point;
    const auto* rel = l.find("relative_floor");
    const auto* abs = l.find("absolute_floor");
    auto cell = [](const detect::Gate* g) {
      if (!g || !g->value) return std::string("not run");
      return format_value(*g->value) + (g->passed ? " (passes)" : " (**declines**)");
    };
    b += "| " + e.summary + " | " + (abs && abs->value ? format_value(*abs->value) + " ns" : std::string("\u2014")) +
         " | " + cell(rel) + " | " + cell(abs) + " | " + (ex::reported(family) ? "reported" : "nothing reported") +
         " |\n";
  }
  out.blocks.push_back({"floors", b});
}

void arbitration_block(Rendering& out) {
  std::string b = "| Series | Typical distance from the step | from the line | Candidates | Model kept |\n"
                  "| --- | --- | --- | --- | --- |\n";
  for (const char* name : {"clean-step", "multi-step", "slow-ramp"}) {
    const auto& e = use_history(out, name);
    const auto cp = detect::change_point_cheap_gates(e.values, {}, e.kind);
    const auto dr = detect::drift_detector(e.values, {}, e.kind, {}, cp.level_start);
    const auto family = ex::judge(e, 2);
    const auto& j = family.judgements[0];
    // Arbitration only happens when both ladders produced a candidate; say which did, so the
    // table never implies a comparison that a gate had already made unnecessary.
    std::string candidates;
    const auto* cp_stop = first_declined(j.change_point);
    const auto* dr_stop = first_declined(j.drift);
    if (!cp_stop && !dr_stop)
      candidates = "step and line";
    else if (!cp_stop)
      candidates = "step only (the line stopped at `" + dr_stop->name + "`)";
    else if (!dr_stop)
      candidates = "line only (the step stopped at `" + cp_stop->name + "`)";
    else
      candidates = "none";
    std::string kept = "neither";
    if (j.candidate) kept = j.candidate->method == benchhist::FindingMethod::change_point ? "step (change point)" : "line (drift)";
    b += "| `" + e.name + "` | " + (cp.step_residual ? format_value(*cp.step_residual) : std::string("\u2014")) + " | " +
         (dr.line_residual ? format_value(*dr.line_residual) : std::string("\u2014")) + " | " + candidates + " | " +
         kept + " |\n";
  }
  out.blocks.push_back({"arbitration", b});
}

void family_blocks(Rendering& out) {
  auto row = [&out](std::string_view name) {
    const auto& e = use_history(out, name);
    const auto family = ex::judge(e, 2);
    const auto& j = family.judgements[0];
    const double bar = detect::bh_rank_threshold(1, family.result.family_size, detect::target_false_discovery_rate);
    const std::string chance = j.candidate ? format_value(j.candidate->chance_level) : std::string("\u2014");
    return "| " + std::to_string(e.values.size()) + " | " + std::to_string(family.result.family_size) + " | " + chance +
           " | " + format_value(bar) + " | " + (ex::reported(family) ? "reported" : "nothing reported") + " |\n";
  };
  const std::string head = "| Points | Judged family | Chance level | Rank-1 bar (q / m) | Verdict |\n"
                           "| --- | --- | --- | --- | --- |\n";
  std::string small = head;
  for (const char* name : {"perfect-10-step-family-6", "perfect-10-step-family-7"}) small += row(name);
  out.blocks.push_back({"family-size", small});
  std::string lone = head;
  for (const char* name : {"lone-step-18-family-2000", "lone-step-20-family-2000", "lone-step-22-family-2000"})
    lone += row(name);
  out.blocks.push_back({"lone-step", lone});

  // The step-up procedure on five chance levels among 12 judged series.
  const std::vector<double> p{0.002, 0.011, 0.031, 0.033, 0.045};
  const auto keep = detect::benjamini_hochberg(p, 12, detect::target_false_discovery_rate);
  std::string st = "| Rank | Chance level | Bar (rank / 12 \u00d7 " + format_value(detect::target_false_discovery_rate) +
                   ") | Below its bar | Kept |\n| --- | --- | --- | --- | --- |\n";
  for (std::size_t k = 0; k < p.size(); ++k) {
    const double bar = detect::bh_rank_threshold(k + 1, 12, detect::target_false_discovery_rate);
    st += "| " + std::to_string(k + 1) + " | " + format_value(p[k]) + " | " + format_value(bar) + " | " +
          (p[k] <= bar ? "yes" : "no") + " | " + (keep[k] ? "kept" : "dropped") + " |\n";
  }
  out.blocks.push_back({"staircase", st});
}

void example_report_blocks(Rendering& out) {
  const auto result = example_analysis();
  const auto& r = result.report;
  const auto text = report::TextReporter().render(r);
  out.blocks.push_back({"example-text", "```text\n" + text + "```\n"});
  const auto md = report::MarkdownReporter().render(r);
  const auto at = md.find("## Coverage");
  out.blocks.push_back({"example-census", "```markdown\n" + md.substr(at == std::string::npos ? 0 : at) + "```\n"});
  out.files.push_back({std::string(figures_dir) + "/example-report.html", report::HtmlReporter().render(r)});
  if (!r.findings.empty()) {
    auto spec = report::finding_chart_spec(r.findings.front(), &r.charts->line);
    spec.caption = {report::finding_headline(r.findings.front()) + " \u00b7 " + report::finding_detail(r.findings.front())};
    out.files.push_back({std::string(figures_dir) + "/example-finding.svg",
                         report::svg::render(spec, report::svg::Embedding::standalone) + "\n"});
    out.blocks.push_back({"figure:example-finding",
                          figure_block("example-finding", "The example report's first finding, " +
                                                              r.findings.front().benchmark.qualified(),
                                       "The chart of the report's first finding, exactly as the HTML report draws it.")});
  }
}

// ---------------------------------------------------------------- files

std::string read(const fs::path& p, bool& ok) {
  std::ifstream in(p, std::ios::binary);
  ok = static_cast<bool>(in);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::vector<fs::path> doc_pages(const fs::path& root) {
  std::vector<fs::path> pages;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(root / docs_dir, ec))
    if (e.is_regular_file() && e.path().extension() == ".md") pages.push_back(e.path());
  std::sort(pages.begin(), pages.end());
  return pages;
}

std::string rel_path(const fs::path& root, const fs::path& p) { return fs::relative(p, root).generic_string(); }

}  // namespace

Rendering render_all() {
  Rendering out;
  for (const auto& e : ex::history_examples()) {
    // The family-size and lone-step examples are tables, not figures.
    if (e.name.rfind("perfect-", 0) == 0 || e.name.rfind("lone-step-", 0) == 0 || e.name == "ladder-pass") continue;
    history_figure(e, out);
  }
  for (const auto& e : ex::branch_examples()) branch_figure(e, out);
  ladder_blocks(out);
  floor_block(out);
  arbitration_block(out);
  family_blocks(out);
  example_report_blocks(out);
  std::sort(out.examples.begin(), out.examples.end());
  out.examples.erase(std::unique(out.examples.begin(), out.examples.end()), out.examples.end());
  return out;
}

std::string apply_blocks(const std::string& page, const std::vector<Block>& blocks, std::string_view page_name,
                         std::vector<std::string>& problems) {
  static const std::string begin = "<!-- figures:begin ";
  static const std::string end = "<!-- figures:end ";
  std::string out;
  std::istringstream in(page);
  std::string line;
  std::optional<std::string> open;  // the block being replaced
  while (std::getline(in, line)) {
    if (line.rfind(begin, 0) == 0 && line.size() > begin.size() + 4 && line.compare(line.size() - 4, 4, " -->") == 0) {
      const std::string name = line.substr(begin.size(), line.size() - begin.size() - 4);
      if (open) problems.push_back(std::string(page_name) + ": block \"" + *open + "\" has no end marker before \"" + name + "\"");
      out += line + "\n";
      const auto it = std::find_if(blocks.begin(), blocks.end(), [&](const Block& b) { return b.name == name; });
      if (it == blocks.end()) {
        problems.push_back(std::string(page_name) + ": unknown figures block \"" + name +
                           "\" (docs-figures renders no block of that name)");
        open.reset();
        continue;
      }
      out += it->content;
      open = name;
      continue;
    }
    if (line.rfind(end, 0) == 0 && line.size() > end.size() + 4 && line.compare(line.size() - 4, 4, " -->") == 0) {
      const std::string name = line.substr(end.size(), line.size() - end.size() - 4);
      if (open && *open != name)
        problems.push_back(std::string(page_name) + ": end marker \"" + name + "\" closes block \"" + *open + "\"");
      open.reset();
      out += line + "\n";
      continue;
    }
    if (!open) out += line + "\n";  // inside an open block the old content is dropped
  }
  if (open) problems.push_back(std::string(page_name) + ": block \"" + *open + "\" has no end marker");
  if (!page.empty() && page.back() != '\n' && !out.empty()) out.pop_back();
  return out;
}

std::vector<std::string> check(const fs::path& root, const Rendering& rendering) {
  std::vector<std::string> problems;
  std::set<std::string> produced;
  for (const auto& f : rendering.files) {
    produced.insert(f.path);
    bool ok = false;
    const auto have = read(root / f.path, ok);
    if (!ok)
      problems.push_back(f.path + ": missing (run docs-figures in the repository to generate it)");
    else if (have != f.content)
      problems.push_back(f.path + ": out of date (run docs-figures in the repository to regenerate it)");
  }
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(root / figures_dir, ec)) {
    const auto rel = rel_path(root, e.path());
    if (e.is_regular_file() && !produced.count(rel))
      problems.push_back(rel + ": not produced by docs-figures (delete it, or run docs-figures to remove it)");
  }
  for (const auto& page : doc_pages(root)) {
    bool ok = false;
    const auto text = read(page, ok);
    const auto name = rel_path(root, page);
    std::vector<std::string> page_problems;
    const auto want = apply_blocks(text, rendering.blocks, name, page_problems);
    problems.insert(problems.end(), page_problems.begin(), page_problems.end());
    if (page_problems.empty() && want != text)
      problems.push_back(name + ": generated blocks out of date (run docs-figures in the repository to regenerate them)");
  }
  return problems;
}

std::vector<std::string> write(const fs::path& root, const Rendering& rendering) {
  std::vector<std::string> changed;
  fs::create_directories(root / figures_dir);
  std::set<std::string> produced;
  for (const auto& f : rendering.files) {
    produced.insert(f.path);
    bool ok = false;
    if (read(root / f.path, ok) == f.content && ok) continue;
    std::ofstream(root / f.path, std::ios::binary | std::ios::trunc) << f.content;
    changed.push_back(f.path);
  }
  std::vector<fs::path> stale;
  for (const auto& e : fs::directory_iterator(root / figures_dir))
    if (e.is_regular_file() && !produced.count(rel_path(root, e.path()))) stale.push_back(e.path());
  for (const auto& p : stale) {
    changed.push_back(rel_path(root, p) + " (removed)");
    fs::remove(p);
  }
  for (const auto& page : doc_pages(root)) {
    bool ok = false;
    const auto text = read(page, ok);
    std::vector<std::string> problems;
    const auto want = apply_blocks(text, rendering.blocks, rel_path(root, page), problems);
    if (!problems.empty() || want == text) continue;
    std::ofstream(page, std::ios::binary | std::ios::trunc) << want;
    changed.push_back(rel_path(root, page));
  }
  return changed;
}

fs::path find_root(const fs::path& cwd) {
  for (fs::path p = fs::absolute(cwd); !p.empty(); p = p.parent_path()) {
    if (fs::exists(p / docs_dir / "detection.md")) return p;
    if (p == p.parent_path()) break;
  }
  return {};
}

}  // namespace benchhist::figures
