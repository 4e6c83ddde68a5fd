#pragma once
// Running a command from its options: the whole behaviour behind `cargo-bench-history`, so a
// harness can do everything the CLI does. Commands write their primary output to `out` and
// diagnostics (`[bench-history] …` notes) to `err` (docs/formats.md#streams), and report failure by
// throwing benchhist::Error.

#include <filesystem>
#include <cstddef>
#include <iosfwd>
#include <memory>
#include <optional>
#include <vector>
#include <string>

#include "app/options.hpp"
#include "benchhist/probe/environment.hpp"

namespace benchhist::app {

// Everything a command takes from its surroundings; nothing is read from globals.
struct Invocation {
  const probe::Environment& env;
  std::filesystem::path cwd;  // the process working directory (absolute)
  std::ostream& out;          // primary output (stdout)
  std::ostream& err;          // diagnostics (stderr)
  std::filesystem::path sys_root = "/";  // root of proc/ and sys/ for the hardware probe
  std::optional<std::size_t> terminal_width;  // stdout's width when it is a terminal
  bool stderr_is_terminal = false;            // progress lines only for a person watching
  // When set, commands hand their large working sets (loaded runs, series) here instead of
  // freeing them: a process about to exit lets the operating system reclaim them at once
  // (freeing millions of small allocations of a large store one by one takes a quarter second).
  std::vector<std::shared_ptr<const void>>* keep_until_exit = nullptr;
};

// Validates and runs any command. Returns the process exit status of a command that ran: 0, or 2 when an opt-in gate tripped
// (`analyze --fail-on regression` with a regression reported; every output is written first).
int run_command(const Command& command, const Invocation& inv);

// `install` (docs/configuration.md#the-starter-file-install,
// docs/formats.md#listings-and-command-messages): writes the starter configuration if absent.
void run_install(const InstallOptions& options, const Invocation& inv);

// `machine-key` (docs/formats.md#machine-key): the key on `out`; with verbose the component line on
// `err`.
void run_machine_key(const MachineKeyOptions& options, const Invocation& inv);

// `list runs|discriminants|blessings` (docs/cli.md#commands,
// docs/formats.md#listings-and-command-messages).
void run_list(const ListOptions& options, const Invocation& inv);

}  // namespace benchhist::app
