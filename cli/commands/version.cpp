// `version` (docs/cli.md#commands): the tool's version on stdout, as `--version` prints it.

#include <ostream>
#include <string>

#include "../command.hpp"
#include "benchhist/version.hpp"

namespace benchhist::cli {
namespace {

CommandSpec spec() {
  return {"version", "Print the version", {}, {}, false, false};
}

Runner build(const Parsed&) {
  return [](const app::Invocation& inv) {
    inv.out << "cargo-bench-history " << tool_version << '\n';
    return 0;
  };
}

}  // namespace

extern const CommandDef version_command{spec, build};

}  // namespace benchhist::cli
