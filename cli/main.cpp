// cargo-bench-history: parse argv, call the library, map the outcome to the process contract
// of docs/formats.md#process-contract (exit 0 on success, 1 on any failure; usage errors and help
// unprefixed).

#include <cstdlib>
#include <filesystem>
#include <memory>
#include <optional>
#include <iostream>
#include <string>
#include <system_error>
#include <vector>

#include "app/commands.hpp"
#include "arguments.hpp"
#include "benchhist/error.hpp"
#include "benchhist/probe/environment.hpp"
#include "platform/platform.hpp"

namespace {

// `Error: <message>`, then one `  caused by:` and one `  hint:` line (benchhist::render).
void print_error(const benchhist::Error& e) { std::cerr << benchhist::render(e); }

// An argument error: `error: <message>`, a blank line and the usage; any other error of the
// command line (a bad --since) as every runtime error.
void print_parse_error(const benchhist::Error& e) {
  if (e.subject() != benchhist::cli::command_line_subject) return print_error(e);
  std::cerr << "error: " << e.message() << "\n\n" << e.hint() << '\n';
}

// The process around a command: its invocation, the flush of stdout and the exit status.
int run(const benchhist::cli::Runner& command) {
  std::error_code ec;
  std::filesystem::path cwd = std::filesystem::current_path(ec);
  if (ec)
    throw benchhist::Error(benchhist::ErrorKind::io, "failed to determine the process working directory", {},
                           ec.message());
  benchhist::probe::ProcessEnvironment env;
  benchhist::app::Invocation inv{env, cwd, std::cout, std::cerr, "/", std::nullopt, false};
  // Reports fit a terminal's width instead of 80 columns.
  inv.terminal_width = benchhist::platform::stdout_terminal_columns();
  inv.stderr_is_terminal = benchhist::platform::stderr_is_terminal();
  // Left to the operating system: std::exit below does not destroy main's automatic objects.
  std::vector<std::shared_ptr<const void>> keep_until_exit;
  inv.keep_until_exit = &keep_until_exit;
  const int status = command(inv);
  std::cout.flush();
  if (!std::cout) {
    std::cerr << "Error: failed to write to standard output\n";
    return 1;
  }
  std::cerr.flush();
  std::exit(status);
}

}  // namespace

int main(int argc, char** argv) {
  benchhist::platform::keep_freed_memory();
  std::vector<std::string> args(argv + (argc > 0 ? 1 : 0), argv + argc);
  // Cargo runs `cargo-bench-history bench-history <args>` for `cargo bench-history <args>`.
  if (!args.empty() && args.front() == "bench-history") args.erase(args.begin());

  if (args.empty()) {
    std::cerr << benchhist::cli::top_level_help();
    return 1;
  }

  benchhist::cli::ParseOutcome parsed;
  try {
    parsed = benchhist::cli::parse_arguments(args);
  } catch (const benchhist::Error& e) {
    print_parse_error(e);
    return 1;
  }
  if (!parsed.command) {
    std::cout << parsed.help;
    return 0;
  }

  try {
    return run(parsed.command);
  } catch (const benchhist::Error& e) {
    std::cout.flush();
    print_error(e);
  } catch (const std::exception& e) {
    std::cout.flush();
    std::cerr << "Error: " << e.what() << '\n';
  }
  return 1;
}
