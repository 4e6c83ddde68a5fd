// analyze, examine and list runs: options → the pipeline → every requested rendering.

#include <algorithm>
#include <chrono>
#include <functional>
#include <memory>
#include <ostream>
#include <thread>

#include "benchhist/analysis/git_topology.hpp"
#include "benchhist/analysis/shallow.hpp"
#include "app/analysis_commands.hpp"
#include "benchhist/error.hpp"
#include "benchhist/pipeline/analyze.hpp"
#include "benchhist/pipeline/chart_data.hpp"
#include "benchhist/pipeline/examine.hpp"
#include "benchhist/report/html_reporter.hpp"
#include "benchhist/report/json_reporter.hpp"
#include "benchhist/report/markdown_reporter.hpp"
#include "benchhist/report/notes.hpp"
#include "benchhist/report/outcome_reporter.hpp"
#include "benchhist/report/summary_reporter.hpp"
#include "benchhist/report/text_reporter.hpp"
#include "command_support.hpp"

namespace benchhist::app {
namespace {

using namespace detail;

unsigned worker_threads() { return std::max(2u, std::thread::hardware_concurrency()); }

template <class Data>
Outputs<Data> output_files(const OutputOptions& out, const Invocation& inv, std::string (*markdown)(const Data&),
                           std::string (*json)(const Data&)) {
  Outputs<Data> o;
  if (out.markdown) o.add("Markdown", inv.cwd / *out.markdown, markdown);
  if (out.json) o.add("JSON", inv.cwd / *out.json, json);
  return o;
}

Outputs<report::AnalysisReport> analyze_files(const AnalyzeOptions& o, const Invocation& inv) {
  Outputs<report::AnalysisReport> files;
  if (o.output.markdown) files.add(std::make_shared<report::MarkdownReporter>(), inv.cwd / *o.output.markdown);
  if (o.output.json) files.add(std::make_shared<report::JsonReporter>(), inv.cwd / *o.output.json);
  if (o.markdown_summary) files.add(std::make_shared<report::SummaryReporter>(), inv.cwd / *o.markdown_summary);
  if (o.outcome) files.add(std::make_shared<report::OutcomeReporter>(), inv.cwd / *o.outcome);
  if (o.html) files.add(std::make_shared<report::HtmlReporter>(), inv.cwd / *o.html);
  return files;
}

}  // namespace

int run_analyze(const AnalyzeOptions& o, const Invocation& inv) {
  const bool v = o.env.verbose;
  auto files = analyze_files(o, inv);
  preflight(files.files);

  auto ctx = open_context(o.env, &o.cache.cache, inv, inv.cwd, StoreAccess::read);
  auto git = open_repository(o.env, inv);
  pipeline::AnalyzeRequest req;
  req.selection = complete_selection(o.selection, ctx, resolve_filters_for_host(o.filters, inv, true));
  req.benchmark_prefixes = o.prefixes;
  req.ignore_prefixes = ctx.config.ignore_prefixes;
  req.threads = worker_threads();
  req.skip_unreadable = o.skip_unreadable;
  req.spelling = ctx.spelling;
  auto result = pipeline::analyze(req, *git, *ctx.store, hooks_for(inv, v));
  if (inv.keep_until_exit) inv.keep_until_exit->push_back(result.reconstruction);
  finish_store(ctx, inv, v);
  if (auto shallow = analysis::shallow_clone_note(result.selection, *git, analysis::ShallowNoteFor::analyze))
    announce(inv, *shallow);
  if (o.html) result.report.charts = pipeline::chart_data(result);
  const auto& report = result.report;
  if (v)
    for (const auto& line : report::verbose_notes(report)) inv.err << line << '\n';

  files.render(report);
  write_reports(files.files, inv, v);
  if (!o.output.no_text) {
    report::TextOptions text;
    text.width = inv.terminal_width.value_or(80);
    inv.out << report::TextReporter(text).render(report) << '\n';
  }
  // Findings are advisory unless the caller opted into a gate (docs/cli.md "analyze --fail-on").
  if (o.fail_on == FailOn::regression && report.regressions() > 0) {
    announce(inv, "--fail-on regression: " + std::to_string(report.regressions()) +
                      (report.regressions() == 1 ? " regression" : " regressions") + " reported; exiting with status 2");
    return 2;
  }
  return 0;
}

void run_examine(const ExamineOptions& o, const Invocation& inv) {
  const bool v = o.env.verbose;
  if (o.benchmark.empty()) throw Error(ErrorKind::usage, "--benchmark must not be empty", "--benchmark");
  auto files = output_files(o.output, inv, &report::render_examine_markdown, &report::render_examine_json);
  if (o.html) files.add("HTML", inv.cwd / *o.html, &report::render_examine_html);
  preflight(files.files);

  auto ctx = open_context(o.env, &o.cache.cache, inv, inv.cwd, StoreAccess::read);
  auto git = open_repository(o.env, inv);
  pipeline::ExamineRequest req;
  req.selection = complete_selection(o.selection, ctx, resolve_filters_for_host(o.filters, inv, true));
  req.benchmark = o.benchmark;
  req.metric = o.metric;
  req.threads = worker_threads();
  req.skip_unreadable = o.skip_unreadable;
  req.spelling = ctx.spelling;
  const auto data = pipeline::examine(req, *git, *ctx.store, hooks_for(inv, v));
  finish_store(ctx, inv, v);
  files.render(data);
  write_reports(files.files, inv, v);
  if (!o.output.no_text) inv.out << report::render_examine_text(data) << '\n';
}

void run_list_runs(const ListOptions& o, const Invocation& inv) {
  const bool v = o.env.verbose;
  auto files = output_files(o.output, inv, &report::render_runs_markdown, &report::render_runs_json);
  preflight(files.files);
  auto ctx = open_context(o.env, &o.cache.cache, inv, inv.cwd, StoreAccess::read);
  auto git = open_repository(o.env, inv);
  const auto req = complete_selection(o.selection, ctx, resolve_filters_for_host(o.filters, inv, true));
  const auto listing = pipeline::list_runs(req, *git, *ctx.store, worker_threads(), hooks_for(inv, v),
                                             o.skip_unreadable, ctx.spelling);
  finish_store(ctx, inv, v);
  files.render(listing);
  write_reports(files.files, inv, v);
  if (!o.output.no_text) inv.out << report::render_runs_text(listing) << '\n';
}

}  // namespace benchhist::app
