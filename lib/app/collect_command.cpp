#include <cstdio>
#include <ostream>

#include "app/collect_command.hpp"
#include "benchhist/collect/backfill.hpp"
#include "benchhist/analysis/git_topology.hpp"
#include "benchhist/collect/collect.hpp"
#include "benchhist/error.hpp"
#include "benchhist/model/text.hpp"
#include "probe/ci_provider.hpp"
#include "probe/git_state.hpp"
#include "probe/hardware.hpp"
#include "probe/toolchain.hpp"
#include "benchhist/version.hpp"
#include "command_support.hpp"

namespace benchhist::app {

using namespace detail;

namespace {

// The reports the freshness gate ignored in $BENCHHIST_OUTPUT_DIR, and how to make them count.
std::string stale_report_note(const collect::CollectOutcome& outcome) {
  const auto& stale = outcome.stale_reports;
  std::vector<std::string> names;
  for (const auto& r : stale)
    names.push_back(r.name.generic_string() + " (modified " + format_rfc3339_seconds(r.modified) + ")");
  const bool one = stale.size() == 1;
  return "the benchmark command left " + std::string(one ? "a report" : plural(stale.size(), "report")) +
         " in $BENCHHIST_OUTPUT_DIR modified before its run started (" +
         format_rfc3339_seconds(stale.front().run_start) + "), so " + (one ? "it" : "they") +
         " cannot hold this run's results and " + (one ? "was" : "were") + " ignored as stale: " + joined(names) + (outcome.objects.empty() ? "; nothing was stored" : "") +
         ". Have the command write its reports while it runs; a copy made with `cp -p` keeps the old modification "
         "time (drop -p, or `touch` the file after copying it; docs/bench-command.md)";
}

// The command wrote reports, but every benchmark in them errored, was skipped or failed: say
// which, since "wrote no report" would send the user looking in the wrong place.
std::string unmeasured_note(const collect::CollectOutcome& outcome) {
  constexpr std::size_t shown = 3;
  std::vector<std::string> why(outcome.unmeasured.begin(),
                               outcome.unmeasured.begin() + std::min(shown, outcome.unmeasured.size()));
  std::string list;  // `; ` between them: a message may hold a comma
  for (const auto& w : why) list += (list.empty() ? "" : "; ") + w;
  if (outcome.unmeasured.size() > shown)
    list += "; and " + std::to_string(outcome.unmeasured.size() - shown) + " more (--verbose lists them)";
  return "the benchmark command wrote " + plural(outcome.reports_read, "report") +
         " into $BENCHHIST_OUTPUT_DIR, but no benchmark in " + (outcome.reports_read == 1 ? "it" : "them") +
         " has a result to store, so nothing was stored" + (list.empty() ? std::string() : ": " + list) +
         ". Fix the benchmarks that errored or failed (a skipped one stores nothing by design; docs/bench-command.md)";
}

}  // namespace

void run_backfill(const BackfillOptions& o, const Invocation& inv) {
  const bool v = o.env.verbose;
  // backfill resolves relative paths against --repo (docs/formats.md#storage-selection).
  const auto base = o.env.repo ? (inv.cwd / *o.env.repo).lexically_normal() : inv.cwd;
  auto ctx = open_context(o.env, nullptr, inv, base, true, measure_scope_check(o.bench_command, o.scope));
  collect::BackfillRequest req;
  req.base_dir = base;
  req.project = ctx.project;
  req.from = o.from;
  req.to = o.to;
  req.scope = o.scope.cargo;
  req.best_of = o.best_of;
  req.overwrite = o.overwrite;
  req.ignore_errors = o.ignore_errors;
  req.max_commits = o.max_commits;
  req.bench_command = bench_command(o.bench_command, ctx.config, inv, v);
  req.target_triple = o.target_triple;
  const BenchOutput output = bench_output(inv, v, "backfill");
  req.output_log = output.log;
  auto services = collect::BackfillServices::system(inv.env);
  services.announce = [&inv](std::string_view s) { announce(inv, s); };
  if (v) services.note = [&inv](std::string_view s) { announce(inv, s); };
  services.progress = [&inv](const collect::BackfillProgress& p) { announce(inv, collect::format_progress(p)); };
  services.failed_output = show_failed_output(inv);
  const auto result = collect::backfill(req, inv.env, *ctx.store, services);
  announce_logs(inv, output);
  // Stopped by a benchmark failure or interrupted: the summary is the error
  // (docs/backfill.md#the-run-step-by-step).
  if (result.exit_status != 0) throw result.error();
  inv.out << result.summary << '\n';
}

void run_collect(const CollectOptions& o, const Invocation& inv) {
  const bool v = o.env.verbose;
  // collect resolves relative paths against --repo (docs/formats.md#storage-selection).
  const auto base = o.env.repo ? (inv.cwd / *o.env.repo).lexically_normal() : inv.cwd;
  auto ctx = open_context(o.env, nullptr, inv, base, !o.no_store, measure_scope_check(o.bench_command, o.scope));

  collect::CollectRequest req;
  req.repo_dir = base;
  req.project = ctx.project;
  req.scope = o.scope.cargo;
  req.best_of = o.best_of;
  req.policy = o.overwrite ? storage::CollisionPolicy::overwrite
                           : o.skip_existing ? storage::CollisionPolicy::skip_existing : storage::CollisionPolicy::refuse;
  req.store = !o.no_store;
  req.bench_command = bench_command(o.bench_command, ctx.config, inv, v);
  req.target_triple = o.target_triple;
  const BenchOutput output = bench_output(inv, v, "collect");
  req.output_log = output.log;

  auto services = collect::CollectServices::system(inv.env);
  services.announce = [&inv](std::string_view s) { announce(inv, s); };
  if (v) services.note = [&inv](std::string_view s) { announce(inv, s); };
  services.failed_output = show_failed_output(inv);
  // Repetition progress only where a person watches (a terminal): CI logs stay clean.
  if (inv.stderr_is_terminal && o.best_of > 1)
    services.progress = [&inv](std::uint32_t rep, std::uint32_t of, double elapsed) {
      char buf[96];
      std::snprintf(buf, sizeof buf, "repetition %u of %u (%.1f s elapsed)", rep, of, elapsed);
      announce(inv, buf);
    };
  const auto outcome = collect::collect(req, inv.env, ctx.store.get(), services);
  inv.out << outcome.message() << '\n';
  // The command's side of the contract is to write its reports into $BENCHHIST_OUTPUT_DIR; one
  // that printed them instead stores nothing, which is worth a word (an engine of `cargo bench`
  // that wrote nothing stays silent, as the guide says). One that put an old file there (a copy
  // made with `cp -p`) did write a report, so telling it to write one would be no help.
  if (!outcome.stale_reports.empty())
    announce(inv, stale_report_note(outcome));
  else if (req.bench_command && outcome.objects.empty() && outcome.reports_read > 0)
    announce(inv, unmeasured_note(outcome));
  else if (req.bench_command && outcome.objects.empty())
    announce(inv, "the benchmark command wrote no report into $BENCHHIST_OUTPUT_DIR, so nothing was stored: have it "
                  "write its report files there (docs/bench-command.md)");
  // A stray untracked file is enough to make the run a dirty snapshot, which history analysis
  // never reads: say so where the user looks, and what gets the commit its clean run.
  if (outcome.stored && outcome.git.dirty && !outcome.objects.empty()) {
    const std::string at = outcome.git.commit ? " of " + short_id(*outcome.git.commit) : std::string();
    // The guide's own `--local=./bench-history` puts the store inside the working tree, where it
    // is an untracked directory until ignored: name it, since the user did not write it by hand.
    std::string store_inside;
    if (ctx.storage)
      if (const auto* local = std::get_if<LocalStorageChoice>(&ctx.storage->backend))
        if (const auto root = probe::find_worktree_root(base)) {
          std::error_code ec;
          const auto store = std::filesystem::weakly_canonical(local->root, ec);
          const auto tree = std::filesystem::weakly_canonical(*root, ec);
          const auto rel = store.lexically_relative(tree);
          if (!ec && !rel.empty() && *rel.begin() != "..")
            store_inside = " The store itself (" + rel.generic_string() +
                           "/) is inside this working tree: add it to .gitignore if it is not ignored yet.";
        }
    announce(inv, "stored as a dirty snapshot" + at +
                      ": the working tree has uncommitted changes or untracked files (`git status` lists them). "
                      "History analysis reads only clean runs: commit them or add them to .gitignore, then collect "
                      "again to record the commit's clean run." + store_inside);
  }
}

void run_import(const ImportOptions& o, const Invocation& inv) {
  const bool v = o.env.verbose;
  // import resolves relative paths against --repo, like collect
  // (docs/formats.md#storage-selection).
  const auto base = o.env.repo ? (inv.cwd / *o.env.repo).lexically_normal() : inv.cwd;

  // Every named path is checked before storage is opened: a typo must not "import nothing".
  collect::ImportRequest req;
  if (o.target_dir) {
    req.target_dir = (base / *o.target_dir).lexically_normal();
    std::error_code ec;
    if (std::filesystem::exists(*req.target_dir, ec) && !std::filesystem::is_directory(*req.target_dir, ec))
      throw Error(ErrorKind::usage, "the target directory " + req.target_dir->string() + " is a file, not a directory",
                  req.target_dir->string(), {},
                  "pass the directory the benchmarks wrote into (CARGO_TARGET_DIR) as --target-dir; a report file is "
                  "named without an option (import <FILE>)");
    if (!std::filesystem::is_directory(*req.target_dir, ec))
      throw Error(ErrorKind::not_found, "the target directory " + req.target_dir->string() + " does not exist",
                  req.target_dir->string(), {}, "pass the directory the benchmarks wrote into (CARGO_TARGET_DIR) as --target-dir");
  }
  for (const auto& r : o.reports) {
    const auto path = (base / r).lexically_normal();
    std::error_code ec;
    if (!std::filesystem::exists(path, ec))
      throw Error(ErrorKind::not_found, "the report " + path.string() + " does not exist", path.string(), {},
                  "pass the path of a benchmark report (Google Benchmark JSON, hyperfine --export-json, Catch2 XML, BMF or "
                  "captured cargo bench output; docs/import.md)");
    req.report_paths.push_back(path);
  }
  auto ctx = open_context(o.env, nullptr, inv, base, true);
  req.project = ctx.project;

  // The commit must resolve through git; the branch is not recorded (docs/cli.md#commands).
  const std::string ref = o.commit.value_or("HEAD");
  const auto git = analysis::open_git_topology(base);
  const auto commit = git->resolve(ref);
  if (!commit)
    throw Error(ErrorKind::git, "could not resolve \"" + ref + "\" while resolving --commit", base.string(), {},
                "pass a commit id, tag or branch that exists in " + base.string() + " (fetch it first if needed)");
  RunContext& c = req.context;
  c.observation = now();
  c.git.commit = *commit;
  c.git.dirty = o.dirty;
  c.env = probe::detect_ci_provider(inv.env);
  const collect::RunTriple triple = collect::resolve_run_triple(
      o.target_triple, !req.report_paths.empty(), [] { return probe::probe_toolchain(); },
      [&inv] { return probe::probe_cxx_target(inv.env); });
  c.toolchain.target_triple = triple.triple;
  c.toolchain.rustc_version = triple.rustc_version;
  c.tool_version = std::string(tool_version);
  c.machine = probe::describe_hardware(inv.sys_root);
  announce(inv, "importing at " + *commit + (o.dirty ? " (dirty snapshot)" : "") + ": target-triple=" +
                    (triple.triple.empty() ? std::string("unknown") : triple.triple) + " (" + triple.describe() +
                    "); machine-key=" + c.machine->fingerprint + " (auto-detected)");
  req.policy = o.overwrite ? storage::CollisionPolicy::overwrite
                           : o.skip_existing ? storage::CollisionPolicy::skip_existing : storage::CollisionPolicy::refuse;
  std::function<void(std::string_view)> notes;
  if (v) notes = [&inv](std::string_view s) { announce(inv, s); };
  const auto outcome = collect::import_results(req, *ctx.store, notes);
  inv.out << outcome.message() << '\n';
}

}  // namespace benchhist::app
