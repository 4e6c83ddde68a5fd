#pragma once
// The typed option model of every command (docs/formats.md#option-groups, docs/cli.md#commands).
// These are library types: the CLI fills them from argv, and a harness can fill them directly and
// call the command functions of app/commands.hpp without going through the command line.
//
// Defaults here are the CLI defaults. `validate()` enforces the argument rules the CLI enforces
// at parse time (conflicts, `--best-of 0`, …) so a harness gets the same errors
// (Error{ErrorKind::usage}, message naming the argument).

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include "app/automation_options.hpp"
#include "benchhist/analysis/filters.hpp"
#include "benchhist/analysis/selection.hpp"
#include "benchhist/collect/bench_command.hpp"
#include "benchhist/model/engine.hpp"
#include "benchhist/pipeline/prune.hpp"
#include "setup/setup_inputs.hpp"

namespace benchhist::app {

// `--local[=<PATH>]` / `--cache[=<PATH>]`: the value is only taken with `=`
// (docs/formats.md#storage-selection); a bare flag defers to an environment variable, read when
// storage is selected.
struct OptionalPathFlag {
  bool present = false;
  std::optional<std::filesystem::path> path;  // set only for `--flag=<path>`

  static OptionalPathFlag bare() { return {true, std::nullopt}; }
  static OptionalPathFlag with(std::filesystem::path p) { return {true, std::move(p)}; }
  bool is_bare() const noexcept { return present && !path; }
};

// Environment group: `--config`, `--repo`, `--local[=]`, `--verbose`.
struct EnvironmentOptions {
  std::optional<std::filesystem::path> config;  // default `.cargo/bench_history.toml` under the base
  std::optional<std::filesystem::path> repo;    // default: the working directory
  OptionalPathFlag local;
  bool verbose = false;
};

// Cache group: `--cache[=<PATH>]` (conflicts with `--local`).
struct CacheOption {
  OptionalPathFlag cache;
};

// Discriminant filters (docs/formats.md#option-groups): each repeatable, values unioned; `all`
// (any case) unconstrains an axis. The engine axis never auto-detects, so it is resolved where
// it is given (analysis::resolve_filter, which refuses an unknown engine); the other two keep
// their values until the run knows the host (`rustc -vV`, the hardware) an omitted axis
// defaults to.
struct FilterOptions {
  analysis::DiscriminantFilter engine;  // resolved; default: all engines
  std::vector<std::string> target_triples;
  std::vector<std::string> machine_keys;

  // The three axes, an omitted triple or machine key taking the host's value when one is given.
  analysis::DiscriminantFilters resolve(const std::optional<std::string>& host_target_triple = std::nullopt,
                                        const std::optional<std::string>& host_machine_key = std::nullopt) const;
};

// Output group: `--no-text`, `--markdown <PATH>`, `--json <PATH>`.
struct OutputOptions {
  bool no_text = false;
  std::optional<std::filesystem::path> markdown;
  std::optional<std::filesystem::path> json;
};

// What `cargo bench` runs (collect, backfill, bisect): the library's collect::BenchScope — packages,
// excludes, benches, features and the `--` arguments — plus `--workspace`, which selects what an
// empty package list already selects and is kept only to refuse it beside `--package`.
struct MeasureScope {
  collect::BenchScope cargo;
  bool workspace = false;
};

// ---- commands (docs/cli.md#commands) ------------------------------------------------------------

// `install` and every config-reading command default to this file (docs/configuration.md).
inline constexpr std::string_view default_config_file = ".cargo/bench_history.toml";

struct InstallOptions {
  std::optional<std::filesystem::path> config;  // default `.cargo/bench_history.toml` (cwd-relative)
  bool verbose = false;
};

struct CollectOptions {
  EnvironmentOptions env;
  MeasureScope scope;  // scope, features and the `--` arguments
  bool no_store = false;       // skip backend selection, store nothing
  bool overwrite = false;      // replace an existing object
  bool skip_existing = false;  // existing object → success; conflicts with overwrite
  std::uint32_t best_of = 1;   // ≥ 1
  // `--bench-command '<shell command>'` instead of cargo bench (overrides [collect]
  // bench_command); conflicts with the scope, features and `--` arguments.
  std::optional<std::string> bench_command;
  std::optional<std::string> target_triple;  // `--target-triple`: partition and record
};

struct BackfillOptions {
  EnvironmentOptions env;
  MeasureScope scope;  // scope, features and the `--` arguments
  std::string from;  // oldest commit of the inclusive range (positional `<FROM>`)
  std::string to;    // newest commit (positional `<TO>`)
  bool overwrite = false;
  bool ignore_errors = false;
  std::uint32_t best_of = 1;                 // ≥ 1
  std::optional<std::uint32_t> max_commits;  // ≥ 1; nullopt = unlimited
  std::optional<std::string> bench_command;  // as CollectOptions::bench_command
  std::optional<std::string> target_triple;  // as CollectOptions::target_triple
};

// `analyze --fail-on <WHAT>`: an opt-in gate beyond the guide (findings stay advisory by
// default); when tripped the command exits with status 2 after writing every output.
enum class FailOn { regression };

struct AnalyzeOptions {
  EnvironmentOptions env;
  CacheOption cache;
  FilterOptions filters;
  // --context, --base, --since and dirty admission (--no-dirty), as given; the run completes
  // the project, the configured default branch, the resolved filters and now.
  analysis::SelectionRequest selection;
  OutputOptions output;
  std::vector<std::string> prefixes;  // raw prefixes of qualified ids; empty = all
  std::optional<std::filesystem::path> markdown_summary;
  std::optional<std::filesystem::path> outcome;
  std::optional<FailOn> fail_on;
  std::optional<std::filesystem::path> html;  // self-contained HTML report with charts
  bool skip_unreadable = false;               // analyse around unreadable stored objects
};

struct ExamineOptions {
  EnvironmentOptions env;
  CacheOption cache;
  FilterOptions filters;
  analysis::SelectionRequest selection;  // as AnalyzeOptions::selection
  OutputOptions output;
  std::string benchmark;  // required, exact qualified id
  MetricKind metric = MetricKind::wall_time;  // required (--metric, parsed at the edge)
  std::optional<std::filesystem::path> html;  // self-contained HTML page with the chart
  bool skip_unreadable = false;               // examine around unreadable stored objects
};

enum class ListSubject { runs, discriminants, blessings };
std::string_view to_string(ListSubject s) noexcept;
std::optional<ListSubject> parse_list_subject(std::string_view s) noexcept;

struct ListOptions {
  EnvironmentOptions env;
  CacheOption cache;
  FilterOptions filters;
  analysis::SelectionRequest selection;  // as AnalyzeOptions::selection
  OutputOptions output;
  ListSubject subject = ListSubject::runs;
  bool all = false;  // only with `blessings`
  bool skip_unreadable = false;  // only with `runs`: list around unreadable stored objects
};


struct PruneOptions {
  EnvironmentOptions env;
  CacheOption cache;
  FilterOptions filters;
  analysis::SelectionRequest selection;  // as AnalyzeOptions::selection; --since has no default for prune
  OutputOptions output;
  std::vector<std::string> commits;  // case-insensitive prefixes of full ids; empty = all
  bool dry_run = false;
  bool prune_base = false;
  pipeline::PruneRuns runs = pipeline::PruneRuns::none;  // --clean, --dirty, --all (exclusive)
  bool include_blessings = false;
};

struct MachineKeyOptions {
  bool verbose = false;
};

struct BlessOptions {
  EnvironmentOptions env;
  FilterOptions filters;
  std::optional<std::string> context;  // nullopt = HEAD
  std::optional<std::string> base;
  std::vector<std::string> prefixes;
  bool all = false;  // conflicts with prefixes
};

struct UnblessOptions {
  EnvironmentOptions env;
  FilterOptions filters;
  std::optional<std::string> context;  // nullopt = HEAD
  std::optional<std::string> base;     // accepted, unused
};

// setup-azure's validated inputs (setup/setup_inputs.hpp): the command line fills a
// setup::SetupAzureRequest and converts it with setup::validate_setup_azure, the one place its
// rules are checked.
using SetupAzureOptions = setup::SetupAzureInputs;

// `import` (docs/cli.md#commands, docs/import.md): store results produced elsewhere.
struct ImportOptions {
  EnvironmentOptions env;
  std::optional<std::filesystem::path> target_dir;  // a target directory of the four engines
  std::vector<std::filesystem::path> reports;       // Google Benchmark report files or directories
  std::optional<std::string> target_triple;
  std::optional<std::string> commit;  // nullopt = HEAD
  bool dirty = false;
  bool overwrite = false;
  bool skip_existing = false;
};

// `bisect` (docs/bisect.md): the analysis' change-point findings pinned to their commits by
// measuring unmeasured first-parent commits as backfill does.
struct BisectOptions {
  EnvironmentOptions env;
  CacheOption cache;
  FilterOptions filters;
  analysis::SelectionRequest selection;        // as AnalyzeOptions::selection (dirty snapshots never bisected)
  OutputOptions output;                        // --no-text, --markdown, --json
  std::optional<std::string> benchmark;        // --benchmark: one series' exact qualified id
  std::optional<MetricKind> metric;            // --metric (parsed at the edge)
  std::uint32_t max_builds = 16;               // --max-builds (≥ 1): measurements over the invocation
  std::uint32_t repeat = 2;                    // --repeat (≥ 1): confirmation rounds and re-measurements
  bool dry_run = false;                        // print the windows, measure nothing
  bool overwrite = false;                      // also store re-measurements of stored commits
  // Measuring, as backfill (docs/backfill.md): scope, features, `--` arguments, best-of, errors.
  MeasureScope scope;  // scope, features and the `--` arguments
  std::uint32_t best_of = 1;
  bool ignore_errors = false;
  std::optional<std::string> bench_command;
};

using Command = std::variant<InstallOptions, CollectOptions, BackfillOptions, AnalyzeOptions,
                             ExamineOptions, ListOptions, PruneOptions, MachineKeyOptions,
                             BlessOptions, UnblessOptions, SetupAzureOptions, ImportOptions,
                             PublishOptions, BackfillRangeOptions, AffectedOptions, BisectOptions>;

// The subcommand name of a command (`install`, `collect`, …).
std::string_view command_name(const Command& command) noexcept;

// Argument rules checked at parse time by the CLI (docs/formats.md#option-groups,
// docs/cli.md#commands); throws Error{ErrorKind::usage} naming the offending argument(s).
void validate(const Command& command);

// A configured `[collect] bench_command` (in `config_file`) replaces cargo bench as
// `--bench-command` does, so cargo's own selection options are refused with it too, naming the
// file. `--workspace` is accepted: it selects everything, which is what a benchmark command
// measures, and the reusable workflows pass it when no package is named (docs/bench-command.md).
// Called once the configuration is read, before any store, git or probe is touched; only when
// no --bench-command was given (that one is checked by validate()).
void validate_configured_bench_command(const MeasureScope& scope, const std::filesystem::path& config_file);

// Where relative paths of a command resolve (docs/formats.md#storage-selection):
// collect/backfill/import use `--repo` (relative to `cwd`) or `cwd`; every other command uses
// `cwd`.
std::filesystem::path path_base(const Command& command, const std::filesystem::path& cwd);

// The configuration file of a command: `--config` (relative to `base`) or the default
// `.cargo/bench_history.toml` under `base` — or, when `base` has none and lies inside
// `worktree_root`, the nearest one in a directory above it up to that root (a command run in a
// subdirectory reads the repository's file); when `base` lies outside that tree (a query with
// `--repo` elsewhere), the one at its root; `explicitly_named` tells load_config whether a
// missing file is an error.
struct ConfigLocation {
  std::filesystem::path path;
  bool explicitly_named = false;
};
ConfigLocation config_location(const EnvironmentOptions& env, const std::filesystem::path& base,
                               const std::optional<std::filesystem::path>& worktree_root = std::nullopt);

}  // namespace benchhist::app
