#pragma once
// The target triple of the C++ compiler, for projects benchmarked through `--bench-command`
// (docs/bench-command.md): `$CXX -dumpmachine` (CXX unset or empty: `c++`), normalised to the
// spelling Rust uses so a C++ and a Rust history on one platform share a partition name.

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

#include "benchhist/probe/environment.hpp"

namespace benchhist::probe {

struct CxxTarget {
  std::string triple;    // normalised, e.g. x86_64-unknown-linux-gnu
  std::string raw;       // what -dumpmachine printed, e.g. x86_64-linux-gnu
  std::string compiler;  // the command that was asked, e.g. `c++` or `ccache g++`
};

// GCC/Clang machine names → Rust-style `<arch>-<vendor>-<os>[-<env>]`: `x86_64-linux-gnu` and
// `x86_64-pc-linux-gnu` → `x86_64-unknown-linux-gnu`; `arm64-apple-darwin23.1.0` →
// `aarch64-apple-darwin`; `x86_64-w64-mingw32` → `x86_64-pc-windows-gnu`; a Linux triple
// without an environment (`x86_64-redhat-linux`) gets `gnu`; OS version suffixes are dropped.
// Anything not recognised is returned lower-cased as written.
std::string normalize_target_triple(std::string_view raw);

// Runs `<compiler> -dumpmachine` (the compiler command split on spaces, looked up on PATH) in
// `cwd`. Best effort like every probe (docs/formats.md#environment): nullopt when it cannot run,
// fails or prints nothing. Never throws Error (a spawn failure is nullopt).
std::optional<CxxTarget> probe_cxx_target(const Environment& env, const std::filesystem::path& cwd = {});

}  // namespace benchhist::probe
