#include <unistd.h>

#include <cstdio>
#include <ostream>

#include "benchhist/app/collect_command.hpp"
#include "benchhist/collect/backfill.hpp"
#include "benchhist/collect/collect.hpp"
#include "benchhist/error.hpp"
#include "command_support.hpp"

namespace benchhist::app {

using namespace detail;

namespace {

BenchScope bench_scope(const BenchmarkScope& scope, const Features& features, const std::vector<std::string>& passthrough) {
  BenchScope s;
  s.packages = scope.packages;
  s.excludes = scope.excludes;
  s.benches = scope.benches;
  s.features = features.features;
  s.all_features = features.all_features;
  s.no_default_features = features.no_default_features;
  s.passthrough = passthrough;
  return s;
}

}  // namespace

void run_backfill(const BackfillOptions& o, const Invocation& inv) {
  const bool v = o.env.verbose;
  // backfill resolves relative paths against --repo (formats.md §6.3).
  const auto base = o.env.repo ? (inv.cwd / *o.env.repo).lexically_normal() : inv.cwd;
  auto ctx = open_context(o.env, nullptr, inv, base, true);
  BackfillRequest req;
  req.base_dir = base;
  req.project = ctx.project;
  req.from = o.from;
  req.to = o.to;
  req.scope = bench_scope(o.scope, o.features, o.cargo_args);
  req.best_of = o.best_of;
  req.overwrite = o.overwrite;
  req.ignore_errors = o.ignore_errors;
  req.max_commits = o.max_commits;
  auto services = BackfillServices::system(inv.env);
  services.announce = [&inv](std::string_view s) { announce(inv, s); };
  if (v) services.note = [&inv](std::string_view s) { announce(inv, s); };
  services.progress = [&inv](const BackfillProgress& p) { announce(inv, format_progress(p)); };
  const auto result = backfill(req, inv.env, *ctx.store, services);
  // Stopped by a benchmark failure or interrupted: the summary is the error (formats.md §8.5).
  if (result.exit_status != 0) throw result.error();
  inv.out << result.summary << '\n';
}

void run_collect(const CollectOptions& o, const Invocation& inv) {
  const bool v = o.env.verbose;
  // collect resolves relative paths against --repo (formats.md §6.3).
  const auto base = o.env.repo ? (inv.cwd / *o.env.repo).lexically_normal() : inv.cwd;
  auto ctx = open_context(o.env, nullptr, inv, base, !o.no_store);

  CollectRequest req;
  req.repo_dir = base;
  req.project = ctx.project;
  req.scope = bench_scope(o.scope, o.features, o.cargo_args);
  req.best_of = o.best_of;
  req.policy = o.overwrite ? CollisionPolicy::overwrite
                           : o.skip_existing ? CollisionPolicy::skip_existing : CollisionPolicy::refuse;
  req.store = !o.no_store;

  auto services = CollectServices::system(inv.env);
  services.announce = [&inv](std::string_view s) { announce(inv, s); };
  if (v) services.note = [&inv](std::string_view s) { announce(inv, s); };
  // Repetition progress only where a person watches (a terminal): CI logs stay clean.
  if (inv.stderr_is_terminal && o.best_of > 1)
    services.progress = [&inv](std::uint32_t rep, std::uint32_t of, double elapsed) {
      char buf[96];
      std::snprintf(buf, sizeof buf, "repetition %u of %u (%.1f s elapsed)", rep, of, elapsed);
      announce(inv, buf);
    };
  const auto outcome = collect(req, inv.env, ctx.store.get(), services);
  inv.out << outcome.message() << '\n';
}

}  // namespace benchhist::app
