#pragma once
// `collect` (formats.md §6.5.2, §3.9–§3.10): run the benchmark command N times, harvest every
// engine after each repetition, probe git/toolchain/CI/hardware once, reduce best-of, and store
// one object per engine with the collision policy. Everything that touches the outside world
// is a member of CollectServices so tests and embedding harnesses can substitute it.

#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "benchhist/collect/bench_command.hpp"
#include "benchhist/model/run.hpp"
#include "benchhist/probe/environment.hpp"
#include "benchhist/probe/process.hpp"
#include "benchhist/storage/object_store.hpp"

namespace benchhist {

struct CollectRequest {
  std::filesystem::path repo_dir;  // where `cargo bench` runs and git is probed (absolute)
  std::string project;             // resolved project id (raw; keys sanitize it)
  BenchScope scope;
  std::uint32_t best_of = 1;
  CollisionPolicy policy = CollisionPolicy::refuse;
  bool store = true;                      // false: --no-store
  bool strip_toolchain_overrides = false; // backfill: remove RUSTUP_TOOLCHAIN / CARGO
};

struct CollectServices {
  std::function<Timestamp()> clock;
  // Runs the benchmark command with inherited streams.
  std::function<ProcessResult(const ProcessSpec&)> run_benchmarks;
  std::function<GitState(const std::filesystem::path& repo_dir)> probe_git;
  std::function<ToolchainInfo()> probe_toolchain;
  std::function<EnvContext()> probe_ci;
  std::function<MachineDescription()> probe_hardware;
  // Announcements and verbose notes, already without the `[bench-history] ` prefix.
  std::function<void(std::string_view)> announce;
  std::function<void(std::string_view)> note;  // verbose only; may be empty
  // Progress for repetitions (called before each one, 1-based); may be empty.
  std::function<void(std::uint32_t repetition, std::uint32_t of, double elapsed_seconds)> progress;

  // The real machine: system clock, streaming child processes, libgit2, `rustc -vV` in the
  // process's own environment, the CI variables and /proc + /sys.
  static CollectServices system(const Environment& env);
};

struct StoredObject {
  Engine engine = Engine::criterion;
  std::string key;
  std::size_t cases = 0;
  std::optional<PutOutcome> outcome;  // nullopt with --no-store
};

struct CollectOutcome {
  std::vector<StoredObject> objects;  // engines that produced at least one case
  GitState git;
  ToolchainInfo toolchain;
  std::string machine_key;
  std::uint32_t repetitions = 0;
  Timestamp observation{};
  bool stored = false;  // false with --no-store

  // The stdout message of formats.md §7.12.
  std::string message() const;
};

// Runs the whole collection. The git state is probed before the first repetition, so files
// the benchmark command creates (Cargo.lock in a crate that does not commit it) never make a
// fresh checkout's run dirty; toolchain, CI and hardware are probed after the repetitions.
// `store` may be null only when !request.store. Errors: benchmark
// command failures (`engine "cargo bench" failed with exit code <n>`), harvest/parse failures
// naming the file, best-of inconsistencies, and the refuse-policy collision
// `a result is already stored for this run at <key>; pass --overwrite to replace it`. With the
// refuse policy every engine's key is checked before anything is written, so a refused
// collection stores nothing.
CollectOutcome collect(const CollectRequest& request, const Environment& env, ObjectStore* store,
                       const CollectServices& services);

// Builds the stored Run of one engine (formats.md §2.1).
Run make_run(const std::vector<BenchmarkResult>& results, const RunContext& context);

}  // namespace benchhist
