#pragma once
// The one table of commands (docs/command-layer.md). Its entries are the `cli_commands` list of
// cli/meson.build, each naming a file cli/commands/<name>.cpp that defines `<name>_command`; the
// list's order is the order of the top-level help.

#include <string_view>
#include <vector>

#include "command.hpp"

namespace benchhist::cli {

struct TableEntry {
  CommandSpec spec;
  const CommandDef* def;
};

const std::vector<TableEntry>& command_table();
// The entry named `name` (as typed on the command line), or nullptr.
const TableEntry* find_command(std::string_view name);

}  // namespace benchhist::cli
