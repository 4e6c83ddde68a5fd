#pragma once
// libtest harvester: the `test <name> ... bench: <n> ns/iter (+/- <d>)` lines `cargo bench` prints
// on standard output for `#[bench]` functions. Every decision is in docs/harnesses.md#libtest;
// in brief:
//
// * identity: the test path split on `::` (`tests::bench_sum` → [tests, bench_sum]);
// * wall_time: the ns/iter figure (libtest's median of its samples), commas removed;
// * no interval: `+/-` is the width (max − min) of libtest's winsorised samples, not a bound on
//   the median — centring it would double the spread and invent where it lies;
// * `= <n> MB/s` (`b.bytes`) is a rate and never stored; `#[test]` results (`... ok`) and
//   `... ignored` lines are not benchmarks; `... FAILED` fails the file naming the benchmark.

#include <filesystem>
#include <string_view>

#include "benchhist/engines/report.hpp"

namespace benchhist::engines {

// Whether `text` holds at least one libtest bench line (`test <name> ... bench:`): what makes a
// text file libtest output rather than anything else.
bool looks_like_libtest(std::string_view text) noexcept;

// Parses libtest output (other lines are ignored).
// Throws Error{benchmark_output} "failed to parse benchmark output: <file>" (subject = file) naming
// the line of a bench line that is truncated or malformed, a non-finite or negative figure, a unit
// other than ns/iter, a FAILED benchmark, one benchmark reported twice, or output without any
// bench line.
ParsedReport parse_libtest(std::string_view text, const std::filesystem::path& file);

// Reads and parses one file of captured output.
// Throws Error{io} "failed to harvest libtest benchmark output" (subject = file) when it cannot be
// read, else as parse_libtest.
ParsedReport read_libtest(const std::filesystem::path& file);

}  // namespace benchhist::engines
