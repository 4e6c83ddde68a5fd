// `bisect` (docs/bisect.md): pins change-point findings to their commits.

#include "../command.hpp"

namespace benchhist::cli {
namespace {

CommandSpec spec() {
  CommandSpec c{"bisect", "Pin each change-point finding to the commit that caused it, measuring unmeasured commits",
                {}, {}, true, false};
  add_query_groups(c.opts, since_help, analyzed_context_help, RepoRole::measured);
  c.opts.push_back({"benchmark", 0, Kind::value, "ID", "Only the findings of this qualified benchmark id"});
  c.opts.push_back({"metric", 0, Kind::value, "NAME", "Only the findings of this metric, e.g. wall_time"});
  c.opts.push_back({"max-builds", 0, Kind::value, "N", "Measure at most N times in this invocation [default: 16]"});
  c.opts.push_back({"repeat", 0, Kind::value, "N",
                    "Measure each window's ends N times again first, and re-measure an ambiguous value up to N times [default: 2]"});
  c.opts.push_back({"dry-run", 0, Kind::flag, "", "Print each window and the commit it would measure first; measure nothing"});
  c.opts.push_back({"overwrite", 0, Kind::flag, "", "Also store re-measurements of commits already stored"});
  add_scope(c.opts);
  add_features(c.opts);
  c.opts.push_back({"ignore-errors", 0, Kind::flag, "",
                    "Bisect around a commit whose benchmarks fail instead of ending its window there"});
  c.opts.push_back({"best-of", 0, Kind::value, "N", "Run the suite N times per measurement and keep the per-metric minimum [default: 1]"});
  c.opts.push_back({"bench-command", 0, Kind::value, "COMMAND",
                    "Run this shell command instead of cargo bench, as backfill does [default: [collect] bench_command]"});
  return c;
}

Runner build(const Parsed& p) {
  app::BisectOptions o;
  read_query_groups(p, o);
  o.benchmark = p.value("benchmark");
  o.metric = metric(p);
  o.max_builds = p.number("max-builds", 16);
  o.repeat = p.number("repeat", 2);
  o.dry_run = p.flag("dry-run");
  o.overwrite = p.flag("overwrite");
  o.scope = scope(p);
  o.ignore_errors = p.flag("ignore-errors");
  o.best_of = p.number("best-of", 1);
  o.bench_command = p.value("bench-command");
  return library_command(p, std::move(o));
}

}  // namespace

extern const CommandDef bisect_command{spec, build};

}  // namespace benchhist::cli
