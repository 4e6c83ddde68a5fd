#pragma once
// The workspace packages of a Cargo project as `cargo metadata --format-version 1 --no-deps`
// describes them: where each lives, whether it has benchmark targets, and which other
// workspace members it depends on (normal, dev and build dependencies alike — a benchmark
// usually reaches the code it measures through a dev-dependency). `--no-deps` reads only the
// manifests: no registry access and no Cargo.lock is written.

#include <filesystem>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "benchhist/probe/process.hpp"

namespace benchhist::automation {

struct WorkspacePackage {
  std::string name;
  std::filesystem::path manifest_dir;     // absolute, normal
  bool has_benchmarks = false;            // a target of kind `bench`
  std::vector<std::string> dependencies;  // names of workspace members it depends on, sorted
};

struct CargoWorkspace {
  std::filesystem::path root;             // `workspace_root`, absolute, normal
  std::vector<WorkspacePackage> members;  // sorted by name
};

// Parses the metadata document.
// Throws Error{decode} (subject = origin) when it is not the expected JSON.
CargoWorkspace parse_cargo_metadata(std::string_view json, const std::string& origin);

// Runs `<cargo> metadata --format-version 1 --no-deps` in `project_dir` and parses it.
// Throws Error{toolchain} (subject = project_dir, cause = cargo's own message) when cargo fails,
// Error{io} when it cannot be started, Error{decode} when its output does not parse.
CargoWorkspace read_cargo_workspace(const std::filesystem::path& project_dir, const std::string& cargo = "cargo",
                                    const std::function<probe::ProcessResult(const probe::ProcessSpec&)>& run = probe::run_process);

}  // namespace benchhist::automation
