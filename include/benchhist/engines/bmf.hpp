#pragma once
// Bencher Metric Format harvester: `{"<benchmark>": {"<measure>": {"value": v, "lower_value": l,
// "upper_value": u}}}`. Every decision is in docs/harnesses.md#bmf; in brief:
//
// * identity: the benchmark name split on '/', empty segments dropped (`::` stays inside a
//   segment: a Rust path names one function);
// * a measure is stored only when it is lower-is-better with a known unit: `latency`
//   (nanoseconds) → wall_time, `instructions` → instruction_count, and this tool's own metric
//   tokens (docs/formats.md#metric-kinds) with their units; any other measure (`throughput`, a
//   custom one) fails the file naming the benchmark and the measure, because storing a
//   higher-is-better value would invert every finding on it and dropping it would be silent;
// * interval: [lower_value, upper_value] when both are given (they must enclose the value).

#include <filesystem>
#include <optional>
#include <string_view>

#include "benchhist/engines/report.hpp"
#include "benchhist/model/metric.hpp"

namespace benchhist::engines {

// The metric a BMF measure is stored as, or nullopt when it is not stored (docs/harnesses.md#bmf).
std::optional<MetricKind> bmf_measure_metric(std::string_view measure) noexcept;

// Parses one BMF document.
// Throws Error{benchmark_output} "failed to parse benchmark output: <file>" (subject = file) for
// malformed or truncated JSON, a document that is not a non-empty object of benchmarks, a
// benchmark without measures, a measure that is not stored (above), a missing, wrongly typed,
// non-finite or negative value, a bound without the other or one that does not enclose the value,
// or one metric given twice for a benchmark.
ParsedReport parse_bmf(std::string_view json, const std::filesystem::path& file);

// Reads and parses one BMF file.
// Throws Error{io} "failed to harvest bmf benchmark output" (subject = file) when it cannot be read,
// else as parse_bmf.
ParsedReport read_bmf(const std::filesystem::path& file);

}  // namespace benchhist::engines
