#pragma once
// hyperfine harvester: the file `hyperfine --export-json <file>` writes. Every decision is in
// docs/harnesses.md#hyperfine; in brief:
//
// * identity: `command` — the `--command-name` when one was given, else the command text —
//   with surrounding whitespace trimmed and inner runs of whitespace made one space, split on
//   '/' with empty segments dropped (as Google Benchmark names are);
// * wall_time: the median of `times` (seconds → ns), with the interval [min, max] of `times`
//   when there are at least two runs; a file without `times` stores its `median` without one;
// * processor_time: `user` + `system` (hyperfine's mean over the runs), without an interval;
// * a non-zero or missing exit code in `exit_codes` (a run under `--ignore-failure`) fails the
//   file naming the command: a failed run's time is not the command's time.
// * `exit_codes` and `times` of different lengths fail the file (hyperfine writes one of each
//   per run, so the export is damaged).

#include <filesystem>
#include <string_view>

#include "benchhist/engines/report.hpp"

namespace benchhist::engines {

// Parses one export.
// Throws Error{benchmark_output} "failed to parse benchmark output: <file>" (subject = file) for
// malformed or truncated JSON, a document without a `results` array, a result without a string
// `command`, a missing, wrongly typed, non-finite or negative time, a failed run, `exit_codes`
// and `times` of different lengths, or one command reported twice.
ParsedReport parse_hyperfine(std::string_view json, const std::filesystem::path& file);

// Reads and parses one export.
// Throws Error{io} "failed to harvest hyperfine benchmark output" (subject = file) when it cannot
// be read, else as parse_hyperfine.
ParsedReport read_hyperfine(const std::filesystem::path& file);

}  // namespace benchhist::engines
