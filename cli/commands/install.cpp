// `install` (docs/configuration.md#the-starter-file-install): writes the starter configuration.

#include "../command.hpp"

namespace benchhist::cli {
namespace {

CommandSpec spec() {
  CommandSpec c{"install", "Write a starter configuration file (.cargo/bench_history.toml)", {}, {}, false, false};
  c.opts.push_back({"config", 0, Kind::value, "PATH", "Where to write [default: .cargo/bench_history.toml]"});
  c.opts.push_back({"verbose", 0, Kind::flag, "", "Print notes about each step on stderr"});
  return c;
}

Runner build(const Parsed& p) {
  return library_command(p, app::InstallOptions{p.path("config"), p.flag("verbose")});
}

}  // namespace

extern const CommandDef install_command{spec, build};

}  // namespace benchhist::cli
