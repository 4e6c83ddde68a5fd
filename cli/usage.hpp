#pragma once
// Usage lines and help pages, generated from the CommandSpecs so that what `--help` shows is
// exactly what parses.

#include <string>

#include "command.hpp"

namespace benchhist::cli {

// `--local`/`--cache` without `=` are rewritten to `--flag=<this>` before parsing, so that
// `--local ./x` stays a bare flag followed by a positional (docs/formats.md#storage-selection).
inline constexpr const char* bare_marker = "\x1f" "bare";

// `Usage: cargo bench-history <name> [OPTIONS] …`
std::string usage_line(const CommandSpec& c);
// A command's `--help` page.
std::string command_help(const CommandSpec& c);

}  // namespace benchhist::cli
