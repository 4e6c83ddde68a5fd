// Command runners behind the CLI (docs/cli.md#commands): one runner per command of the option
// model.

#include "app/commands.hpp"

#include "app/analysis_commands.hpp"
#include "app/automation_commands.hpp"
#include "app/bisect_command.hpp"
#include "app/collect_command.hpp"
#include "app/history_commands.hpp"
#include "setup/setup_azure.hpp"
#include "command_support.hpp"

#include <fstream>
#include <ostream>
#include <system_error>

#include <algorithm>
#include <iterator>

#include "benchhist/analysis/filters.hpp"
#include "benchhist/pipeline/analyze.hpp"
#include "benchhist/report/hints.hpp"
#include "app/list_discriminants.hpp"
#include "benchhist/report/list_output.hpp"
#include "app/storage_selection.hpp"
#include "benchhist/config/config.hpp"
#include "benchhist/config/starter.hpp"
#include "benchhist/error.hpp"
#include "benchhist/model/metric.hpp"
#include "benchhist/model/run.hpp"
#include "benchhist/model/text.hpp"
#include "probe/git_state.hpp"
#include "probe/hardware.hpp"
#include "probe/machine_key.hpp"

namespace benchhist::app {
namespace {

using namespace detail;


// Why each component of the machine key is hashed and what is left out (the guide: "machine-key
// --verbose prints exactly what was hashed and why"; docs/formats.md#machine-key).
constexpr const char* machine_key_reasons[] = {
    "version: the recipe's tag; changing what is hashed changes it, so a new recipe starts new histories "
    "instead of mixing keys",
    "processors: the processors this process may run on (its affinity), not the whole host; a different "
    "count is a different machine for parallel and scheduled work",
    "memory_regions: the distinct NUMA nodes among those processors (1 without NUMA information); memory "
    "placement changes timings",
    "processor_models: their model names (whitespace collapsed, empties dropped, de-duplicated, sorted); "
    "the microarchitecture decides the code paths libraries dispatch to and their speed",
    "not hashed: clock speeds (they vary with thermal state and power policy on the same machine and would "
    "rotate the key), memory size and the host name (a renamed machine keeps its history)",
};

void list_discriminants(const ListOptions& o, const Invocation& inv) {
  const bool v = o.env.verbose;
  const std::filesystem::path base = inv.cwd;  // query commands: the working directory (docs/formats.md#storage-selection)
  Outputs<std::vector<DiscriminantSet>> files;
  if (o.output.markdown) files.add("Markdown", base / *o.output.markdown, &report::render_discriminants_markdown);
  if (o.output.json) files.add("JSON", base / *o.output.json, &report::render_discriminants_json);
  preflight(files.files);

  auto ctx = open_context(o.env, &o.cache.cache, inv, base, StoreAccess::read);
  auto& store = ctx.store;
  const auto& project = ctx.project;

  const auto filters = o.filters.resolve();
  const auto stored = list_discriminant_sets(*store, project, FilterOptions{});
  std::vector<DiscriminantSet> sets;
  std::copy_if(stored.begin(), stored.end(), std::back_inserter(sets),
               [&](const DiscriminantSet& s) { return filters.accepts(s); });
  // The effective selection, as every query prints it (docs/formats.md#streams): here the
  // filters alone, never auto-detected, since the listing is how a user finds the partitions.
  inv.err << analysis::selection_announcement(filters) << '\n';
  finish_store(ctx, inv, v);
  note(inv, v, "found " + std::to_string(sets.size()) + " discriminant set(s)");
  // An empty listing says why: nothing stored at all, or which filter turned the stored sets away.
  if (sets.empty())
    announce(inv, stored.empty() ? report::hint_nothing_stored(project, store->describe(), ctx.spelling,
                                                               pipeline::stored_projects(*store, project))
                                 : report::hint_no_set_matched(pipeline::emptying_filters(filters, stored)));

  files.render(sets);
  write_reports(files.files, inv, v);
  // Rendered text already ends with `\n`; the reference adds one more (docs/formats.md#streams).
  if (!o.output.no_text) inv.out << report::render_discriminants_text(sets) << '\n';
}

}  // namespace


void run_machine_key(const MachineKeyOptions& options, const Invocation& inv) {
  MachineDescription machine = probe::describe_hardware(inv.sys_root);
  probe::MachineKeyInputs inputs = probe::machine_key_inputs(machine);
  std::string key = probe::compute_machine_key(inputs);
  if (options.verbose) {
    inv.err << note_prefix << "machine-key components: " << probe::machine_key_components_line(inputs) << '\n';
    for (const char* why : machine_key_reasons) inv.err << note_prefix << "  " << why << '\n';
  }
  inv.out << key << '\n';
}

void run_install(const InstallOptions& options, const Invocation& inv) {
  namespace fs = std::filesystem;
  // `install --config` resolves against the working directory (docs/formats.md#storage-selection).
  const fs::path path = (inv.cwd / options.config.value_or(fs::path(default_config_file))).lexically_normal();
  note(inv, options.verbose, "configuration path: " + path.string());
  std::error_code ec;
  // `newdir/` names a directory even before it exists: refused before anything is created.
  if (fs::is_directory(path, ec) || path.filename().empty()) {
    const bool exists = fs::is_directory(path, ec);
    const fs::path dir = path.filename().empty() ? path.parent_path() : path;
    throw Error(ErrorKind::usage,
                "the configuration path " + path.string() +
                    (exists ? " is a directory, not a file" : " names a directory (it ends in '/'), not a file"),
                path.string(), {},
                "pass --config <file>, e.g. --config " + (dir / "bench_history.toml").lexically_normal().string());
  }
  // A link whose target is gone is what every other command refuses to read: "already exists"
  // would leave the user with a configuration no command can load.
  if (fs::is_symlink(fs::symlink_status(path, ec)) && !fs::exists(path, ec))
    throw Error(ErrorKind::usage,
                "the configuration path " + path.string() + " is a symbolic link to " +
                    fs::read_symlink(path, ec).string() + ", which does not exist",
                path.string(), {}, "remove the link (install then writes the file there), or restore its target");
  if (!options.config) {
    // From a subdirectory, the repository's file is the one every command run here reads: a
    // second one here would silently take its place (its id, backend and ignores lost).
    EnvironmentOptions env;
    const auto reads = config_location(env, inv.cwd, probe::find_worktree_root(inv.cwd));
    if (reads.path != path && fs::exists(fs::symlink_status(reads.path, ec))) {
      inv.out << "Configuration already exists at " << reads.path.string()
              << "; leaving it unchanged. Commands run in " << inv.cwd.string()
              << " read it; to give this directory a file of its own instead, pass --config "
              << default_config_file << ".\n";
      return;
    }
  }
  bool wrote = false;
  const auto failed = [&path](std::string cause) {
    return Error(ErrorKind::io, "failed to write the configuration file to " + path.string(), path.string(),
                 std::move(cause), "check that the directory is writable or pass --config <PATH>");
  };
  try {
    wrote = config::write_starter_config(path);
  } catch (const Error& e) {
    throw failed(e.cause().empty() ? e.message() : e.cause());
  } catch (const std::exception& e) {
    throw failed(e.what());
  }
  if (!wrote) {
    inv.out << "Configuration already exists at " << path.string() << "; leaving it unchanged.\n";
    return;
  }
  // A file other commands would not find by themselves is read only when named: every command
  // needs --config then. Asked after writing: the new file may now be the nearest one.
  const bool must_name = options.config && config_location(EnvironmentOptions{}, inv.cwd,
                                                            probe::find_worktree_root(inv.cwd)).path != path;
  const std::string with_config = must_name ? " --config " + shell_word(options.config->string()) : "";
  inv.out << "Wrote a starter configuration to " << path.string() << ".\n"
          << "\n"
          << "Next steps:\n"
          << "  - Local storage needs no configuration: pass --local=<path>, or set "
             "CARGO_BENCH_HISTORY_STORAGE and pass a bare --local.\n"
          << "  - For cloud storage, edit the [storage.azure] section of the file.\n"
          << "  - Record the current commit: cargo bench-history collect" << with_config << " --local=./bench-history\n"
          << "  - Seed history from earlier commits: cargo bench-history backfill" << with_config
          << " --local=./bench-history <from-commit> HEAD~1\n"
          << "  - Once a few entries exist: cargo bench-history analyze" << with_config << " --local=./bench-history\n"
          << "  - Commit this file and add /bench-history/ to .gitignore: while either is untracked, collect stores "
             "dirty snapshots, which history analysis does not read.\n";
  if (must_name)
    inv.out << "  - Pass --config " << shell_word(options.config->string())
            << " to every command, as above: only .cargo/bench_history.toml is found without it.\n";
}

void run_list(const ListOptions& options, const Invocation& inv) {
  if (options.all && options.subject != ListSubject::blessings)
    throw Error(ErrorKind::usage,
                "--all applies only to `list blessings`, not to `list " +
                    std::string(to_string(options.subject)) + "`",
                "--all", {}, "drop --all, or use `list blessings --all`");
  if (options.subject == ListSubject::runs) return run_list_runs(options, inv);
  if (options.subject == ListSubject::blessings) return run_list_blessings(options, inv);
  list_discriminants(options, inv);
}

namespace {

// One overload per command of app::Command: std::visit picks it by type, and a command without
// a runner does not compile.
int run(const InstallOptions& o, const Invocation& inv) {
  run_install(o, inv);
  return 0;
}
int run(const MachineKeyOptions& o, const Invocation& inv) {
  run_machine_key(o, inv);
  return 0;
}
int run(const ListOptions& o, const Invocation& inv) {
  run_list(o, inv);
  return 0;
}
int run(const CollectOptions& o, const Invocation& inv) {
  run_collect(o, inv);
  return 0;
}
int run(const AnalyzeOptions& o, const Invocation& inv) { return run_analyze(o, inv); }
int run(const ExamineOptions& o, const Invocation& inv) {
  run_examine(o, inv);
  return 0;
}
int run(const BlessOptions& o, const Invocation& inv) {
  run_bless(o, inv);
  return 0;
}
int run(const UnblessOptions& o, const Invocation& inv) {
  run_unbless(o, inv);
  return 0;
}
int run(const PruneOptions& o, const Invocation& inv) {
  run_prune(o, inv);
  return 0;
}
int run(const BackfillOptions& o, const Invocation& inv) {
  run_backfill(o, inv);
  return 0;
}
int run(const ImportOptions& o, const Invocation& inv) {
  run_import(o, inv);
  return 0;
}
int run(const PublishOptions& o, const Invocation& inv) {
  run_publish(o, inv);
  return 0;
}
int run(const BackfillRangeOptions& o, const Invocation& inv) {
  run_backfill_range(o, inv);
  return 0;
}
int run(const AffectedOptions& o, const Invocation& inv) {
  run_affected(o, inv);
  return 0;
}
int run(const BisectOptions& o, const Invocation& inv) {
  run_bisect(o, inv);
  return 0;
}
int run(const SetupAzureOptions& o, const Invocation& inv) {
  setup::SetupRuntime runtime;
  runtime.env = &inv.env;
  setup::run_setup_azure(o, inv.out, inv.err, runtime);  // inputs validated where they were given
  return 0;
}

}  // namespace

int run_command(const Command& command, const Invocation& inv) {
  validate(command);
  return std::visit([&inv](const auto& o) { return run(o, inv); }, command);
}

}  // namespace benchhist::app
