#pragma once
// Shared steps of the command runners (internal to the app area): verbose notes, report-file
// preflight and writing, and opening a command's configuration, project id and store.

#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "benchhist/analysis/filters.hpp"
#include "benchhist/analysis/git_topology.hpp"
#include "benchhist/collect/bench_command.hpp"
#include "benchhist/collect/output_log.hpp"
#include "benchhist/pipeline/analyze.hpp"
#include "app/commands.hpp"
#include "app/storage_selection.hpp"
#include "benchhist/config/config.hpp"
#include "benchhist/report/hints.hpp"
#include "benchhist/report/reporter.hpp"
#include "benchhist/storage/object_store.hpp"

namespace benchhist::app::detail {

inline constexpr std::string_view note_prefix = "[bench-history] ";

void note(const Invocation& inv, bool verbose, const std::string& text);
void announce(const Invocation& inv, std::string_view text);

// Where collect, backfill and bisect send the benchmark command's output (docs/bench-output.md):
// with --verbose the terminal (no directory, no log); otherwise a fresh log directory for
// `command`. A failure shows the last 40 lines of its log — the whole log in CI, whose runner's
// files are gone after the job.
struct BenchOutput {
  std::optional<collect::OutputLogDirectory> dir;
  std::optional<collect::OutputLog> log;
};
BenchOutput bench_output(const Invocation& inv, bool verbose, std::string_view command);
// The services' failed_output for collect, backfill and bisect: a failed benchmark command's log
// tail on inv.err, one announcement line naming the file, then the lines verbatim.
collect::FailedOutput show_failed_output(const Invocation& inv);
// After a backfill or bisect: names the directory when a log was written into it.
void announce_logs(const Invocation& inv, const BenchOutput& output);

struct ReportFile {
  std::string label;  // `Markdown`, `JSON`, `Markdown summary`, `outcome`
  std::filesystem::path path;
  std::string content;
};

// The requested report files of one result type, each with the rendering chosen when it was
// requested (never by comparing its label).
template <class Data>
struct Outputs {
  std::vector<ReportFile> files;
  std::vector<std::function<std::string(const Data&)>> renders;  // parallel to files

  void add(std::string label, const std::filesystem::path& path, std::function<std::string(const Data&)> render) {
    files.push_back({std::move(label), path, {}});
    renders.push_back(std::move(render));
  }
  void add(std::shared_ptr<const report::Reporter> reporter, const std::filesystem::path& path) {
    std::string label(reporter->label());
    add(std::move(label), path, [reporter](const Data& d) { return reporter->render(d); });
  }
  void render(const Data& data) {
    for (std::size_t i = 0; i < files.size(); ++i) files[i].content = renders[i](data);
  }
};

// Two outputs must never write the same file or nest (docs/formats.md#error-messages preflight);
// checked before anything is written.
void preflight(const std::vector<ReportFile>& files);
// Writes each report, noting it under --verbose. Parent directories are created and an existing
// file is replaced (docs/formats.md#storage-selection); a path that leads to this process's
// standard output or error, or to a pipe or terminal, is written to without truncating it
// (docs/cli.md#report-paths).
void write_reports(const std::vector<ReportFile>& files, const Invocation& inv, bool verbose);

// The configuration, project id and (optionally) store of a storage-backed command.
struct CommandContext {
  config::Config config;
  std::string project;
  std::optional<StorageChoice> storage;
  std::unique_ptr<storage::ObjectStore> store;
  report::CommandSpelling spelling;  // how a hint spells this project's collect and backfill
};
// How a command uses its store: a read command (analyze, examine, list, prune, unbless) never
// creates one, so a local path that does not exist is an error naming it; every command refuses a
// local path that is a file.
enum class StoreAccess { none, read, write };
// `check_config` sees the configuration as soon as it is read, before any store is opened: a
// rule that needs both options and configuration refuses there, with nothing touched.
using ConfigCheck = std::function<void(const config::Config&)>;
CommandContext open_context(const EnvironmentOptions& env, const OptionalPathFlag* cache, const Invocation& inv,
                            const std::filesystem::path& base, StoreAccess access, const ConfigCheck& check_config = {});
// The write commands' form: `need_store` false opens no store.
inline CommandContext open_context(const EnvironmentOptions& env, const OptionalPathFlag* cache,
                                   const Invocation& inv, const std::filesystem::path& base, bool need_store,
                                   const ConfigCheck& check_config = {}) {
  return open_context(env, cache, inv, base, need_store ? StoreAccess::write : StoreAccess::none, check_config);
}
// The check of the measuring commands (collect, backfill, bisect): cargo's options are refused
// with a configured [collect] bench_command unless --bench-command overrides it.
ConfigCheck measure_scope_check(const std::optional<std::string>& bench_command_option, const MeasureScope& scope);

// Discriminant filters with host auto-detection for omitted triple/machine-key values
// (docs/formats.md#option-groups): the triple from `rustc -vV`, the machine key from the hardware.
analysis::DiscriminantFilters resolve_filters_for_host(const FilterOptions& filters, const Invocation& inv,
                                                       bool auto_detect);

// Finishes a command's storage work: flush (cache marker), then the store's activity as a
// verbose note (cache epochs and hits/misses).
void finish_store(const CommandContext& ctx, const Invocation& inv, bool verbose);

// The wall clock, read once per command.
Timestamp now();

// Pipeline hooks printing announcements (and, with --verbose, notes) on inv.err.
pipeline::Hooks hooks_for(const Invocation& inv, bool verbose);

// Query commands resolve paths against the working directory; `--repo` only says where git
// runs (docs/formats.md#storage-selection).
std::unique_ptr<analysis::GitTopology> open_repository(const EnvironmentOptions& env, const Invocation& inv);

// A read command's selection as the command line gave it (refs, the parsed --since, dirty
// admission), completed with what only the run knows: the project, the configured default
// branch, the resolved filters and now (against which a --since span resolves).
analysis::SelectionRequest complete_selection(analysis::SelectionRequest given, const CommandContext& ctx,
                                              analysis::DiscriminantFilters filters);

// The benchmark command of a measuring command: --bench-command wins over [collect]
// bench_command (docs/bench-command.md); --verbose says which one.
std::optional<std::string> bench_command(const std::optional<std::string>& option, const config::Config& config,
                                         const Invocation& inv, bool verbose);

}  // namespace benchhist::app::detail
