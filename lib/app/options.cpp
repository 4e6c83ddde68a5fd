// Option-model rules shared by the CLI and library callers (docs/formats.md#option-groups,
// docs/cli.md#commands).

#include "app/options.hpp"

#include <algorithm>
#include <cctype>
#include <type_traits>

#include "benchhist/bisect/bisection.hpp"
#include "benchhist/codec/key.hpp"
#include "benchhist/error.hpp"
#include "benchhist/model/ascii.hpp"
#include "benchhist/model/text.hpp"

namespace benchhist::app {
namespace {

[[noreturn]] void usage(std::string message, std::string subject = {}) {
  throw Error(ErrorKind::usage, std::move(message), std::move(subject), {},
              "run the command with --help to see its arguments");
}

// clap-style conflict sentence; both names are spelled as on the command line.
[[noreturn]] void conflict(std::string_view a, std::string_view b) {
  usage("the argument '" + std::string(a) + "' cannot be used with '" + std::string(b) + "'",
        std::string(a));
}

// `--no-text` with no file output leaves the command nothing to show; the message names every
// file output the command has (`extras`: those beyond --markdown and --json, and whether one was
// given).
struct ExtraOutput {
  std::string_view flag;
  bool given = false;
};
void require_output(const OutputOptions& out, std::initializer_list<ExtraOutput> extras = {}) {
  if (!out.no_text || out.markdown || out.json) return;
  std::vector<std::string> flags{"--markdown <path>", "--json <path>"};
  for (const auto& e : extras) {
    if (e.given) return;
    flags.push_back(std::string(e.flag) + " <path>");
  }
  usage("no output selected: --no-text suppresses the text report, so request at least one of " + joined(flags, "or"),
        "--no-text");
}

void require_positive(std::uint32_t value, std::string_view name) {
  if (value == 0)
    usage("invalid value '0' for '" + std::string(name) + "': the value must be at least 1",
          std::string(name));
}

void validate_prefixes(const std::vector<std::string>& prefixes) {
  for (const auto& p : prefixes)
    if (p.empty()) usage("a benchmark-id prefix must not be empty", "[PREFIX]");
}

void validate_local_cache(const EnvironmentOptions& env, const CacheOption& cache) {
  // The cache mirrors a cloud store; it is meaningless for a local one
  // (docs/formats.md#storage-selection).
  if (env.local.present && cache.cache.present) conflict("--cache[=<PATH>]", "--local[=<PATH>]");
}

void validate_path_flag(const OptionalPathFlag& flag, std::string_view name) {
  if (flag.path && flag.path->empty())
    usage("a value is required for '" + std::string(name) + "=<PATH>' but none was supplied",
          std::string(name));
}

void validate_env(const EnvironmentOptions& env) { validate_path_flag(env.local, "--local"); }

// The first option of `scope` that only cargo bench understands (`--workspace` aside), as
// spelled in the usage text.
std::optional<std::string_view> cargo_only_option(const MeasureScope& scope) {
  const collect::BenchScope& cargo = scope.cargo;
  if (!cargo.packages.empty()) return "--package <NAME>";
  if (!cargo.excludes.empty()) return "--exclude <NAME>";
  if (!cargo.benches.empty()) return "--bench <NAME>";
  if (!cargo.features.empty()) return "--features <FEATURES>";
  if (cargo.all_features) return "--all-features";
  if (cargo.no_default_features) return "--no-default-features";
  if (!cargo.passthrough.empty()) return "-- <ARGS>...";
  return std::nullopt;
}

// --bench-command replaces cargo bench, so cargo's own selection options mean nothing with it.
void validate_bench_command(const std::optional<std::string>& command, const MeasureScope& scope) {
  if (!command) return;
  if (command->find_first_not_of(" \t\r\n") == std::string::npos)
    usage("a value is required for '--bench-command <COMMAND>' but none was supplied", "--bench-command");
  const char* b = "--bench-command <COMMAND>";
  if (scope.workspace) conflict(b, "--workspace");
  if (const auto option = cargo_only_option(scope)) conflict(b, *option);
}

void validate_triple(const std::optional<std::string>& triple) {
  if (triple && ascii::trim(*triple).empty())
    usage("a value is required for '--target-triple <TRIPLE>' but none was supplied", "--target-triple");
  // The triple names a directory of the store: a longer one would fail only after the suite ran.
  if (const auto overlong = triple ? codec::overlong_segment(*triple) : std::nullopt)
    usage("'--target-triple <TRIPLE>' " + *overlong + ": pass the target triple of the toolchain that built the "
          "benchmarks", "--target-triple");
}

void validate_scope(const MeasureScope& scope) {
  if (scope.workspace && !scope.cargo.packages.empty()) conflict("--workspace", "--package <NAME>");
  if (!scope.cargo.excludes.empty() && !scope.cargo.packages.empty())
    conflict("--exclude <NAME>", "--package <NAME>");
}

// `list discriminants` reads storage keys only, and `list blessings` without --all looks at one
// commit: an option the subject cannot honour is refused, never silently ignored.
void validate_list(const ListOptions& o) {
  // The CLI prints a usage error without its hint, so the message says what to do.
  auto refuse = [&](bool present, const char* option, std::string_view why, std::string_view hint) {
    if (!present) return;
    throw Error(ErrorKind::usage,
                "'" + std::string(option) + "' does not apply to `list " + std::string(to_string(o.subject)) + "`" +
                    std::string(why) + "; " + std::string(hint),
                option);
  };
  if (o.subject == ListSubject::discriminants) {
    const char* why = " (it lists every stored discriminant set, whatever the commits)";
    const char* hint = "drop the option, or use `list runs` to see the runs of a commit selection";
    refuse(o.selection.context_ref.has_value(), "--context <REF>", why, hint);
    refuse(o.selection.base_ref.has_value(), "--base <REF>", why, hint);
    refuse(o.selection.since.has_value(), "--since <WHEN>", why, hint);
    refuse(!o.selection.allow_dirty, "--no-dirty", why, hint);
  } else if (o.subject == ListSubject::blessings && !o.all) {
    const char* why = " without --all (it lists the blessings recorded at the context commit)";
    const char* hint = "drop the option, or add --all to list the blessings in effect over the selected window";
    refuse(o.selection.base_ref.has_value(), "--base <REF>", why, hint);
    refuse(o.selection.since.has_value(), "--since <WHEN>", why, hint);
    refuse(!o.selection.allow_dirty, "--no-dirty", why, hint);
  }
  if (o.subject != ListSubject::runs)
    refuse(o.skip_unreadable, "--skip-unreadable", "", "drop --skip-unreadable (it applies to `list runs`)");
}

// publish: which inputs each target needs (docs/cli.md "publish").
void validate_publish(const PublishOptions& o) {
  auto forbid = [](bool present, const char* option, const char* target) {
    if (present)
      usage(std::string("'") + option + "' does not apply to `publish " + target + "`", option);
  };
  // The comment shows and links it: a ref or a sentence would be printed as a commit.
  if (o.commit && !o.commit->empty() && !is_commit_id(*o.commit))
    usage("invalid value '" + *o.commit + "' for '--commit <SHA>': pass the commit's id (hexadecimal), e.g. "
          "${{ github.event.pull_request.head.sha }} or $(git rev-parse HEAD)",
          "--commit");
  switch (o.target) {
    case PublishTarget::history:
      forbid(o.pull_request.has_value(), "--pr <N>", "history");
      forbid(o.pending, "--pending", "history");
      forbid(o.nothing_benchmarked, "--nothing-benchmarked", "history");
      forbid(o.failed, "--failed", "history");
      if (!o.json || !o.markdown)
        usage("`publish history` requires --json <PATH> and --markdown <PATH> (the analyze reports)",
              o.json ? "--markdown" : "--json");
      break;
    case PublishTarget::pr: {
      if (!o.pull_request) usage("`publish pr` requires --pr <N>", "--pr");
      if (*o.pull_request == 0) usage("invalid value '0' for '--pr <N>': the value must be at least 1", "--pr");
      const int modes = int(o.pending) + int(o.nothing_benchmarked) + int(o.failed) +
                        int(o.json.has_value() || o.markdown.has_value());
      if (modes != 1)
        usage("`publish pr` takes exactly one of --pending, --nothing-benchmarked, --failed, or --json <PATH> with "
              "--markdown <PATH>",
              "--pending|--nothing-benchmarked|--failed|--json");
      // The comment says "the run's log says why": it must link the run.
      if (o.failed && !o.run_url) usage("`publish pr --failed` requires --run-url <URL> (the failed run)", "--run-url");
      if ((o.json.has_value() || o.markdown.has_value()) && !(o.json && o.markdown))
        usage("a pull-request result needs both --json <PATH> and --markdown <PATH>", o.json ? "--markdown" : "--json");
      break;
    }
    case PublishTarget::failure:
      forbid(o.pull_request.has_value(), "--pr <N>", "failure");
      forbid(o.pending, "--pending", "failure");
      forbid(o.nothing_benchmarked, "--nothing-benchmarked", "failure");
      forbid(o.failed, "--failed", "failure");
      forbid(o.json.has_value(), "--json <PATH>", "failure");
      forbid(o.markdown.has_value(), "--markdown <PATH>", "failure");
      if (!o.run_url) usage("`publish failure` requires --run-url <URL> (the failed run)", "--run-url");
      break;
  }
}

}  // namespace

analysis::DiscriminantFilters FilterOptions::resolve(const std::optional<std::string>& host_target_triple,
                                                    const std::optional<std::string>& host_machine_key) const {
  return {engine, analysis::resolve_filter(analysis::FilterAxis::target_triple, target_triples, host_target_triple),
          analysis::resolve_filter(analysis::FilterAxis::machine_key, machine_keys, host_machine_key)};
}

std::string_view to_string(ListSubject s) noexcept {
  switch (s) {
    case ListSubject::runs: return "runs";
    case ListSubject::discriminants: return "discriminants";
    case ListSubject::blessings: return "blessings";
  }
  return "runs";
}

std::optional<ListSubject> parse_list_subject(std::string_view s) noexcept {
  for (ListSubject x : {ListSubject::runs, ListSubject::discriminants, ListSubject::blessings})
    if (s == to_string(x)) return x;
  return std::nullopt;
}

std::string_view command_name(const Command& command) noexcept {
  return std::visit(
      [](const auto& o) -> std::string_view {
        using T = std::decay_t<decltype(o)>;
        if constexpr (std::is_same_v<T, InstallOptions>) return "install";
        else if constexpr (std::is_same_v<T, CollectOptions>) return "collect";
        else if constexpr (std::is_same_v<T, BackfillOptions>) return "backfill";
        else if constexpr (std::is_same_v<T, AnalyzeOptions>) return "analyze";
        else if constexpr (std::is_same_v<T, ExamineOptions>) return "examine";
        else if constexpr (std::is_same_v<T, ListOptions>) return "list";
        else if constexpr (std::is_same_v<T, PruneOptions>) return "prune";
        else if constexpr (std::is_same_v<T, MachineKeyOptions>) return "machine-key";
        else if constexpr (std::is_same_v<T, BlessOptions>) return "bless";
        else if constexpr (std::is_same_v<T, UnblessOptions>) return "unbless";
        else if constexpr (std::is_same_v<T, SetupAzureOptions>) return "setup-azure";
        else if constexpr (std::is_same_v<T, PublishOptions>) return "publish";
        else if constexpr (std::is_same_v<T, BackfillRangeOptions>) return "backfill-range";
        else if constexpr (std::is_same_v<T, AffectedOptions>) return "affected";
        else if constexpr (std::is_same_v<T, BisectOptions>) return "bisect";
        else return "import";
      },
      command);
}

void validate_configured_bench_command(const MeasureScope& scope, const std::filesystem::path& config_file) {
  const auto option = cargo_only_option(scope);
  if (!option) return;
  throw Error(ErrorKind::usage,
              "the argument '" + std::string(*option) + "' cannot be used with the benchmark command of " +
                  config_file.string() + " ([collect] bench_command): the command runs instead of cargo bench, so "
                  "cargo's options would be ignored",
              std::string(*option), {},
              "remove '" + std::string(*option) + "' (select benchmarks in the command itself; in the GitHub "
              "workflows, leave the bench, features, all-features, no-default-features and exclude inputs unset), or "
              "remove bench_command from the configuration to run cargo bench");
}

namespace {

// One rule set per command of app::Command; std::visit picks it by type, and a command without
// one is accepted as it is.
void check(const CollectOptions& o) {
  validate_env(o.env);
  validate_scope(o.scope);
  if (o.skip_existing && o.overwrite) conflict("--skip-existing", "--overwrite");
  require_positive(o.best_of, "--best-of <N>");
  validate_bench_command(o.bench_command, o.scope);
  validate_triple(o.target_triple);
}
void check(const BackfillOptions& o) {
  validate_env(o.env);
  validate_scope(o.scope);
  validate_bench_command(o.bench_command, o.scope);
  validate_triple(o.target_triple);
  if (o.from.empty()) usage("a value is required for '<FROM>'", "<FROM>");
  if (o.to.empty()) usage("a value is required for '<TO>'", "<TO>");
  require_positive(o.best_of, "--best-of <N>");
  if (o.max_commits) require_positive(*o.max_commits, "--max-commits <N>");
}
void check(const AnalyzeOptions& o) {
  validate_env(o.env);
  validate_local_cache(o.env, o.cache);
  validate_path_flag(o.cache.cache, "--cache");
  validate_prefixes(o.prefixes);
  require_output(o.output, {{"--markdown-summary", o.markdown_summary.has_value()},
                            {"--outcome", o.outcome.has_value()},
                            {"--html", o.html.has_value()}});
}
void check(const ExamineOptions& o) {
  validate_env(o.env);
  validate_local_cache(o.env, o.cache);
  validate_path_flag(o.cache.cache, "--cache");
  require_output(o.output, {{"--html", o.html.has_value()}});
}
void check(const ListOptions& o) {
  validate_env(o.env);
  validate_local_cache(o.env, o.cache);
  validate_path_flag(o.cache.cache, "--cache");
  validate_list(o);
  require_output(o.output);
}
void check(const PruneOptions& o) {
  validate_env(o.env);
  validate_local_cache(o.env, o.cache);
  validate_path_flag(o.cache.cache, "--cache");
  if (o.runs == pipeline::PruneRuns::none && !o.include_blessings)
    usage("prune requires a deletion scope: --clean (clean runs), --dirty (dirty snapshots), "
          "--all (both), and/or --include-blessings (blessing sidecars)",
          "--clean|--dirty|--all|--include-blessings");
  // [COMMIT] is a prefix of full commit ids (docs/prune.md): a ref or a tag could never match,
  // and would prune nothing without a word.
  for (const auto& c : o.commits)
    if (!is_commit_id(c))
      usage("invalid commit \"" + c + "\": prune takes commit ids or their prefixes (hexadecimal), not refs; pass "
            "the id, e.g. $(git rev-parse " + (c.empty() ? std::string("HEAD") : c) + ")",
            "[COMMIT]");
  require_output(o.output);
}
void check(const BlessOptions& o) {
  validate_env(o.env);
  validate_prefixes(o.prefixes);
  if (o.all && !o.prefixes.empty()) conflict("--all", "[PREFIX]...");
}
void check(const UnblessOptions& o) {
  validate_env(o.env);
}
void check(const PublishOptions& o) {
  validate_publish(o);
}
void check(const AffectedOptions& o) {
  if (o.base.empty()) usage("a value is required for '--base <REF>'", "--base");
  if (o.head.empty()) usage("a value is required for '--head <REF>'", "--head");
}
void check(const BisectOptions& o) {
  validate_env(o.env);
  validate_local_cache(o.env, o.cache);
  validate_path_flag(o.cache.cache, "--cache");
  validate_scope(o.scope);
  validate_bench_command(o.bench_command, o.scope);
  require_positive(o.max_builds, "--max-builds <N>");
  require_positive(o.repeat, "--repeat <N>");
  require_positive(o.best_of, "--best-of <N>");
  bisect::check_options(bisect::Options{o.max_builds, o.repeat, o.ignore_errors}, o.dry_run);
  require_output(o.output);
  if (o.benchmark && o.benchmark->empty()) usage("a value is required for '--benchmark <ID>'", "--benchmark");
}
void check(const ImportOptions& o) {
  validate_env(o.env);
  if (o.target_dir && o.target_dir->empty()) usage("a value is required for '--target-dir <PATH>'", "--target-dir");
  if (!o.target_dir && o.reports.empty())
    usage("import needs something to store: pass --target-dir <PATH> and/or benchmark report files (Google "
          "Benchmark JSON, hyperfine JSON, Catch2 XML, BMF, cargo bench #[bench] output)",
          "--target-dir");
  for (const auto& r : o.reports)
    if (r.empty()) usage("a report path must not be empty", "[REPORT]");
  if (o.skip_existing && o.overwrite) conflict("--skip-existing", "--overwrite");
  validate_triple(o.target_triple);
  if (o.commit && o.commit->empty()) usage("a value is required for '--commit <REF>'", "--commit");
}
// Nothing to check beyond what parsing already ensures (backfill-range's inputs are validated
// by automation::prepare_backfill_range; setup-azure's are setup::SetupAzureInputs, validated by
// setup::validate_setup_azure where they are given).
void check(const InstallOptions&) {}
void check(const MachineKeyOptions&) {}
void check(const BackfillRangeOptions&) {}
void check(const SetupAzureOptions&) {}

}  // namespace

void validate(const Command& command) {
  std::visit([](const auto& o) { check(o); }, command);
}

std::filesystem::path path_base(const Command& command, const std::filesystem::path& cwd) {
  // Write commands resolve against the repository they measure; query commands against the
  // process working directory, `--repo` only choosing where git runs
  // (docs/formats.md#storage-selection).
  const EnvironmentOptions* env = nullptr;
  if (auto* c = std::get_if<CollectOptions>(&command)) env = &c->env;
  if (auto* b = std::get_if<BackfillOptions>(&command)) env = &b->env;
  if (auto* i = std::get_if<ImportOptions>(&command)) env = &i->env;
  if (auto* b = std::get_if<BisectOptions>(&command)) env = &b->env;
  if (env && env->repo) return (cwd / *env->repo).lexically_normal();
  return cwd;
}

ConfigLocation config_location(const EnvironmentOptions& env, const std::filesystem::path& base,
                               const std::optional<std::filesystem::path>& worktree_root) {
  namespace fs = std::filesystem;
  if (env.config) return {(base / *env.config).lexically_normal(), true};
  const fs::path at_base = base / fs::path(default_config_file);
  std::error_code ec;
  // A name that is there (even a link whose target is gone, which load_config then refuses).
  const auto present = [&ec](const fs::path& p) { return fs::exists(fs::symlink_status(p, ec)); };
  if (!worktree_root || present(at_base)) return {at_base, false};
  // The guide keeps the file in the repository root: from a subdirectory, the nearest one on the
  // way up to the root of the working tree (and never above it) is the project's.
  fs::path dir = fs::weakly_canonical(base, ec);
  if (ec) return {at_base, false};
  const fs::path root = fs::weakly_canonical(*worktree_root, ec);
  if (ec) return {at_base, false};
  const auto [r, d] = std::mismatch(root.begin(), root.end(), dir.begin(), dir.end());
  if (r != root.end()) {
    // A query run from outside the `--repo` tree (`analyze --repo clone` from its parent) with no
    // file of its own reads the repository's: the project id already comes from that tree, and
    // collect reads that file, so both name the same project.
    const fs::path at_root = root / fs::path(default_config_file);
    return {present(at_root) ? at_root : at_base, false};
  }
  while (dir != root && dir.has_parent_path() && dir.parent_path() != dir) {
    dir = dir.parent_path();
    const fs::path candidate = dir / fs::path(default_config_file);
    if (present(candidate)) return {candidate, false};
  }
  return {at_base, false};
}

}  // namespace benchhist::app
