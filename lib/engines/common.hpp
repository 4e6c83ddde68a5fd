#pragma once
// Helpers shared by the engine harvesters (private to lib/engines).

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

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

// Error{io, "failed to harvest <engine> benchmark output", subject = path}.
[[noreturn]] inline void throw_harvest_error(Engine engine, const std::filesystem::path& path,
                                             std::string cause) {
  throw Error(ErrorKind::io, "failed to harvest " + std::string(to_string(engine)) + " benchmark output",
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

// Whole-file read; errors → throw_harvest_error.
std::string read_text_file(const std::filesystem::path& file, Engine engine);

// Runs `fn` and turns a JsonProblem into the parse error naming `file`.
template <class Fn>
auto with_parse_context(const std::filesystem::path& file, Fn&& fn) -> decltype(fn()) {
  try {
    return fn();
  } catch (const JsonProblem& p) {
    throw_parse_error(file, p.what());
  }
}

}  // namespace benchhist::engines::detail
