#pragma once
// Criterion harvester (docs/formats.md#criterion): one benchmark case per `new/` directory holding
// `benchmark.json` (identity) and `estimates.json` (the wall_time estimate, in ns as written).

#include <filesystem>
#include <string_view>

#include "benchhist/model/benchmark_result.hpp"

namespace benchhist::engines {

// Builds the case from the text of its two files. Identity: [group_id, function_id,
// trim(value_str)] without empty segments, else [group_id]; a null/absent function_id is an
// absent segment (docs/formats.md#criterion). The estimate is `slope` when present and non-null,
// else `mean` (silently, docs/formats.md#criterion); interval = its confidence bounds; std_dev =
// std_dev.point_estimate.
// Throws Error{benchmark_output} "failed to parse benchmark output: <file>" (subject = the
// offending file inside `case_dir`) for malformed JSON, missing members, non-finite or negative values.
BenchmarkResult parse_criterion_case(std::string_view benchmark_json, std::string_view estimates_json,
                                     const std::filesystem::path& case_dir);

// Reads `<case_dir>/benchmark.json` and `<case_dir>/estimates.json` and parses them.
// Throws Error{benchmark_output} naming a missing file (a half-written case means the run is
// broken), Error{io} "failed to harvest criterion benchmark output" for an unreadable one.
BenchmarkResult read_criterion_case(const std::filesystem::path& case_dir);

}  // namespace benchhist::engines
