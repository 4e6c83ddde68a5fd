#pragma once
// The shared, version-controlled configuration file `.cargo/bench_history.toml`
// (docs/configuration.md, docs/configuration.md). Local storage is never configured here: it is a
// run-time choice (`--local`), because a local path is machine-dependent.

#include <array>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace benchhist::config {

// The top-level tables this version reads; any other is ignored and listed in
// Config::ignored_tables.
inline constexpr std::array<std::string_view, 4> read_tables{"project", "storage", "analysis", "collect"};

// The default location relative to the command's base directory
// (docs/formats.md#storage-selection).
inline constexpr std::string_view default_config_relative_path = ".cargo/bench_history.toml";

struct AzureStorageConfig {
  std::string account;
  std::string container;
  std::optional<std::string> endpoint;  // as written; validated by the Azure backend

  // The configured endpoint, else `https://<account>.blob.core.windows.net`.
  std::string effective_endpoint() const;
  friend bool operator==(const AzureStorageConfig&, const AzureStorageConfig&) = default;
};

struct Config {
  std::optional<std::string> project_id;      // [project] id
  std::optional<std::string> default_branch;  // [project] default_branch
  std::optional<AzureStorageConfig> azure;    // [storage.azure]
  // [analysis] ignore: benchmark-id prefixes excluded from `analyze` (raw string-prefix
  // match against the qualified id; docs/configuration.md#analysis--benchmark-ignore-prefixes).
  std::vector<std::string> ignore_prefixes;
  // [collect] bench_command: the shell command collect and backfill run instead of
  // `cargo bench`; `--bench-command` overrides it (docs/bench-command.md).
  std::optional<std::string> bench_command;
  // Top-level tables this version does not read, in name order: ignored, as the reference does
  // (an old `[machine]`), but named so a typo such as `[analyis]` is not silently lost.
  std::vector<std::string> ignored_tables;
  // Keys of [project] this version does not read (`idd`), in name order: ignored as the reference
  // does, but named, since a mistyped `id` silently files history under the directory's name.
  std::vector<std::string> ignored_project_keys;
  std::filesystem::path path;  // the file this came from (or would have)
  bool file_found = false;     // false: default location absent → empty configuration
};

// `<base_dir>/.cargo/bench_history.toml`.
std::filesystem::path default_config_path(const std::filesystem::path& base_dir);

// Loads the file at `path`. A missing file is an empty Config when !explicitly_named (the
// default location).
// Throws Error{config} (subject = path): "failed to read configuration at <path>" when a named
// (--config) file is missing or any file cannot be read; "failed to parse configuration" for
// malformed TOML or a schema violation, whose cause names the offending key and line.
Config load_config(const std::filesystem::path& path, bool explicitly_named);

// Parses configuration text; `origin` names the file in errors.
// Throws Error{config} "failed to parse configuration" (subject = origin) as load_config does.
Config parse_config(std::string_view text, const std::filesystem::path& origin);

// The configured project id, else the base directory's final path component (after making
// it absolute and normal), else `project` (docs/configuration.md). Returned raw, unsanitized.
std::string resolve_project_id(const Config& config, const std::filesystem::path& base_dir);

// True when the qualified benchmark id (segments joined with `/`) starts with one of the
// ignore prefixes: a raw, case-sensitive string-prefix test (docs/configuration.md).
bool is_ignored_benchmark(const std::vector<std::string>& ignore_prefixes, std::string_view qualified_id);
bool is_ignored_benchmark(const Config& config, std::string_view qualified_id);

}  // namespace benchhist::config
