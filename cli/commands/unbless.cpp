// `unbless` (docs/cli.md#commands): removes the blessings recorded at a commit.

#include "../command.hpp"

namespace benchhist::cli {
namespace {

CommandSpec spec() {
  CommandSpec c{"unbless", "Remove the blessings recorded at a commit", {}, {}, false, false};
  add_environment(c.opts, RepoRole::queried);
  add_filters(c.opts);
  add_context_base(c.opts, "Commit whose blessings to revoke [default: HEAD]");
  return c;
}

Runner build(const Parsed& p) {
  app::UnblessOptions o;
  o.env = environment(p);
  o.filters = filters(p);
  o.context = p.value("context");
  o.base = p.value("base");
  return library_command(p, std::move(o));
}

}  // namespace

extern const CommandDef unbless_command{spec, build};

}  // namespace benchhist::cli
