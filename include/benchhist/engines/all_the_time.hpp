#pragma once
// all_the_time harvester (docs/formats.md#all_the_time): one file per operation, processor time per
// iteration in nanoseconds as written.

#include <filesystem>
#include <optional>
#include <string_view>

#include "benchhist/model/benchmark_result.hpp"

namespace benchhist::engines {

// Identity [operation]; one metric processor_time ← slope_processor_time_nanos with the two
// interval members when present. Absent/null/non-finite slope → nullopt (operation dropped).
// Throws Error{benchmark_output} "failed to parse benchmark output: <file>" (subject = file) for
// malformed input.
std::optional<BenchmarkResult> parse_all_the_time(std::string_view json, const std::filesystem::path& file);

// Throws Error{io} "failed to harvest all_the_time benchmark output" (subject = file) when the
// file cannot be read, else as parse_all_the_time.
std::optional<BenchmarkResult> read_all_the_time(const std::filesystem::path& file);

}  // namespace benchhist::engines
