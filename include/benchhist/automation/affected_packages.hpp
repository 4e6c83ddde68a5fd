#pragma once
// Which workspace packages a pull request's benchmarks must cover (docs/github.md "Affected
// packages"): every package containing a changed file, plus every workspace package that
// depends on one of those, directly or through others; a change to a workspace-wide input —
// the workspace's Cargo.toml or Cargo.lock, or a `.cargo/config.toml` (`.cargo/config`),
// `rust-toolchain` or `rust-toolchain.toml` in the workspace root or any directory above it in
// the repository — selects every package. Only packages with benchmark targets are selected,
// and excluded packages never are. An empty selection means nothing is benchmarked.

#include <filesystem>
#include <string>
#include <vector>

#include "benchhist/automation/cargo_workspace.hpp"
#include "benchhist/automation/changed_files.hpp"

namespace benchhist::automation {

struct AffectedSelection {
  bool workspace_wide = false;               // a workspace-wide input changed
  std::string workspace_wide_input;          // the first such path (repository-relative)
  std::vector<std::string> changed_packages; // packages containing a changed file, sorted
  std::vector<std::string> packages;         // the selection: sorted, with benchmarks, not excluded
  std::string explanation;                   // one line
  std::vector<std::string> unknown_excludes; // excludes that name no workspace member (a typo), in given order
  bool whole_project = false;                // select_whole_project found a change: measure everything
  // Whether anything is benchmarked (the `any` output).
  bool any() const { return whole_project || !packages.empty(); }
};

// The selection for what changed_files_since_merge_base found. When no file changed at all
// (the head is the base, lies behind it, or changes nothing), the explanation says so, naming
// the merge base and the head.
AffectedSelection select_affected_packages(const CargoWorkspace& workspace, const ChangedFiles& changes,
                                           const std::vector<std::string>& excludes);

// A project measured by a benchmark command ([collect] bench_command in `config_file`) has no
// packages to choose among: any changed file in the repository selects the whole project (the
// command may build from anywhere in it), with `packages` empty so that collect measures
// everything; no changed file selects nothing, explained as above.
AffectedSelection select_whole_project(const ChangedFiles& changes, const std::filesystem::path& config_file);

// The same for bare paths: `changed_paths` are repository-relative ('/'-separated) paths of the
// repository whose working directory is `repo_workdir` (the workspace may sit in a subdirectory
// of it). Without the commits, an empty change list is explained without naming them.
AffectedSelection select_affected_packages(const CargoWorkspace& workspace, const std::filesystem::path& repo_workdir,
                                           const std::vector<std::string>& changed_paths,
                                           const std::vector<std::string>& excludes);

}  // namespace benchhist::automation
