// `bless` (docs/cli.md#commands): accepts a level shift at a commit.

#include "../command.hpp"

namespace benchhist::cli {
namespace {

CommandSpec spec() {
  CommandSpec c{"bless", "Accept a level shift at a commit (re-baseline benchmarks)", {}, {}, false, false};
  add_environment(c.opts, RepoRole::queried);
  add_filters(c.opts);
  add_context_base(c.opts, "Commit to bless: the new baseline starts there [default: HEAD]");
  c.opts.push_back({"all", 0, Kind::flag, "", "Bless every benchmark (conflicts with prefixes)"});
  c.positionals = {{"PREFIX", "Benchmark-id prefixes to bless", false, true}};
  return c;
}

Runner build(const Parsed& p) {
  app::BlessOptions o;
  o.env = environment(p);
  o.filters = filters(p);
  o.context = p.value("context");
  o.base = p.value("base");
  o.prefixes = p.positionals;
  o.all = p.flag("all");
  return library_command(p, std::move(o));
}

}  // namespace

extern const CommandDef bless_command{spec, build};

}  // namespace benchhist::cli
