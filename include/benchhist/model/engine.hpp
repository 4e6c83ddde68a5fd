#pragma once
// The benchmark engines whose output the tool harvests: the four Rust engines of
// docs/formats.md#key-grammar, #engine-harvest, Google Benchmark's JSON reporter
// (docs/google-benchmark.md) and the harnesses of docs/harnesses.md (hyperfine, Catch2's XML
// reporter, the Bencher Metric Format, libtest's `#[bench]` lines).

#include <array>
#include <optional>
#include <string_view>

#include "benchhist/model/ascii.hpp"

namespace benchhist {

enum class Engine { criterion, callgrind, alloc_tracker, all_the_time, google_benchmark, hyperfine, catch2, bmf, libtest };

// Canonical order: the order used in error messages and listings of valid names.
inline constexpr std::array<Engine, 9> all_engines{Engine::criterion,        Engine::callgrind, Engine::alloc_tracker,
                                                   Engine::all_the_time,     Engine::google_benchmark,
                                                   Engine::hyperfine,        Engine::catch2,
                                                   Engine::bmf,              Engine::libtest};

constexpr std::string_view to_string(Engine e) noexcept {
  switch (e) {
    case Engine::criterion: return "criterion";
    case Engine::callgrind: return "callgrind";
    case Engine::alloc_tracker: return "alloc_tracker";
    case Engine::all_the_time: return "all_the_time";
    case Engine::google_benchmark: return "google_benchmark";
    case Engine::hyperfine: return "hyperfine";
    case Engine::catch2: return "catch2";
    case Engine::bmf: return "bmf";
    case Engine::libtest: return "libtest";
  }
  return "criterion";
}

// Engine names in keys and on the command line compare ASCII-case-insensitively.
inline std::optional<Engine> parse_engine(std::string_view name) noexcept {
  for (Engine e : all_engines)
    if (ascii::iequals(name, to_string(e))) return e;
  return std::nullopt;
}

inline constexpr std::string_view engine_names_list = "criterion, callgrind, alloc_tracker, all_the_time, google_benchmark, hyperfine, catch2, bmf, libtest";

}  // namespace benchhist
