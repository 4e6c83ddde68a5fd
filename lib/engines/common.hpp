#pragma once
// Helpers shared by the engine harvesters (private to lib/engines).

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "benchhist/model/benchmark_id.hpp"

#include "benchhist/error.hpp"
#include "benchhist/model/engine.hpp"
#include "benchhist/model/metric.hpp"
#include "json_reader.hpp"

namespace benchhist::engines::detail {

inline constexpr std::string_view default_parse_hint =
    "the benchmark run that wrote this file was interrupted or used an unsupported engine "
    "version; re-run the benchmarks (delete the file if it is left over from an old run) and "
    "collect again";

// Error{benchmark_output, "failed to parse benchmark output: <path>", subject = path}.
[[noreturn]] inline void throw_parse_error(const std::filesystem::path& file, std::string cause,
                                           std::string hint = std::string(default_parse_hint)) {
  throw Error(ErrorKind::benchmark_output, "failed to parse benchmark output: " + file.string(), file.string(),
              std::move(cause), std::move(hint));
}

// Error{io, "failed to harvest <what> benchmark output", subject = path}; `what` is the engine's
// name, or "report" for a report file not yet recognised.
[[noreturn]] inline void throw_harvest_error(std::string_view what, const std::filesystem::path& path,
                                             std::string cause) {
  throw Error(ErrorKind::io, "failed to harvest " + std::string(what) + " benchmark output",
              path.string(), path.string() + ": " + std::move(cause),
              "check that the target directory is readable by this user and not being deleted "
              "concurrently, then collect again");
}

// A per-iteration slope member of the operation engines (docs/formats.md#alloc_tracker,
// #all_the_time): absent, null or non-finite → nullopt (the caller drops the operation or metric);
// not a number or negative → JsonProblem.
std::optional<double> usable_slope(const JsonValue& obj, std::string_view name);

// Both interval members present and non-null → the interval (finite, low ≤ high; bounds may be
// negative); both absent/null → nullopt; only one → JsonProblem.
std::optional<Interval> optional_interval(const JsonValue& obj, std::string_view low_name,
                                          std::string_view high_name);

// A harness's benchmark name as an identity: split on `separator`, empty segments dropped (a name
// of separators only stays one segment, so no identity is empty). An empty name is a JsonProblem.
BenchmarkId split_identity(std::string_view name, std::string_view separator);

// Two different names of one file that split to one identity (`BM_A/64` and `BM_A//64`):
// stored under one id, one result would replace the other, so the file fails naming both.
[[noreturn]] void throw_identity_collision(std::string_view earlier_name, std::string_view name, const BenchmarkId& id,
                                           std::string_view separator);

// `value` (read at `where`, in `unit`) times `ns_per_unit`, refused when the product is not a
// finite double: 1e300 s is a valid JSON number but no nanosecond count, and a run holding it
// could not be written (docs/formats.md#records).
double to_nanoseconds(double value, double ns_per_unit, std::string_view where, std::string_view unit);

// The median of a non-empty sample; even counts take the mean of the two middle values (Google
// Benchmark's own median, and the usual definition).
double median(std::vector<double> v);

[[noreturn]] inline void throw_harvest_error(Engine engine, const std::filesystem::path& path, std::string cause) {
  throw_harvest_error(to_string(engine), path, std::move(cause));
}

// Whole-file read; errors → throw_harvest_error (naming `what`: an engine, or "report").
std::string read_text_file(const std::filesystem::path& file, std::string_view what);
inline std::string read_text_file(const std::filesystem::path& file, Engine engine) {
  return read_text_file(file, to_string(engine));
}

// Runs `fn` and turns a JsonProblem into the parse error naming `file`.
template <class Fn>
auto with_parse_context(const std::filesystem::path& file, Fn&& fn) -> decltype(fn()) {
  try {
    return fn();
  } catch (const JsonProblem& p) {
    if (!p.hint().empty()) throw_parse_error(file, p.what(), p.hint());
    throw_parse_error(file, p.what());
  }
}

}  // namespace benchhist::engines::detail
