// `affected` (docs/github.md): the packages a pull request's benchmarks must cover.

#include "../command.hpp"

namespace benchhist::cli {
namespace {

CommandSpec spec() {
  CommandSpec c{"affected", "List the workspace packages a pull request affects ($GITHUB_OUTPUT lines)", {}, {}, false,
                false};
  c.opts = {
      {"config", 0, Kind::value, "PATH",
       "Configuration file; with [collect] bench_command any change selects the whole project [default: "
       ".cargo/bench_history.toml]"},
      {"repo", 0, Kind::value, "PATH", "Project directory holding the workspace [default: the working directory]"},
      {"base", 0, Kind::value, "REF", "The pull request's base (its merge base with --head is compared)", true},
      {"head", 0, Kind::value, "REF", "The pull request's head [default: HEAD]"},
      {"exclude", 0, Kind::multi, "NAME", "Package never to select; repeatable"},
      {"verbose", 0, Kind::flag, "", "Print notes about each step on stderr"},
  };
  return c;
}

Runner build(const Parsed& p) {
  app::AffectedOptions o;
  o.config = p.path("config");
  o.repo = p.path("repo");
  o.verbose = p.flag("verbose");
  o.base = *p.value("base");
  o.head = p.value("head").value_or("HEAD");
  o.excludes = p.multi("exclude");
  return library_command(p, std::move(o));
}

}  // namespace

extern const CommandDef affected_command{spec, build};

}  // namespace benchhist::cli
