// `list runs|discriminants|blessings` (docs/formats.md#listings-and-command-messages).

#include "../command.hpp"

namespace benchhist::cli {
namespace {

CommandSpec spec() {
  CommandSpec c{"list", "List stored runs, discriminant sets or blessings", {}, {}, false, false};
  add_query_groups(c.opts, since_help);
  c.opts.push_back({"no-dirty", 0, Kind::flag, "", "Ignore dirty snapshots"});
  c.opts.push_back({"all", 0, Kind::flag, "", "With `blessings`: the most recent blessing of each benchmark in the window"});
  c.opts.push_back({"skip-unreadable", 0, Kind::flag, "",
                    "With `runs`: list around stored objects that cannot be read, naming their keys"});
  c.positionals = {{"SUBJECT", "What to list: runs, discriminants or blessings", true, false}};
  return c;
}

Runner build(const Parsed& p) {
  app::ListOptions o;
  read_query_groups(p, o);
  auto subject = app::parse_list_subject(p.positionals.at(0));
  if (!subject)
    fail("invalid value '" + p.positionals.at(0) +
             "' for '<SUBJECT>'\n  [possible values: runs, discriminants, blessings]",
         p.spec);
  o.subject = *subject;
  o.all = p.flag("all");
  o.skip_unreadable = p.flag("skip-unreadable");
  return library_command(p, std::move(o));
}

}  // namespace

extern const CommandDef list_command{spec, build};

}  // namespace benchhist::cli
