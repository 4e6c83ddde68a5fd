// `backfill` (docs/backfill.md): measures a first-parent range of past commits.

#include "../command.hpp"

namespace benchhist::cli {
namespace {

CommandSpec spec() {
  CommandSpec c{"backfill", "Measure a first-parent range of past commits in isolated worktrees", {}, {}, true, false};
  add_environment(c.opts, RepoRole::measured);
  add_scope(c.opts);
  add_features(c.opts);
  c.opts.push_back({"overwrite", 0, Kind::flag, "", "Replace existing stored results"});
  c.opts.push_back({"ignore-errors", 0, Kind::flag, "", "Continue past commits whose benchmarks fail"});
  c.opts.push_back({"best-of", 0, Kind::value, "N", "Run the suite N times per commit and keep the per-metric minimum [default: 1]"});
  c.opts.push_back({"max-commits", 0, Kind::value, "N", "Attempt at most N commits in this pass [default: unlimited]"});
  add_bench_command(c.opts);
  c.positionals = {{"FROM", "Oldest commit of the range (inclusive)", true, false},
                   {"TO", "Newest commit of the range (inclusive)", true, false}};
  return c;
}

Runner build(const Parsed& p) {
  app::BackfillOptions o;
  o.env = environment(p);
  o.scope = scope(p);
  o.from = p.positionals.at(0);
  o.to = p.positionals.at(1);
  o.overwrite = p.flag("overwrite");
  o.ignore_errors = p.flag("ignore-errors");
  o.best_of = p.number("best-of", 1);
  if (p.vm.count("max-commits")) o.max_commits = p.number("max-commits", 0);
  o.bench_command = p.value("bench-command");
  o.target_triple = p.value("target-triple");
  return library_command(p, std::move(o));
}

}  // namespace

extern const CommandDef backfill_command{spec, build};

}  // namespace benchhist::cli
