#pragma once
// Command-line parsing for `cargo-bench-history` (docs/formats.md#process-contract, #option-groups,
// docs/cli.md#commands): argv → the command of the table (cli/command_table.hpp) with its request
// built and checked. No behaviour lives here.

#include <string>
#include <vector>

#include "command.hpp"

namespace benchhist::cli {

struct ParseOutcome {
  Runner command;    // set when a command should run
  std::string help;  // set when help was requested (stdout, exit 0)
};

// Parses the arguments after the program name (a leading `bench-history` from a Cargo
// invocation must already be dropped). Throws benchhist::Error: an argument error has the
// subject command_line_subject and the usage as its hint; a bad value (--since, --engine)
// is the library's own error.
ParseOutcome parse_arguments(const std::vector<std::string>& args);

// The full help: usage and the command list with one-line descriptions.
std::string top_level_help();

}  // namespace benchhist::cli
