#pragma once
// Shared checks of the fuzz targets (docs/fuzzing.md). Every target asserts a property, not
// only "no crash": a decode either yields a value that survives re-encoding and decoding
// unchanged, or throws benchhist::Error naming its input. Anything else — another exception
// type, an Error naming nothing, a value that does not round-trip — aborts, which libFuzzer
// records as a crash with the input that caused it.

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "benchhist/codec/run_json.hpp"
#include "benchhist/error.hpp"
#include "benchhist/model/run.hpp"

namespace fuzz {

[[noreturn]] inline void fail(std::string_view what, std::string_view detail = {}) {
  std::fprintf(stderr, "PROPERTY VIOLATED: %.*s\n%.*s\n", static_cast<int>(what.size()), what.data(),
               static_cast<int>(detail.size()), detail.data());
  std::abort();
}

inline void check(bool ok, std::string_view what, std::string_view detail = {}) {
  if (!ok) fail(what, detail);
}

inline std::string_view as_view(const std::uint8_t* data, std::size_t size) {
  return {reinterpret_cast<const char*>(data), size};
}

// The error must name its input: `name` in the subject or in the message.
inline void check_names(const benchhist::Error& e, std::string_view name) {
  const bool named = (!e.subject().empty() && e.subject().find(name) != std::string::npos) ||
                     e.message().find(name) != std::string::npos;
  if (!named) fail("error does not name its input", std::string(name) + "\n  got: " + e.what());
  if (e.message().empty()) fail("error without a message", e.what());
}

// Splits at the first NUL byte (never valid inside JSON text): two files from one input.
inline std::pair<std::string_view, std::string_view> split_nul(std::string_view in) {
  const auto nul = in.find('\0');
  if (nul == std::string_view::npos) return {in, {}};
  return {in.substr(0, nul), in.substr(nul + 1)};
}

// Harvested results are stored inside a run record: they must survive that round trip.
inline void check_results_roundtrip(const std::vector<benchhist::BenchmarkResult>& results) {
  benchhist::Run run;
  run.context.tool_version = "fuzz";
  run.context.toolchain.target_triple = "x86_64-unknown-linux-gnu";
  run.context.git.commit = "0123456789abcdef0123456789abcdef01234567";
  run.results = results;
  std::string encoded;
  try {
    encoded = benchhist::codec::encode_run(run);
  } catch (const benchhist::Error& e) {
    fail("a harvested result cannot be encoded", e.what());
  }
  try {
    const auto back = benchhist::codec::decode_run(encoded, "fuzz-key");
    check(back.results == results, "a harvested result changed through encode_run/decode_run", encoded);
  } catch (const benchhist::Error& e) {
    fail("the encoding of a harvested result does not decode", std::string(e.what()) + "\n" + encoded);
  }
}

}  // namespace fuzz
