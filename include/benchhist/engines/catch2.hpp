#pragma once
// Catch2 harvester: the XML reporter's `<BenchmarkResults>` (`-r xml`, Catch2 v2's `<Catch>` and
// v3's `<Catch2TestRun>` documents). Every decision is in docs/harnesses.md#catch2; in brief:
//
// * identity: [test case name, enclosing SECTION names…, benchmark name];
// * wall_time: `<mean value>` with the interval [lowerBound, upperBound] Catch2's bootstrap
//   reports; std_dev: `<standardDeviation value>`; all in nanoseconds, as the reporter writes;
// * a benchmark that failed (`<failed message>`) or belongs to a failed test case stores
//   nothing and is named in a note; outliers, sample counts and test assertions are not read.

#include <filesystem>
#include <string_view>

#include "benchhist/engines/report.hpp"

namespace benchhist::engines {

// Parses one XML report.
// Throws Error{benchmark_output} "failed to parse benchmark output: <file>" (subject = file) for
// malformed or truncated XML, a root other than Catch2's, a benchmark without a name or mean, a
// missing, malformed, non-finite or negative figure, reversed bounds, or one benchmark identity
// reported twice.
ParsedReport parse_catch2(std::string_view xml, const std::filesystem::path& file);

// Reads and parses one XML report.
// Throws Error{io} "failed to harvest catch2 benchmark output" (subject = file) when it cannot be
// read, else as parse_catch2.
ParsedReport read_catch2(const std::filesystem::path& file);

}  // namespace benchhist::engines
