#pragma once
// Working-tree facts recorded on a run (docs/formats.md#git-facts), read with libgit2 (kept out of
// this header so including it stays cheap).

#include <filesystem>
#include <optional>

#include "benchhist/model/run.hpp"

namespace benchhist::probe {

// The repository containing `repo_dir` (discovered upwards like `git -C <dir>`):
//  * commit — HEAD's commit id; null for an unborn branch;
//  * branch — HEAD's branch shorthand; null when detached (or unborn);
//  * dirty  — any tracked change (index or worktree) or untracked file; ignored files do not
//             count (`git status --porcelain` non-empty).
// Throws Error{git, "failed to probe the repository's git state"} (subject = the path, cause
// naming it) when the directory is not inside a repository or the state cannot be read.
GitState probe_git_state(const std::filesystem::path& repo_dir);

// The top of the working tree containing `dir` (discovered upwards like `git -C <dir>
// rev-parse --show-toplevel`), normalised without a trailing separator; nullopt when `dir` is
// not inside a repository with a working tree. The default project id and configuration
// file are found from here, so a command run in a subdirectory reads the same history
// (docs/configuration.md).
std::optional<std::filesystem::path> find_worktree_root(const std::filesystem::path& dir);

}  // namespace benchhist::probe
