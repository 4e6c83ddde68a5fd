#pragma once
// Google Benchmark harvester: the JSON reporter's output (`--benchmark_format=json`, or
// `--benchmark_out=<file> --benchmark_out_format=json`). Every decision this engine takes is
// in docs/google-benchmark.md; the rules in brief:
//
// * identity: `run_name` (else `name`) split into segments on '/', empty segments dropped, so
//   `BM_Copy/8/threads:2` keeps its arguments;
// * metrics: `real_time` → wall_time and `cpu_time` → processor_time, converted from
//   `time_unit` to nanoseconds; of the memory-manager fields only the per-iteration
//   allocation count (`allocs_per_iter` → allocation_count) and the peak
//   (`max_bytes_used` → peak_outstanding_bytes); rate and user counters are never stored;
// * repetitions: one value per metric, the median of the iteration rows, with the interval
//   [minimum, maximum] of those rows when there are at least two; aggregate rows are used only
//   when no iteration row was written (`--benchmark_report_aggregates_only`): then the
//   `median` aggregate, without an interval; complexity rows (BigO, RMS) are ignored;
// * a benchmark with an errored or skipped row stores nothing and is named in a note;
// * the bare literals NaN / Infinity the reporter writes for non-finite values are read; a
//   non-finite measurement drops that metric (a note says so).

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "benchhist/engines/report.hpp"

namespace benchhist::engines {

using GoogleBenchmarkReport = ParsedReport;

// Parses one report.
// Throws Error{benchmark_output} "failed to parse benchmark output: <file>" (subject = file) for
// malformed or truncated JSON, a document without `context` and `benchmarks`, a wrongly typed or
// negative measurement, an unknown `time_unit`, or one benchmark reported twice with the same
// repetition index.
GoogleBenchmarkReport parse_google_benchmark(std::string_view json, const std::filesystem::path& file);

// Reads and parses one report file.
// Throws Error{io} "failed to harvest google_benchmark benchmark output" (subject = file) when it
// cannot be read, else as parse_google_benchmark.
GoogleBenchmarkReport read_google_benchmark(const std::filesystem::path& file);

}  // namespace benchhist::engines
