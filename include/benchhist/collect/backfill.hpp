#pragma once
// `backfill <FROM> <TO>` (docs/backfill.md): replay the collect pipeline once per commit
// of a first-parent range, newest first, in a private detached git worktree, skipping commits
// this machine's partition already holds. The CLI resolves configuration, project id and
// storage (docs/backfill.md#the-run-step-by-step steps 1–2) and then calls backfill(); everything
// else lives here.
//
// Everything that touches the outside world is a member of BackfillServices, so the planning
// logic can be tested with substituted git, toolchain, hardware and collect services.

#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "benchhist/collect/collect.hpp"
#include "benchhist/collect/interrupts.hpp"
#include "benchhist/error.hpp"
#include "benchhist/probe/environment.hpp"
#include "benchhist/probe/process.hpp"
#include "benchhist/storage/object_store.hpp"

namespace benchhist::collect {

// Mirrors the CLI options of `backfill` (docs/backfill.md).
struct BackfillRequest {
  std::filesystem::path base_dir;  // --repo (absolute) or the working directory (docs/backfill.md#the-run-step-by-step step 1)
  std::string project;             // resolved project id (raw)
  std::string from;                // FROM as typed (oldest, inclusive)
  std::string to;                  // TO as typed (newest, inclusive)
  BenchScope scope;                // scope + features groups + passthrough (`-- <ARGS>…`)
  std::optional<std::string> bench_command;  // instead of cargo bench (docs/bench-command.md)
  std::optional<std::string> target_triple;  // --target-triple: partition and record
  std::uint32_t best_of = 1;       // --best-of (≥ 1)
  bool overwrite = false;          // --overwrite: no skip pre-check, replace stored objects
  bool ignore_errors = false;      // --ignore-errors: continue past per-commit failures
  std::optional<std::uint32_t> max_commits;  // --max-commits (≥ 1); nullopt = unlimited
  // Each commit's benchmark output in its own log file; nullopt streams it (--verbose;
  // docs/bench-output.md).
  std::optional<OutputLog> output_log;

  // Install a SIGINT/SIGTERM guard for the duration of the call so an interrupted backfill
  // still removes its worktree (see InterruptGuard); the first interrupt lets the commit under
  // way finish, a second terminates its benchmark command (FirstInterrupt::finish). Embedders
  // with their own signal policy may switch it off.
  bool handle_interrupts = true;

  // Embedding/test hook, never set by the CLI: a warmed cargo target directory copied into
  // the worktree's `<wt>/<prefix>/target` right after the worktree is created, with every
  // file newer than the worktree re-dated to just before it. The build still uses a target
  // directory private to this worktree (docs/backfill.md#the-run-step-by-step) and the re-dating
  // makes the checkout newer than anything copied, so a cache can never hand this worktree a binary
  // another checkout built (ENVIRONMENT.md's worktree pitfall: cargo judges freshness by mtimes);
  // it only saves rebuilding dependencies.
  std::optional<std::filesystem::path> seed_target_dir;
};

// One progress report, given before a commit is reset and benchmarked.
struct BackfillProgress {
  std::size_t index = 0;   // 1-based attempt number
  std::size_t total = 0;   // attempts planned this invocation: min(pending, --max-commits)
  std::string commit;      // full id
  std::string short_id;    // 12 characters
  std::string title;       // commit subject
  double elapsed_seconds = 0;                   // since the first attempt started
  std::optional<double> remaining_seconds;      // mean attempt time × attempts left; none before
                                                // the first attempt finished
};

// `commit 3 of 12: 0123456789ab Make checksum slower (elapsed 1m05s, about 3m10s remaining)`.
std::string format_progress(const BackfillProgress& progress);

struct BackfillServices {
  std::function<Timestamp()> clock;  // wall clock (worktree name, elapsed time)
  // Captured helper commands (git); a spawn failure throws Error{io}.
  std::function<probe::ProcessResult(const probe::ProcessSpec&)> run_command;
  // `rustc -vV` in `project_dir` with RUSTUP_TOOLCHAIN and CARGO removed
  // (docs/formats.md#toolchain).
  std::function<ToolchainInfo(const std::filesystem::path& project_dir)> probe_toolchain;
  // `$CXX -dumpmachine` in `project_dir` for --bench-command backfills (may be empty).
  std::function<std::optional<probe::CxxTarget>(const std::filesystem::path& project_dir)> probe_cxx_target;
  // The auto-detected machine key of this machine (docs/formats.md#machine-key).
  std::function<std::string()> machine_key;
  // The collect services for one commit, rooted at the worktree's project directory, with
  // `env` the per-commit environment (CARGO_TARGET_DIR overridden). The returned services'
  // announce/note are replaced by the ones below.
  std::function<CollectServices(const std::filesystem::path& project_dir, const probe::Environment& env)> collect_services;
  // The collect pipeline itself (substitutable for planning tests).
  std::function<CollectOutcome(const CollectRequest&, const probe::Environment&, storage::ObjectStore*, const CollectServices&)> collect;
  std::filesystem::path temp_dir;  // where the worktree goes (docs/backfill.md#the-run-step-by-step step 5)
  long pid = 0;                    // this process id (worktree name)

  // Announcements and verbose notes without the `[bench-history] ` prefix; note may be empty.
  std::function<void(std::string_view)> announce;
  std::function<void(std::string_view)> note;
  std::function<void(const BackfillProgress&)> progress;  // may be empty
  // CollectServices::failed_output for every commit; may be empty.
  FailedOutput failed_output;

  // The real machine: system clock, run_process, isolated `rustc -vV`, /proc + /sys hardware,
  // CollectServices::system with the isolated toolchain probe, TMPDIR (else /tmp), getpid().
  // `env` must outlive the services.
  static BackfillServices system(const probe::Environment& env);
};

enum class BackfillOutcomeKind { stored, skipped_existing, skipped_empty, failed };

struct BackfillCommitOutcome {
  std::string commit;  // full id
  BackfillOutcomeKind kind = BackfillOutcomeKind::stored;
  bool precheck = false;   // skipped_existing found by the pre-check (not at write time)
  std::size_t cases = 0;   // stored: harvested cases after best-of
  std::string reason;      // failed: the one-line reason of docs/backfill.md#the-run-step-by-step
};

enum class BackfillStop {
  range_exhausted,    // `Range exhausted.`
  commit_limit,       // `Commit limit reached.`
  benchmark_failure,  // `Stopped on benchmark failure.`
  interrupted,        // SIGINT/SIGTERM arrived; the worktree was removed
};

struct BackfillResult {
  std::vector<std::string> range;  // full ids, newest first
  std::vector<BackfillCommitOutcome> outcomes;  // summary order: stored…, skipped…, failed…
  std::size_t stored = 0, skipped_existing = 0, skipped_empty = 0, failed = 0, deferred = 0;
  BackfillStop stop = BackfillStop::range_exhausted;
  std::optional<std::string> stopped_at;  // full id of the failure that stopped the run
  std::optional<Error> stop_cause;        // that failure's error
  int interrupted_by = 0;                 // the signal number when stop == interrupted
  std::string summary;                    // docs/backfill.md#the-run-step-by-step, lines joined with '\n', no final '\n'
  // 0: print the summary on stdout. 1: stopped by a benchmark failure — render error() on
  // stderr. 128 + signal: interrupted — render error() on stderr.
  int exit_status = 0;

  // The error the CLI reports when exit_status != 0: message = the summary, cause = the
  // stopping failure (or the interruption).
  Error error() const;
};

// Runs the whole backfill. Per-commit failures (benchmark_failed, benchmark_output, a missing
// project directory) and interruptions are reported in the result. `store` must not be null.
// Throws (the worktree, if created, removed first) Error{usage} for --best-of/--max-commits below 1
// or a FROM off TO's first-parent history; Error{not_found} when FROM/TO do not resolve; Error{git,
// io} for repository/worktree/seed failures; infrastructure errors of collect and the store
// (benchmark_not_started, benchmark_inconsistent, network, auth, …) as they are.
BackfillResult backfill(const BackfillRequest& request, const probe::Environment& env, storage::ObjectStore& store,
                        const BackfillServices& services);

// The docs/backfill.md#the-run-step-by-step step 4 range (full ids, newest first), resolving
// FROM/TO in `repo_dir`. Exposed for the planning tests and for callers that want to preview a
// range.
// Throws Error{not_found} (subject = repo_dir) when FROM or TO does not resolve, Error{usage} when
// FROM is not a first-parent ancestor of TO, Error{git} when git cannot be run or walk the range.
std::vector<std::string> plan_backfill_range(const std::filesystem::path& repo_dir, std::string_view from,
                                             std::string_view to, const BackfillServices& services);

// Validates and normalizes `git rev-parse --show-prefix` output
// (docs/backfill.md#the-run-step-by-step step 3): strips one trailing "\n" or "\r\n".
// Throws Error{git} "git returned a project directory that is not relative to the repository"
// (subject = the prefix) for an absolute path, a drive prefix, `.`/`..`, a backslash or a NUL.
std::filesystem::path parse_project_prefix(std::string_view git_output);

// Per-commit classification of a collect error (docs/backfill.md#the-run-step-by-step step 5): the
// one-line failure reason, or nullopt when the error is an infrastructure error (abort). Duplicates
// are not failures: see is_duplicate_result_error.
std::optional<std::string> backfill_failure_reason(const Error& e);
bool is_duplicate_result_error(const Error& e);

}  // namespace benchhist::collect
