#pragma once
// The benchmark command line (docs/formats.md#benchmark-invocation): `cargo bench` with scope,
// feature and passthrough arguments, and the environment every engine needs to emit output.

#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "benchhist/probe/environment.hpp"

namespace benchhist::collect {

// Which benchmarks `cargo bench` runs (the shared "benchmark scope" and "features" option
// groups of docs/formats.md#option-groups).
struct BenchScope {
  std::vector<std::string> packages;  // -p/--package; empty = --workspace
  std::vector<std::string> excludes;  // --exclude (only without packages)
  std::vector<std::string> benches;   // --bench
  std::vector<std::string> features;  // --features, forwarded verbatim
  bool all_features = false;
  bool no_default_features = false;
  std::vector<std::string> passthrough;  // everything after `--`
};

// `cargo bench …` in the exact order of docs/formats.md#benchmark-invocation. `cargo_program` is
// the program to run: `$CARGO` when set (Cargo sets it for subcommands, so `cargo +nightly
// bench-history` benchmarks with the same toolchain), else `cargo`.
std::vector<std::string> cargo_bench_argv(const BenchScope& scope, const std::string& cargo_program = "cargo");

// `$CARGO` when set and non-empty, else `cargo`.
std::string cargo_program(const probe::Environment& env);

// The absolute target root the harvest scans: `$CARGO_TARGET_DIR` (relative → against
// `repo_dir`) or `<repo_dir>/target`.
std::filesystem::path target_root(const probe::Environment& env, const std::filesystem::path& repo_dir);

// Injected child environment (injected values win): GUNGRAUN_SAVE_SUMMARY=pretty-json and
// CARGO_TARGET_DIR=<target root>; backfill additionally removes RUSTUP_TOOLCHAIN and CARGO so
// a historical checkout's toolchain pin governs.
std::map<std::string, std::optional<std::string>> bench_environment(const std::filesystem::path& target_root,
                                                                    bool strip_toolchain_overrides);

}  // namespace benchhist::collect
