// `collect` (docs/cli.md#commands): runs the benchmarks at the current commit and stores them.

#include "../command.hpp"

namespace benchhist::cli {
namespace {

CommandSpec spec() {
  CommandSpec c{"collect", "Run the benchmarks at the current commit and store their results", {}, {}, true, false};
  add_environment(c.opts, RepoRole::measured);
  add_scope(c.opts);
  add_features(c.opts);
  c.opts.push_back({"no-store", 0, Kind::flag, "", "Run and harvest, store nothing (skips storage selection)"});
  c.opts.push_back({"overwrite", 0, Kind::flag, "", "Replace an existing stored result"});
  c.opts.push_back({"skip-existing", 0, Kind::flag, "", "Succeed without writing when a result exists (conflicts with --overwrite)"});
  c.opts.push_back({"best-of", 0, Kind::value, "N", "Run the suite N times and keep the per-metric minimum [default: 1]"});
  add_bench_command(c.opts);
  return c;
}

Runner build(const Parsed& p) {
  app::CollectOptions o;
  o.env = environment(p);
  o.scope = scope(p);
  o.no_store = p.flag("no-store");
  o.overwrite = p.flag("overwrite");
  o.skip_existing = p.flag("skip-existing");
  o.best_of = p.number("best-of", 1);
  o.bench_command = p.value("bench-command");
  o.target_triple = p.value("target-triple");
  return library_command(p, std::move(o));
}

}  // namespace

extern const CommandDef collect_command{spec, build};

}  // namespace benchhist::cli
