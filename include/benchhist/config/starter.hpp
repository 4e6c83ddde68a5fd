#pragma once
// The starter configuration written by `install` (docs/configuration.md "What install writes"):
// comments only, so it parses to an empty configuration.

#include <filesystem>
#include <string_view>

namespace benchhist::config {

// The exact starter text (ends with a newline).
std::string_view starter_config_text();

// Creates parent directories and writes the starter file with an exclusive create. Returns
// true when it wrote, false when a file already exists at `path` (never overwritten).
// Throws Error{io} "failed to write the configuration file to <path>" (subject = path) when the
// directories or the file cannot be created or written.
bool write_starter_config(const std::filesystem::path& path);

}  // namespace benchhist::config
