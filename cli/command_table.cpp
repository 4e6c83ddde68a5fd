// The command table, from the list in cli/meson.build (generated into command_list.inc as one
// BENCHHIST_COMMAND(<name>) line per command).

#include "command_table.hpp"

namespace benchhist::cli {

#define BENCHHIST_COMMAND(name) extern const CommandDef name##_command;
#include "command_list.inc"
#undef BENCHHIST_COMMAND

const std::vector<TableEntry>& command_table() {
  static const std::vector<TableEntry> table = [] {
    std::vector<TableEntry> t;
#define BENCHHIST_COMMAND(name) t.push_back({name##_command.spec(), &name##_command});
#include "command_list.inc"
#undef BENCHHIST_COMMAND
    return t;
  }();
  return table;
}

const TableEntry* find_command(std::string_view name) {
  for (const auto& e : command_table())
    if (e.spec.name == name) return &e;
  return nullptr;
}

}  // namespace benchhist::cli
