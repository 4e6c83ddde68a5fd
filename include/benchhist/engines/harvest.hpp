#pragma once
// Harvesting every engine's output after one repetition of the benchmark command: the four
// Rust engines under the target root (docs/formats.md) and the report files under the paths
// the run names, each recognised by its content (docs/google-benchmark.md, docs/harnesses.md),
// with the per-file decisions `--verbose` reports.

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "benchhist/engines/freshness.hpp"
#include "benchhist/model/benchmark_result.hpp"
#include "benchhist/model/engine.hpp"
#include "benchhist/model/timestamp.hpp"

namespace benchhist::engines {

enum class HarvestDecision {
  included,    // parsed; its result is in the engine's list
  stale,       // modified before the freshness cutoff; ignored
  dropped,     // parsed, but no usable per-iteration slope (alloc_tracker/all_the_time)
  incomplete,  // a stale Criterion `new/` directory missing one of its two files; ignored
  no_output,   // the engine's output root does not exist (or is not a real directory)
  not_measured,  // report engines: a benchmark (or metric) of an included report stored
                 // nothing — errored, skipped, failed, non-finite; `detail` says which and why
};

// One include/exclude decision. `path` is the file (the `new/` directory for Criterion cases,
// the engine root for no_output); `modified` is the mtime that decided, when one was read.
struct HarvestNote {
  Engine engine = Engine::criterion;
  HarvestDecision decision = HarvestDecision::included;
  std::filesystem::path path;
  std::optional<Timestamp> modified;
  std::string detail;  // e.g. the cutoff a stale file missed

  // The verbose note text (without the `[bench-history] ` prefix). Not a contract
  // (docs/formats.md#streams), except the dropped-operation wording, which follows
  // docs/formats.md#alloc_tracker.
  std::string text() const;
};

struct EngineHarvest {
  Engine engine = Engine::criterion;
  std::vector<BenchmarkResult> results;  // in path order of the harvested files
};

struct HarvestOptions {
  bool freshness_gate = true;  // false: admit every file (`import`, docs/cli.md#commands)
  // Where report files are looked for: files, or directories whose every file is one
  // (list_report_files). Empty: the report engines are not harvested.
  std::vector<std::filesystem::path> report_paths;
  // The benchmark command's captured standard output (plain `cargo bench`): its #[bench] lines,
  // when it has any, are the libtest engine's results (docs/harnesses.md#libtest).
  std::optional<std::string> captured_stdout;
};

// How the captured standard output is named in notes and errors.
inline constexpr std::string_view captured_stdout_name = "<cargo bench standard output>";

struct Harvest {
  std::optional<Timestamp> cutoff;     // nullopt when the gate was disabled
  std::vector<EngineHarvest> engines;  // always every engine, in harvest_order
  std::vector<HarvestNote> notes;      // in processing order

  // The engine's results (empty when it produced nothing).
  const std::vector<BenchmarkResult>& results(Engine e) const;
  std::size_t case_count() const noexcept;
};

// Harvests one of the four target-root engines into `notes`.
// Throws Error{benchmark_output} "failed to parse benchmark output: <path>" (subject = path) for a
// file that does not parse, and for a fresh Criterion `new/` missing one of its files (a
// half-written case from this run means the run is broken); Error{io} "failed to harvest <engine>
// benchmark output" for unreadable directories/files; Error{internal} for a report engine.
EngineHarvest harvest_engine(Engine engine, const std::filesystem::path& target_root,
                             const FreshnessGate& gate, std::vector<HarvestNote>& notes);

// Harvests the report files under `paths`: every file is recognised by its content and then
// gated by its own mtime. One EngineHarvest per report engine, in report_engines order.
// Throws Error{benchmark_output} naming a file no engine recognises or that does not parse, or
// "failed to parse benchmark output: <second file>" naming both files for a benchmark identity
// of one engine found in two (keeping either would silently drop the other); Error{io} for an
// unreadable path.
std::vector<EngineHarvest> harvest_reports(const std::vector<std::filesystem::path>& paths, const FreshnessGate& gate,
                                           std::vector<HarvestNote>& notes);

// Harvests the four engines under `target_root` (the CARGO_TARGET_DIR the benchmark command
// ran with), the report engines under options.report_paths and libtest in
// options.captured_stdout, for a repetition that
// started at `run_start` (the clock read immediately before launching it). Engines that
// produced nothing contribute empty lists, silently.
// Throws Error{benchmark_output, io} as harvest_engine and harvest_reports do.
Harvest harvest_all(const std::filesystem::path& target_root, Timestamp run_start,
                    const HarvestOptions& options = {});

}  // namespace benchhist::engines
