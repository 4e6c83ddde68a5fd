#pragma once
// alloc_tracker harvester (docs/formats.md#alloc_tracker): one file per operation, per-iteration
// slopes.

#include <filesystem>
#include <optional>
#include <string_view>

#include "benchhist/model/benchmark_result.hpp"

namespace benchhist::engines {

// Identity [operation]; metrics allocated_bytes, allocation_count and — only when
// `slope_peak_bytes` is present and finite — peak_outstanding_bytes, each with its interval
// when the producer wrote both bounds (≥ 2 spans). Returns nullopt when either required slope
// is absent, null or non-finite: the whole operation is dropped, no fallback to totals.
// Malformed JSON, a wrongly typed member, a negative value, a lone interval bound or
// Throws Error{benchmark_output} "failed to parse benchmark output: <file>" (subject = file) for
// malformed JSON, a wrongly typed member, a negative value, a lone interval bound or low > high.
std::optional<BenchmarkResult> parse_alloc_tracker(std::string_view json, const std::filesystem::path& file);

// Throws Error{io} "failed to harvest alloc_tracker benchmark output" (subject = file) when the
// file cannot be read, else as parse_alloc_tracker.
std::optional<BenchmarkResult> read_alloc_tracker(const std::filesystem::path& file);

}  // namespace benchhist::engines
