// bisect: options → the analysis' selection and backfill's measuring → bisect::bisect → reports.
#include "app/bisect_command.hpp"

#include <algorithm>
#include <ostream>
#include <thread>

#include "benchhist/bisect/bisect.hpp"
#include "benchhist/error.hpp"
#include "benchhist/model/metric.hpp"
#include "command_support.hpp"

namespace benchhist::app {

using namespace detail;

namespace {

// Each measurement is a one-commit backfill; its announcements are verbose notes here.
collect::BackfillServices measuring_services(const Invocation& inv, bool verbose) {
  auto services = collect::BackfillServices::system(inv.env);
  services.failed_output = show_failed_output(inv);
  services.announce = [&inv, verbose](std::string_view s) {
    if (verbose) announce(inv, s);
  };
  if (verbose) services.note = [&inv](std::string_view s) { announce(inv, s); };
  return services;
}

}  // namespace

void run_bisect(const BisectOptions& o, const Invocation& inv) {
  const bool v = o.env.verbose;
  Outputs<bisect::BisectReport> files;
  if (o.output.markdown) files.add("Markdown", inv.cwd / *o.output.markdown, &bisect::render_markdown);
  if (o.output.json) files.add("JSON", inv.cwd / *o.output.json, &bisect::render_json);
  preflight(files.files);

  // bisect measures the repository, so paths resolve against --repo as for backfill
  // (docs/formats.md#storage-selection).
  const auto base = o.env.repo ? (inv.cwd / *o.env.repo).lexically_normal() : inv.cwd;
  auto ctx = open_context(o.env, &o.cache.cache, inv, base, true, measure_scope_check(o.bench_command, o.scope));
  auto git = open_repository(o.env, inv);

  bisect::BisectRequest req;
  req.analysis.selection = complete_selection(o.selection, ctx, resolve_filters_for_host(o.filters, inv, true));
  req.analysis.selection.allow_dirty = false;  // a snapshot is no commit to bisect
  req.analysis.ignore_prefixes = ctx.config.ignore_prefixes;
  req.analysis.spelling = ctx.spelling;
  req.analysis.threads = std::max(2u, std::thread::hardware_concurrency());
  if (o.benchmark) req.benchmark = *o.benchmark;
  req.metric = o.metric;
  req.options.max_builds = o.max_builds;
  req.options.repeat = o.repeat;
  req.options.skip_failures = o.ignore_errors;
  req.dry_run = o.dry_run;
  req.overwrite = o.overwrite;
  auto& m = req.measuring;
  m.base_dir = base;
  m.project = ctx.project;
  m.scope = o.scope.cargo;
  m.best_of = o.best_of;
  m.ignore_errors = o.ignore_errors;
  m.bench_command = bench_command(o.bench_command, ctx.config, inv, v);
  // One explicit --target-triple filter is also the partition the measurements go to.
  if (o.filters.target_triples.size() == 1 && o.filters.target_triples[0] != "all")
    m.target_triple = o.filters.target_triples[0];

  // One log directory for every measurement (a commit measured again appends to its log).
  const BenchOutput output = bench_output(inv, v || o.dry_run, "bisect");
  m.output_log = output.log;
  const auto services = measuring_services(inv, v);
  bisect::BisectHooks hooks;
  hooks.analysis = hooks_for(inv, v);
  hooks.progress = [&inv](std::string_view s) { announce(inv, s); };

  const auto report = bisect::bisect(req, *git, *ctx.store, inv.env, services, hooks);
  announce_logs(inv, output);
  finish_store(ctx, inv, v);
  files.render(report);
  write_reports(files.files, inv, v);
  if (!o.output.no_text) inv.out << bisect::render_text(report) << '\n';
}

}  // namespace benchhist::app
