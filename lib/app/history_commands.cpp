#include "app/history_commands.hpp"

#include <algorithm>
#include <chrono>
#include <ostream>
#include <thread>

#include "benchhist/analysis/git_topology.hpp"
#include "benchhist/error.hpp"
#include "benchhist/pipeline/bless.hpp"
#include "benchhist/pipeline/blessings.hpp"
#include "benchhist/pipeline/prune.hpp"
#include "command_support.hpp"

namespace benchhist::app {
namespace {

using namespace detail;





// Writes the requested renderings: files first (preflighted), then the text on stdout.
template <typename Rendered>
void emit(const OutputOptions& out, const Invocation& inv, bool verbose, const Rendered& r) {
  std::vector<ReportFile> files;
  if (out.markdown) files.push_back({"Markdown", inv.cwd / *out.markdown, r.markdown()});
  if (out.json) files.push_back({"JSON", inv.cwd / *out.json, r.json()});
  write_reports(files, inv, verbose);
  if (!out.no_text) inv.out << r.text() << '\n';
}

std::vector<ReportFile> planned_files(const OutputOptions& out, const Invocation& inv) {
  std::vector<ReportFile> files;
  if (out.markdown) files.push_back({"Markdown", inv.cwd / *out.markdown, {}});
  if (out.json) files.push_back({"JSON", inv.cwd / *out.json, {}});
  return files;
}

}  // namespace

void run_bless(const BlessOptions& o, const Invocation& inv) {
  pipeline::BlessRequest req;
  req.prefixes = o.prefixes;
  req.all = o.all;
  pipeline::validate_bless_prefixes(req);  // a usage error before any storage is touched
  // A blessing accepts stored results: a store that does not exist (a mistyped --local) is refused
  // as the read commands refuse it, instead of being created around one blessing.
  auto ctx = open_context(o.env, nullptr, inv, inv.cwd, StoreAccess::read);
  auto git = open_repository(o.env, inv);
  req.project = ctx.project;
  req.context_ref = o.context;  // only when given: it decides "defaulted to HEAD" and the dirty warning
  req.base_ref = o.base;
  req.configured_default_branch = ctx.config.default_branch;
  req.filters = resolve_filters_for_host(o.filters, inv, true);
  req.now = now();
  const auto result = pipeline::bless(req, *git, *ctx.store, hooks_for(inv, o.env.verbose));
  inv.out << result.message;
}

void run_unbless(const UnblessOptions& o, const Invocation& inv) {
  auto ctx = open_context(o.env, nullptr, inv, inv.cwd, StoreAccess::read);
  auto git = open_repository(o.env, inv);
  pipeline::UnblessRequest req;
  req.project = ctx.project;
  req.context_ref = o.context;
  req.base_ref = o.base;
  req.filters = resolve_filters_for_host(o.filters, inv, true);
  const auto result = pipeline::unbless(req, *git, *ctx.store, hooks_for(inv, o.env.verbose));
  inv.out << result.message << '\n';
}

void run_list_blessings(const ListOptions& o, const Invocation& inv) {
  preflight(planned_files(o.output, inv));
  auto ctx = open_context(o.env, &o.cache.cache, inv, inv.cwd, StoreAccess::read);
  auto git = open_repository(o.env, inv);
  pipeline::ListBlessingsRequest req;
  req.selection = complete_selection(o.selection, ctx, resolve_filters_for_host(o.filters, inv, true));
  req.all = o.all;
  req.threads = std::max(2u, std::thread::hardware_concurrency());
  const auto listing = pipeline::list_blessings(req, *git, *ctx.store, hooks_for(inv, o.env.verbose));
  finish_store(ctx, inv, o.env.verbose);
  emit(o.output, inv, o.env.verbose, listing);
}

void run_prune(const PruneOptions& o, const Invocation& inv) {
  if (o.runs == pipeline::PruneRuns::none && !o.include_blessings)
    throw Error(ErrorKind::usage,
                "prune requires a deletion scope: --clean (clean runs), --dirty (dirty snapshots), --all (both), "
                "and/or --include-blessings (blessing sidecars)",
                "--clean");
  preflight(planned_files(o.output, inv));
  auto ctx = open_context(o.env, &o.cache.cache, inv, inv.cwd, StoreAccess::read);
  auto git = open_repository(o.env, inv);
  pipeline::PruneRequest req;
  req.selection = complete_selection(o.selection, ctx, resolve_filters_for_host(o.filters, inv, true));
  req.commits = o.commits;
  req.runs = o.runs;
  req.include_blessings = o.include_blessings;
  req.dry_run = o.dry_run;
  req.prune_base = o.prune_base;
  const auto result = pipeline::prune(req, *git, *ctx.store, hooks_for(inv, o.env.verbose));
  emit(o.output, inv, o.env.verbose, result);
}

}  // namespace benchhist::app
