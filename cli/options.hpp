#pragma once
// Command-line parsing for `cargo-bench-history` (docs/formats.md#process-contract, #option-groups,
// docs/cli.md#commands): argv → the library's option model (lib/app/options.hpp). No
// behaviour lives here.

#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "app/options.hpp"

namespace benchhist::cli {

// An argument error: printed as `error: <message>` plus a usage hint on stderr, exit 1.
class UsageError : public std::runtime_error {
 public:
  UsageError(const std::string& message, std::string usage)
      : std::runtime_error(message), usage_(std::move(usage)) {}
  const std::string& usage() const noexcept { return usage_; }

 private:
  std::string usage_;
};

struct ParseOutcome {
  std::optional<app::Command> command;  // set when a command should run
  std::string help;                     // set when help was requested (stdout, exit 0)
};

// Parses the arguments after the program name (a leading `bench-history` from a Cargo
// invocation must already be dropped). Throws UsageError for every argument error.
ParseOutcome parse_arguments(const std::vector<std::string>& args);

// The full help: usage and the command list with one-line descriptions.
std::string top_level_help();

}  // namespace benchhist::cli
