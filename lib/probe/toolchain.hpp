#pragma once
// The Rust toolchain a run was built with (docs/formats.md#toolchain). The run's target triple is
// always the toolchain host triple.

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

#include "benchhist/model/run.hpp"

namespace benchhist::probe {

// What `rustc -vV` says; each field absent when the text does not give it.
struct RustcVersionInfo {
  std::optional<std::string> release;  // `release: <v>`, else the token after `rustc ` on line 1
  std::optional<std::string> host;     // `host: <triple>`
  friend bool operator==(const RustcVersionInfo&, const RustcVersionInfo&) = default;
};

RustcVersionInfo parse_rustc_version_output(std::string_view text);

// This tool's own platform as Rust spells it (`x86_64-unknown-linux-gnu`, ...): the host
// triple fallback when rustc cannot run.
std::string fallback_host_triple();

struct ToolchainProbeOptions {
  std::string rustc = "rustc";     // program to run (PATH lookup)
  std::filesystem::path cwd;       // empty = the current working directory (collect)
  // Backfill: remove RUSTUP_TOOLCHAIN and CARGO so the checkout's own toolchain pin governs.
  bool isolate_from_launcher = false;
};

// Runs `rustc -vV` and fills ToolchainInfo: version = release (null when rustc cannot run or
// exits non-zero), target_triple = host, else fallback_host_triple(). Never throws for a
// missing or failing rustc (probes are best effort, docs/formats.md#environment).
ToolchainInfo probe_toolchain(const ToolchainProbeOptions& options = {});

}  // namespace benchhist::probe
