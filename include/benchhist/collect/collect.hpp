#pragma once
// `collect` (docs/cli.md#commands, docs/formats.md#best-of-reduction): run the benchmark command N
// times, harvest every engine after each repetition, probe git/toolchain/CI/hardware once, reduce
// best-of, and store one object per engine with the collision policy. Everything that touches the
// outside world is a member of CollectServices so tests and embedding harnesses can substitute it.

#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "benchhist/collect/bench_command.hpp"
#include "benchhist/collect/interrupts.hpp"
#include "benchhist/collect/output_log.hpp"
#include "benchhist/engines/harvest.hpp"
#include "benchhist/model/run.hpp"
#include "benchhist/probe/cxx_target.hpp"
#include "benchhist/probe/environment.hpp"
#include "benchhist/probe/process.hpp"
#include "benchhist/storage/object_store.hpp"

namespace benchhist::collect {

struct CollectRequest {
  std::filesystem::path repo_dir;  // where `cargo bench` runs and git is probed (absolute)
  std::string project;             // resolved project id (raw; keys sanitize it)
  BenchScope scope;
  // `--bench-command` / `[collect] bench_command`: run this through `/bin/sh -c` instead of
  // `cargo bench` (the scope is then unused; docs/bench-command.md).
  std::optional<std::string> bench_command;
  // `--target-triple`: the partition's and the record's triple, instead of probing one.
  std::optional<std::string> target_triple;
  std::uint32_t best_of = 1;
  storage::CollisionPolicy policy = storage::CollisionPolicy::refuse;
  bool store = true;                      // false: --no-store
  bool strip_toolchain_overrides = false; // backfill: remove RUSTUP_TOOLCHAIN / CARGO
  // The benchmark command's stdout and stderr appended to output_log_file(dir, commit) instead
  // of the terminal; nullopt streams them (--verbose; docs/bench-output.md).
  std::optional<OutputLog> output_log;
  // SIGINT/SIGTERM (docs/bench-command.md#interrupting-a-run): collect installs an
  // InterruptGuard for the call and runs the benchmark command in a process group of its own
  // that answers them. A caller with a guard of its own (backfill) passes it in interrupt_guard
  // instead, with its first_interrupt; with neither, signals are left alone (embedders, tests).
  bool handle_interrupts = true;
  InterruptGuard* interrupt_guard = nullptr;
  FirstInterrupt first_interrupt = FirstInterrupt::stop;
};

// What CollectServices::lock_target found (docs/bench-command.md#concurrent-collects).
struct TargetLock {
  std::shared_ptr<void> held;  // the lock while this collect holds it; null when it has none
  bool busy = false;           // another collect holds it: wait and ask again
  std::optional<long> holder;  // that collect's process id, when known
  std::string unavailable;     // why there is no lock to take (collect then runs unguarded)
};

struct CollectServices {
  std::function<Timestamp()> clock;
  // Keeps apart collects whose benchmarks write into one target directory, which would otherwise
  // harvest each other's reports: takes the lock of `target_root` without waiting (collect
  // waits, answering interrupts). May be empty: no lock (embedders that serialize runs themselves).
  std::function<TargetLock(const std::filesystem::path& target_root)> lock_target;
  // Runs the benchmark command with inherited streams, or into ProcessSpec::log_file.
  std::function<probe::ProcessResult(const probe::ProcessSpec&)> run_benchmarks;
  std::function<GitState(const std::filesystem::path& repo_dir)> probe_git;
  std::function<ToolchainInfo()> probe_toolchain;
  // `$CXX -dumpmachine` for --bench-command runs (may be empty: then only rustc is asked).
  std::function<std::optional<probe::CxxTarget>()> probe_cxx_target;
  std::function<EnvContext()> probe_ci;
  std::function<MachineDescription()> probe_hardware;
  // Announcements and verbose notes, already without the `[bench-history] ` prefix.
  std::function<void(std::string_view)> announce;
  std::function<void(std::string_view)> note;  // verbose only; may be empty
  // The benchmark command failed while its output went to `log`: the end of that output, for
  // the user to see why (docs/bench-output.md). May be empty.
  FailedOutput failed_output;
  // Progress for repetitions (called before each one, 1-based); may be empty.
  std::function<void(std::uint32_t repetition, std::uint32_t of, double elapsed_seconds)> progress;

  // The real machine: system clock, streaming child processes, libgit2, `rustc -vV` in the
  // process's own environment, the CI variables and /proc + /sys.
  static CollectServices system(const probe::Environment& env);
};

// Where a run's target triple came from, and the words the partition announcement uses.
enum class TripleSource { toolchain_host, cxx_compiler, option };

struct RunTriple {
  std::string triple;                        // raw (keys sanitize it); empty = unknown
  TripleSource source = TripleSource::toolchain_host;
  std::optional<std::string> rustc_version;  // when rustc built the run (cargo bench, or its host was the source)
  std::string cxx_compiler;                  // the compiler asked, when it was the source

  // `toolchain host`, `C++ compiler: c++ -dumpmachine`, `--target-triple`.
  std::string describe() const;
};

// The triple of a run (docs/bench-command.md): `--target-triple` when given; for a
// --bench-command run the C++ compiler when it answers, else rustc's host; for cargo bench
// rustc's host. `cxx` may be empty.
RunTriple resolve_run_triple(const std::optional<std::string>& explicit_triple, bool bench_command,
                             const std::function<ToolchainInfo()>& rustc,
                             const std::function<std::optional<probe::CxxTarget>()>& cxx);

struct StoredObject {
  Engine engine = Engine::criterion;
  std::string key;
  std::size_t cases = 0;
  std::optional<storage::PutOutcome> outcome;  // nullopt with --no-store
  // skipped_existing: this run's benchmarks the kept object does not hold (they were not stored).
  std::vector<std::string> not_stored;
};

// A report the benchmark command left in $BENCHHIST_OUTPUT_DIR that the freshness gate ignored:
// modified before its run started, so it cannot hold that run's results (a copy made with
// `cp -p`, say). The directory is gone by the time anyone reads this, hence the name alone.
struct StaleReport {
  std::filesystem::path name;  // relative to the output directory
  Timestamp modified{};
  Timestamp run_start{};
};

struct CollectOutcome {
  std::vector<StoredObject> objects;  // engines that produced at least one case
  std::vector<StaleReport> stale_reports;  // each name once, in the order first met
  // Report files ($BENCHHIST_OUTPUT_DIR, captured cargo bench output) that were read, and what in
  // them stored nothing (`BM_X stored nothing (error: boom)`), each text once in the order first
  // met: when nothing was stored, why — the command did write reports.
  std::size_t reports_read = 0;
  std::vector<std::string> unmeasured;
  GitState git;
  ToolchainInfo toolchain;
  std::string machine_key;
  std::uint32_t repetitions = 0;
  Timestamp observation{};
  bool stored = false;  // false with --no-store

  // The stdout message of docs/formats.md#listings-and-command-messages.
  std::string message() const;
};

// Runs the whole collection. The git state is probed before the first repetition, so files
// the benchmark command creates (Cargo.lock in a crate that does not commit it) never make a
// fresh checkout's run dirty; toolchain, CI and hardware are probed after the repetitions.
// `store` may be null only when !request.store. With the refuse policy every engine's key is
// checked before anything is written, so a refused collection stores nothing.
// Throws Error{io} `collect was interrupted by SIGINT …: nothing was stored` (cause `interrupted by
// SIGINT`) when an interrupt stopped it (docs/bench-command.md#interrupting-a-run);
// Error{benchmark_failed} (`engine "cargo bench" failed with exit code <n>`, or killed by a
// signal); Error{benchmark_not_started} when CollectServices::system cannot start the command;
// Error{benchmark_output} / Error{io} for harvest failures naming the file; Error{benchmark_inconsistent}
// for best-of inconsistencies; Error{already_exists} (subject = key) for the refuse-policy collision
// `a result is already stored for this run at <key>; pass --overwrite to replace it` (or, when the
// stored result holds benchmarks this run did not measure, a refusal naming them that says
// --overwrite would delete them); Error{usage}
// for --best-of 0 or an empty --bench-command; Error{git} from the git probe; the store's errors.
CollectOutcome collect(const CollectRequest& request, const probe::Environment& env, storage::ObjectStore* store,
                       const CollectServices& services);

// Builds the stored Run of one engine (docs/formats.md#run-record).
Run make_run(const std::vector<BenchmarkResult>& results, const RunContext& context);

// The storing half of collect, shared with `import`: one object per engine with cases under
// the context's partition and commit (dirty key when context.git.dirty), with the collision
// policy (refuse checks every key before writing anything). `store` may be null only when
// !write. Fills the outcome's objects; the rest of the outcome is the caller's.
// Throws Error{already_exists} (subject = key) for a refuse-policy collision, Error{internal} for
// write without a store, and what the store's list/put throw.
void store_results(const std::string& project, const std::vector<engines::EngineHarvest>& engines,
                   const RunContext& context, storage::CollisionPolicy policy, bool write, storage::ObjectStore* store,
                   const std::function<void(std::string_view)>& note, CollectOutcome& outcome);

// `import` (docs/import.md): store results produced elsewhere — the four engines under
// `target_dir` and report files under `report_paths` (each recognised by its content:
// docs/harnesses.md#recognition) — with the
// freshness gate disabled, for a commit the caller resolved. best_of is recorded as 1.
struct ImportRequest {
  std::string project;
  std::optional<std::filesystem::path> target_dir;
  std::vector<std::filesystem::path> report_paths;
  RunContext context;  // git (commit, branch null, dirty), toolchain, env, machine, observation
  storage::CollisionPolicy policy = storage::CollisionPolicy::refuse;
};
// Throws Error{usage} (subject --target-dir) when there is nothing to harvest, and what the harvest
// (benchmark_output, io) and store_results throw.
CollectOutcome import_results(const ImportRequest& request, storage::ObjectStore& store,
                              const std::function<void(std::string_view)>& note);

}  // namespace benchhist::collect
