#pragma once
// A stored run: one engine's results at one commit (or one dirty snapshot), with the
// provenance of where and how it was measured (docs/formats.md#run-record, schema_version 5).

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "benchhist/model/benchmark_result.hpp"
#include "benchhist/model/timestamp.hpp"

namespace benchhist {

inline constexpr int run_schema_version = 5;

enum class CiProvider { local, github_actions, azure_devops };

constexpr std::string_view to_string(CiProvider p) noexcept {
  switch (p) {
    case CiProvider::local: return "local";
    case CiProvider::github_actions: return "github_actions";
    case CiProvider::azure_devops: return "azure_devops";
  }
  return "local";
}

constexpr std::optional<CiProvider> parse_ci_provider(std::string_view s) noexcept {
  if (s == "local") return CiProvider::local;
  if (s == "github_actions") return CiProvider::github_actions;
  if (s == "azure_devops") return CiProvider::azure_devops;
  return std::nullopt;
}

struct GitState {
  std::optional<std::string> commit;  // full id; null when git reported none
  std::optional<std::string> branch;  // null for a detached HEAD
  bool dirty = false;
  friend bool operator==(const GitState&, const GitState&) = default;
};

struct EnvContext {
  CiProvider provider = CiProvider::local;
  std::optional<std::string> run_id;
  std::optional<std::string> pull_request;
  friend bool operator==(const EnvContext&, const EnvContext&) = default;
};

struct ToolchainInfo {
  std::string target_triple;                 // raw, unsanitized
  std::optional<std::string> rustc_version;  // `release:` of `rustc -vV`
  friend bool operator==(const ToolchainInfo&, const ToolchainInfo&) = default;
};

// Hardware provenance (docs/formats.md#hardware). Write-only: analysis never reads it.
struct MachineDescription {
  std::uint64_t processors = 0;
  std::uint64_t memory_regions = 0;
  std::vector<std::string> processor_models;  // sorted, distinct, whitespace-normalized
  std::vector<std::pair<std::uint64_t, std::uint64_t>> processor_speeds;  // [speed, count], ascending
  std::string fingerprint;                    // the machine key
  friend bool operator==(const MachineDescription&, const MachineDescription&) = default;
};

struct RunContext {
  Timestamp observation{};  // start of the first repetition; provenance only
  GitState git;
  EnvContext env;
  ToolchainInfo toolchain;
  std::string tool_version;
  std::optional<MachineDescription> machine;
  std::optional<std::uint32_t> best_of;
  friend bool operator==(const RunContext&, const RunContext&) = default;
};

struct Run {
  int schema_version = run_schema_version;
  RunContext context;
  std::vector<BenchmarkResult> results;
  friend bool operator==(const Run&, const Run&) = default;
};

}  // namespace benchhist
