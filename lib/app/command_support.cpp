#include "command_support.hpp"

#include <chrono>
#include <fstream>
#include <ostream>
#include <system_error>

#include "benchhist/error.hpp"
#include "benchhist/model/text.hpp"
#include "platform/platform.hpp"
#include "probe/ci_provider.hpp"
#include "probe/git_state.hpp"
#include "probe/hardware.hpp"
#include "probe/toolchain.hpp"

namespace benchhist::app::detail {

void note(const Invocation& inv, bool verbose, const std::string& text) {
  if (verbose) inv.err << note_prefix << text << '\n';
}

void announce(const Invocation& inv, std::string_view text) { inv.err << note_prefix << text << '\n'; }

namespace {

// A CI job: a known provider, or the `CI` variable most CI systems set (GitLab, CircleCI,
// Travis, Jenkins plugins, …) to anything but false.
bool in_ci(const probe::Environment& env) {
  if (probe::detect_ci_provider(env).provider != CiProvider::local) return true;
  const auto ci = env.non_empty("CI");
  return ci && *ci != "false" && *ci != "0";
}

}  // namespace

BenchOutput bench_output(const Invocation& inv, bool verbose, std::string_view command) {
  BenchOutput o;
  if (verbose) return o;
  o.dir.emplace(inv.env.non_empty("TMPDIR").value_or("/tmp"), command);
  o.log = collect::OutputLog{o.dir->path(), in_ci(inv.env) ? std::size_t{0} : std::size_t{40}};
  return o;
}

collect::FailedOutput show_failed_output(const Invocation& inv) {
  return [&inv](const std::filesystem::path& log, const collect::OutputTail& tail) {
    if (tail.lines == 0) {
      announce(inv, "the benchmark command failed without printing anything (its log: " + log.string() + ")");
      return;
    }
    if (tail.earlier_lines == 0)
      announce(inv, "the benchmark command failed; its output (kept in " + log.string() + "):");
    else
      announce(inv, "the benchmark command failed; the last " + std::to_string(tail.lines) +
                        " lines of its output (all " + std::to_string(tail.lines + tail.earlier_lines) + " are in " +
                        log.string() + "):");
    inv.err << tail.text << std::flush;
  };
}

void announce_logs(const Invocation& inv, const BenchOutput& output) {
  if (output.dir && !output.dir->empty())
    announce(inv, "the benchmark output of each commit is kept in " + output.dir->path().string() +
                      "/<commit>.log (pass --verbose to see it as it runs)");
}

void preflight(const std::vector<ReportFile>& files) {
  // A report path naming a directory would fail only after the whole analysis, and as "not
  // writable": refuse it here, before any store or git is touched.
  for (const auto& f : files) {
    std::error_code ec;
    // `-` is not standard output here: it would quietly become a file named `-`.
    if (f.path.filename() == "-")
      throw Error(ErrorKind::usage,
                  "the " + f.label + " report path " + f.path.string() +
                      " would be a file named '-': report options take a file path; to print the report, pass "
                      "/dev/stdout with --no-text",
                  f.path.string());
    if (std::filesystem::is_directory(f.path, ec))
      throw Error(ErrorKind::usage, "the " + f.label + " report path " + f.path.string() + " is a directory",
                  f.path.string(), {}, "name a file to write, for example one inside " + f.path.string());
    // `out/` names a directory whether or not it exists yet: writing would create it, then fail.
    if (!f.path.empty() && !f.path.has_filename())
      throw Error(ErrorKind::usage,
                  "the " + f.label + " report path " + f.path.string() + " names a directory (it ends in '/')",
                  f.path.string(), {}, "name a file to write inside it, for example " + (f.path / "report").string());
  }
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
                    "the " + files[i].label + " report (" + files[i].path.string() + ") and " + files[j].label +
                        " report (" + files[j].path.string() + ") have conflicting output destinations",
                    files[j].path.string(), {}, "give each report its own file");
    }
}

namespace {

void write_report(const ReportFile& f, const Invocation& inv) {
  const auto failed = [&f](std::string cause) {
    throw Error(ErrorKind::io, "failed to write the " + f.label + " report to " + f.path.string(), f.path.string(),
                std::move(cause), "check that the directory is writable");
  };
  // `--json /dev/stdout >> ci.log`: opening the name anew would truncate the file the shell
  // appends to and write from its start, so the report goes through the stream already open.
  const auto target = platform::classify_output_path(f.path);
  if (target == platform::OutputTarget::standard_output || target == platform::OutputTarget::standard_error) {
    std::ostream& os = target == platform::OutputTarget::standard_output ? inv.out : inv.err;
    os << f.content << std::flush;
    if (!os) failed("could not write to the standard " + std::string(target == platform::OutputTarget::standard_output ? "output" : "error"));
    return;
  }
  std::error_code ec;
  if (f.path.has_parent_path()) std::filesystem::create_directories(f.path.parent_path(), ec);
  // A pipe or terminal is written to as it is; only a regular file is replaced.
  const auto mode = std::ios::binary | (target == platform::OutputTarget::not_regular ? std::ios::app : std::ios::trunc);
  std::ofstream os(f.path, mode);
  if (os) os << f.content;
  if (os) os.flush();
  if (!os) failed(ec ? ec.message() : std::string("could not open or write the file"));
}

}  // namespace

void write_reports(const std::vector<ReportFile>& files, const Invocation& inv, bool verbose) {
  for (const auto& f : files) {
    write_report(f, inv);
    note(inv, verbose, "wrote the " + f.label + " report to " + f.path.string());
  }
}

ConfigCheck measure_scope_check(const std::optional<std::string>& bench_command_option, const MeasureScope& scope) {
  // Copies: a check may outlive the options it was made from.
  return [given = bench_command_option.has_value(), scope](const config::Config& config) {
    if (!given && config.bench_command) validate_configured_bench_command(scope, config.path);
  };
}

CommandContext open_context(const EnvironmentOptions& env, const OptionalPathFlag* cache, const Invocation& inv,
                            const std::filesystem::path& base, StoreAccess access, const ConfigCheck& check_config) {
  const bool v = env.verbose;
  CommandContext ctx;
  // The repository git runs in (`--repo`, else the working directory): its root names the
  // default project and holds the configuration, wherever below it the command runs.
  const auto root = probe::find_worktree_root(env.repo ? (inv.cwd / *env.repo).lexically_normal() : inv.cwd);
  auto loc = config_location(env, base, root);
  note(inv, v, "configuration: " + loc.path.string() + (loc.explicitly_named ? " (--config)" : " (default location)"));
  ctx.config = config::load_config(loc.path, loc.explicitly_named);
  if (check_config) check_config(ctx.config);
  if (!ctx.config.file_found) note(inv, v, "no configuration file found; using defaults");
  if (!ctx.config.ignored_tables.empty()) {
    std::vector<std::string> tables;  // "[project], [storage], [analysis] and [collect]"
    for (const auto table : config::read_tables) tables.push_back("[" + std::string(table) + "]");
    const std::string read = joined(tables, "and");
    for (const auto& table : ctx.config.ignored_tables)
      announce(inv, "warning: the configuration " + loc.path.string() + " has a table [" + table +
                        "] that this version does not read, so it is ignored (it reads " + read +
                        "): correct the table's name, or remove it");
  }
  for (const auto& key : ctx.config.ignored_project_keys)
    announce(inv, "warning: the configuration " + loc.path.string() + " has a key `" + key +
                      "` in [project] that this version does not read, so it is ignored (it reads `id` and "
                      "`default_branch`): correct the key's name, or remove it");
  ctx.project = config::resolve_project_id(ctx.config, root.value_or(base));
  note(inv, v, "project id: " + ctx.project);
  // A suggested command repeats the storage option the user gave; the configuration's own
  // choice needs none.
  if (env.config) {
    ctx.spelling.config = "--config " + shell_word(env.config->string());
    ctx.spelling.config_file = env.config->string();
  } else if (loc.path.lexically_relative(inv.cwd) != std::filesystem::path(default_config_file)) {
    ctx.spelling.config_file = loc.path.string();  // found above the working directory, or under --repo
  }
  if (env.local.present) ctx.spelling.storage = env.local.path ? shell_word("--local=" + env.local.path->string()) : "--local";
  ctx.spelling.bench_command = ctx.config.bench_command;
  if (access == StoreAccess::none) return ctx;
  const OptionalPathFlag no_cache{};
  ctx.storage = select_storage(env.local, cache ? *cache : no_cache, ctx.config.azure ? &*ctx.config.azure : nullptr,
                               inv.env, base, loc.path, ctx.config.file_found);
  note(inv, v, "storage: " + ctx.storage->describe() + " (" + ctx.storage->reason + ")");
  check_local_store_path(*ctx.storage, access == StoreAccess::read);
  ctx.store = open_store(*ctx.storage, ctx.project, inv.env, access == StoreAccess::read);
  return ctx;
}

analysis::DiscriminantFilters resolve_filters_for_host(const FilterOptions& f, const Invocation& inv,
                                                       bool auto_detect) {
  std::optional<std::string> triple, key;
  if (auto_detect) {
    if (f.target_triples.empty()) triple = probe::probe_toolchain().target_triple;
    if (f.machine_keys.empty()) key = probe::describe_hardware(inv.sys_root).fingerprint;
  }
  return f.resolve(triple, key);
}

void finish_store(const CommandContext& ctx, const Invocation& inv, bool verbose) {
  if (!ctx.store) return;
  ctx.store->flush();
  if (const auto activity = ctx.store->activity(); !activity.empty()) note(inv, verbose, activity);
}

Timestamp now() {
  return std::chrono::time_point_cast<std::chrono::nanoseconds>(std::chrono::system_clock::now());
}

pipeline::Hooks hooks_for(const Invocation& inv, bool verbose) {
  pipeline::Hooks h;
  h.announce = [&inv](std::string_view s) { announce(inv, s); };
  if (verbose) h.note = [&inv](std::string_view s) { announce(inv, s); };
  return h;
}

std::unique_ptr<analysis::GitTopology> open_repository(const EnvironmentOptions& env, const Invocation& inv) {
  if (!env.repo) return analysis::open_git_topology(inv.cwd);
  const auto dir = (inv.cwd / *env.repo).lexically_normal();
  try {
    return analysis::open_git_topology(dir);
  } catch (const Error& e) {
    // "or pass --repo <path>" would not help someone who did: the path given is the problem.
    if (e.kind() != ErrorKind::git) throw;
    throw Error(e.kind(), e.message(), e.subject(), e.cause(),
                "check the --repo path: it must be (or lie inside) the project's git repository");
  }
}

analysis::SelectionRequest complete_selection(analysis::SelectionRequest given, const CommandContext& ctx,
                                              analysis::DiscriminantFilters filters) {
  given.project = ctx.project;
  given.configured_default_branch = ctx.config.default_branch;
  given.filters = std::move(filters);
  given.now = now();
  return given;
}

// --bench-command wins over [collect] bench_command (docs/bench-command.md).
std::optional<std::string> bench_command(const std::optional<std::string>& option, const config::Config& config,
                                         const Invocation& inv, bool verbose) {
  if (option) {
    note(inv, verbose, "benchmark command from --bench-command");
    return option;
  }
  if (config.bench_command) note(inv, verbose, "benchmark command from [collect] bench_command in " + config.path.string());
  return config.bench_command;
}

}  // namespace benchhist::app::detail
