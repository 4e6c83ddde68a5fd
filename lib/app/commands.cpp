// Command runners behind the CLI (formats.md §6.5). Each implemented command does exactly what
// the spec says; the others validate their arguments and then say they are not available, so a
// caller never mistakes an unimplemented command for a successful one.

#include "benchhist/app/commands.hpp"

#include <fstream>
#include <ostream>
#include <system_error>
#include <type_traits>

#include "benchhist/analysis/filters.hpp"
#include "benchhist/app/list_discriminants.hpp"
#include "benchhist/app/storage_selection.hpp"
#include "benchhist/config/config.hpp"
#include "benchhist/config/starter.hpp"
#include "benchhist/error.hpp"
#include "benchhist/model/metric.hpp"
#include "benchhist/model/run.hpp"
#include "benchhist/probe/hardware.hpp"
#include "benchhist/probe/machine_key.hpp"

namespace benchhist::app {
namespace {

constexpr std::string_view note_prefix = "[bench-history] ";

void note(const Invocation& inv, bool verbose, const std::string& text) {
  if (verbose) inv.err << note_prefix << text << '\n';
}

[[noreturn]] void not_available(std::string_view command) {
  throw Error(ErrorKind::usage, not_available_message(command), std::string(command), {},
              "this build implements `install`, `machine-key` and `list discriminants`");
}

struct ReportFile {
  std::string label;  // `Markdown`, `JSON`
  std::filesystem::path path;
  std::string content;
};

// Two outputs must never write the same file or nest (formats.md §6.6 preflight), checked
// before anything is written.
void preflight(const std::vector<ReportFile>& files) {
  for (std::size_t i = 0; i < files.size(); ++i)
    for (std::size_t j = i + 1; j < files.size(); ++j) {
      std::error_code ec;
      auto a = std::filesystem::weakly_canonical(files[i].path, ec);
      if (ec) a = files[i].path.lexically_normal();
      auto b = std::filesystem::weakly_canonical(files[j].path, ec);
      if (ec) b = files[j].path.lexically_normal();
      auto nests = [](const std::filesystem::path& outer, const std::filesystem::path& inner) {
        auto o = outer.begin(), in = inner.begin();
        for (; o != outer.end(); ++o, ++in)
          if (in == inner.end() || *o != *in) return false;
        return true;
      };
      if (a == b || nests(a, b) || nests(b, a))
        throw Error(ErrorKind::usage,
                    "the " + files[i].label + " report (" + files[i].path.string() + ") and " +
                        files[j].label + " report (" + files[j].path.string() +
                        ") have conflicting output destinations",
                    files[j].path.string(), {}, "give each report its own file");
    }
}

// Parent directories are created and an existing file is replaced (formats.md §6.3).
void write_report(const ReportFile& f) {
  std::error_code ec;
  if (f.path.has_parent_path()) std::filesystem::create_directories(f.path.parent_path(), ec);
  std::ofstream os(f.path, std::ios::binary | std::ios::trunc);
  if (os) os << f.content;
  if (os) os.flush();
  if (!os)
    throw Error(ErrorKind::io,
                "failed to write the " + f.label + " report to " + f.path.string(), f.path.string(),
                ec ? ec.message() : std::string("could not open or write the file"),
                "check that the directory is writable");
}

std::string no_output_message() {
  return "no output selected: --no-text suppresses the text report, so request at least one of "
         "--markdown <path> or --json <path>";
}

// Unknown `--engine` names are reported before anything else runs (formats.md §6.4).
void check_engines(const DiscriminantFilters& filters) {
  (void)analysis::resolve_filter(analysis::FilterAxis::engine, filters.engines);
}

void check_output(const OutputOptions& out) {
  if (out.no_text && !out.markdown && !out.json)
    throw Error(ErrorKind::usage, no_output_message(), "--no-text");
}

void list_discriminants(const ListOptions& o, const Invocation& inv) {
  const bool v = o.env.verbose;
  check_output(o.output);
  const std::filesystem::path base = inv.cwd;  // query commands: the working directory (§6.3)
  std::vector<ReportFile> files;
  if (o.output.markdown) files.push_back({"Markdown", base / *o.output.markdown, {}});
  if (o.output.json) files.push_back({"JSON", base / *o.output.json, {}});
  preflight(files);

  auto loc = config_location(o.env, base);
  note(inv, v, "configuration: " + loc.path.string() + (loc.explicitly_named ? " (--config)" : " (default location)"));
  Config config = load_config(loc.path, loc.explicitly_named);
  if (v && !config.file_found) note(inv, v, "no configuration file found; using defaults");
  std::string project = resolve_project_id(config, base);
  note(inv, v, "project id: " + project);

  auto choice = select_storage(o.env.local, o.cache.cache, config.azure ? &*config.azure : nullptr,
                               inv.env, base);
  note(inv, v, "storage: " + choice.describe() + " (" + choice.reason + ")");
  auto store = open_store(choice, project, inv.env);

  auto sets = list_discriminant_sets(*store, project, o.filters);
  store->flush();
  note(inv, v, "found " + std::to_string(sets.size()) + " discriminant set(s)");

  for (auto& f : files) {
    f.content = f.label == "JSON" ? render_discriminants_json(sets) : render_discriminants_markdown(sets);
    write_report(f);
    note(inv, v, "wrote the " + f.label + " report to " + f.path.string());
  }
  // Rendered text already ends with `\n`; the reference adds one more (formats.md §6.2).
  if (!o.output.no_text) inv.out << render_discriminants_text(sets) << '\n';
}

}  // namespace

std::string not_available_message(std::string_view command) {
  return "`" + std::string(command) + "` is not available in this build yet";
}

void run_machine_key(const MachineKeyOptions& options, const Invocation& inv) {
  MachineDescription machine = describe_hardware(inv.sys_root);
  MachineKeyInputs inputs = machine_key_inputs(machine);
  std::string key = compute_machine_key(inputs);
  if (options.verbose)
    inv.err << note_prefix << "machine-key components: " << machine_key_components_line(inputs) << '\n';
  inv.out << key << '\n';
}

void run_install(const InstallOptions& options, const Invocation& inv) {
  // `install --config` resolves against the working directory (formats.md §6.3).
  std::filesystem::path path =
      (inv.cwd / options.config.value_or(std::filesystem::path(default_config_file))).lexically_normal();
  note(inv, options.verbose, "configuration path: " + path.string());
  bool wrote = false;
  try {
    wrote = write_starter_config(path);
  } catch (const Error& e) {
    throw Error(ErrorKind::io, "failed to write the configuration file to " + path.string(),
                path.string(), e.cause().empty() ? e.message() : e.message() + ": " + e.cause(),
                "check that the directory is writable or pass --config <PATH>");
  } catch (const std::exception& e) {
    throw Error(ErrorKind::io, "failed to write the configuration file to " + path.string(),
                path.string(), e.what(), "check that the directory is writable or pass --config <PATH>");
  }
  if (!wrote) {
    inv.out << "Configuration already exists at " << path.string() << "; leaving it unchanged.\n";
    return;
  }
  inv.out << "Wrote a starter configuration to " << path.string() << ".\n"
          << "\n"
          << "Next steps:\n"
          << "  - Local storage needs no configuration: pass --local=<path>, or set "
             "CARGO_BENCH_HISTORY_STORAGE and pass a bare --local.\n"
          << "  - For cloud storage, edit the [storage.azure] section of the file.\n"
          << "  - Record the current commit: cargo bench-history collect --local=./bench-history\n"
          << "  - Seed history from earlier commits: cargo bench-history backfill "
             "--local=./bench-history <from-commit> HEAD~1\n"
          << "  - Once a few entries exist: cargo bench-history analyze --local=./bench-history\n";
}

void run_list(const ListOptions& options, const Invocation& inv) {
  if (options.all && options.subject != ListSubject::blessings)
    throw Error(ErrorKind::usage,
                "--all applies only to `list blessings`, not to `list " +
                    std::string(to_string(options.subject)) + "`",
                "--all", {}, "drop --all, or use `list blessings --all`");
  check_engines(options.filters);
  if (options.subject != ListSubject::discriminants)
    not_available("list " + std::string(to_string(options.subject)));
  list_discriminants(options, inv);
}

void run_command(const Command& command, const Invocation& inv) {
  validate(command);
  std::visit(
      [&](const auto& o) {
        using T = std::decay_t<decltype(o)>;
        if constexpr (std::is_same_v<T, InstallOptions>) {
          run_install(o, inv);
        } else if constexpr (std::is_same_v<T, MachineKeyOptions>) {
          run_machine_key(o, inv);
        } else if constexpr (std::is_same_v<T, ListOptions>) {
          run_list(o, inv);
        } else {
          // Argument errors a user can fix now are still reported before "not available".
          if constexpr (requires { o.filters; }) check_engines(o.filters);
          if constexpr (std::is_same_v<T, ExamineOptions>) {
            if (o.benchmark.empty())
              throw Error(ErrorKind::usage, "--benchmark must not be empty", "--benchmark");
            if (!parse_metric_kind(o.metric))
              throw Error(ErrorKind::usage,
                          "unknown metric \"" + o.metric +
                              "\"; expected one of: wall_time, processor_time, instruction_count, "
                              "conditional_branches, indirect_branches, allocated_bytes, "
                              "allocation_count, peak_outstanding_bytes",
                          o.metric);
          }
          if constexpr (std::is_same_v<T, BlessOptions>) {
            if (o.prefixes.empty() && !o.all)
              throw Error(ErrorKind::usage,
                          "bless requires at least one benchmark-id prefix (or pass --all); for "
                          "example `bless all_the_time/read_cell`",
                          "[PREFIX]...");
          }
          if constexpr (requires { o.output; }) check_output(o.output);
          not_available(command_name(command));
        }
      },
      command);
}

}  // namespace benchhist::app
