// `machine-key` (docs/formats.md#machine-key): this machine's hardware fingerprint.

#include "../command.hpp"

namespace benchhist::cli {
namespace {

CommandSpec spec() {
  CommandSpec c{"machine-key", "Print this machine's hardware fingerprint", {}, {}, false, false};
  c.opts.push_back({"verbose", 0, Kind::flag, "", "Also print the hashed components on stderr"});
  return c;
}

Runner build(const Parsed& p) {
  return library_command(p, app::MachineKeyOptions{p.flag("verbose")});
}

}  // namespace

extern const CommandDef machine_key_command{spec, build};

}  // namespace benchhist::cli
