#pragma once
// Callgrind harvester: Gungraun `summary.json`, schemas "6" and "7" (docs/formats.md#callgrind).
// Only the build-stable events are read — Ir, Bc, Bi — never cache simulation, EstimatedCycles or
// misprediction counts, which depend on code layout (user guide "What Callgrind persists").

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

#include "benchhist/model/benchmark_result.hpp"

namespace benchhist::engines {

// The package segment: last non-empty component of `package_dir` split on '/' and '\\';
// nullopt when nothing remains ("", "/").
std::optional<std::string> package_from_dir(std::string_view package_dir);

// One result per summary: identity [package, module_path, function_name, id] without empty
// or absent segments (else [function_name]); metrics from the run-level total of each
// Callgrind profile in the order conditional_branches, indirect_branches, instruction_count,
// the first profile winning for a repeated kind (docs/formats.md#callgrind). Schema 6 reads
// `summaries.total.summary.Callgrind.<Ev>.metrics` (Left → V, Both → first, Right → skip);
// schema 7 reads `data.total.metrics.<Ev>.values.new` of profiles whose tool is Callgrind.
// No usable events → an empty metric list.
// Throws Error{benchmark_output} "failed to parse benchmark output: <file>" (subject = file) for
// any other `version`, malformed JSON or a malformed value.
BenchmarkResult parse_gungraun_summary(std::string_view json, const std::filesystem::path& file);

// Reads and parses one summary file.
// Throws Error{io} "failed to harvest callgrind benchmark output" (subject = file) when it cannot
// be read, else as parse_gungraun_summary.
BenchmarkResult read_gungraun_summary(const std::filesystem::path& file);

}  // namespace benchhist::engines
