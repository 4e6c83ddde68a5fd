// `prune` (docs/cli.md#commands): deletes stored runs and blessings of branch commits.

#include "../command.hpp"

namespace benchhist::cli {
namespace {

CommandSpec spec() {
  CommandSpec c{"prune", "Delete stored runs and blessings of branch commits", {}, {}, false, false};
  add_query_groups(c.opts, "Only prune commits at or after WHEN [default: no cutoff]",
                   "Branch tip whose runs to prune [default: HEAD]");
  c.opts.push_back({"dry-run", 0, Kind::flag, "", "Show the plan, delete nothing"});
  c.opts.push_back({"prune-base", 0, Kind::flag, "", "Allow deleting history of the base branch"});
  c.opts.push_back({"clean", 0, Kind::flag, "", "Delete clean runs"});
  c.opts.push_back({"dirty", 0, Kind::flag, "", "Delete dirty snapshots"});
  c.opts.push_back({"all", 0, Kind::flag, "", "Delete clean runs and dirty snapshots"});
  c.opts.push_back({"include-blessings", 0, Kind::flag, "", "Also delete blessing records"});
  c.positionals = {{"COMMIT", "Commit-id prefixes to prune [default: every selected commit]", false, true}};
  return c;
}

Runner build(const Parsed& p) {
  app::PruneOptions o;
  read_query_groups(p, o);
  o.commits = p.positionals;
  o.dry_run = p.flag("dry-run");
  o.prune_base = p.flag("prune-base");
  std::vector<std::string> actions;
  for (const char* a : {"clean", "dirty", "all"})
    if (p.flag(a)) actions.push_back(a);
  if (actions.size() > 1) fail("the argument '--" + actions[0] + "' cannot be used with '--" + actions[1] + "'", p.spec);
  if (p.flag("clean")) o.runs = pipeline::PruneRuns::clean;
  if (p.flag("dirty")) o.runs = pipeline::PruneRuns::dirty;
  if (p.flag("all")) o.runs = pipeline::PruneRuns::all;
  o.include_blessings = p.flag("include-blessings");
  return library_command(p, std::move(o));
}

}  // namespace

extern const CommandDef prune_command{spec, build};

}  // namespace benchhist::cli
