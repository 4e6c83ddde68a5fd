#pragma once
// What a pull request changes, as GitHub's "Files changed" tab shows it: the paths that differ
// between the merge base of the base and head commits and the head commit (both sides of a
// rename, additions and deletions included). Read with libgit2, which stays out of this header.

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace benchhist::automation {

struct ChangedFiles {
  std::filesystem::path workdir;   // the repository's working directory (absolute)
  std::string base_ref;            // the base ref as given
  std::string head_ref;            // the head ref as given
  std::string base;                // full id of the base ref
  std::string head;                // full id of the head ref
  std::string merge_base;          // full id
  std::vector<std::string> paths;  // repository-relative, '/'-separated, sorted, unique
};

// Throws Error{git} when there is no repository at `repo_dir`; a ref does not resolve (`could not
// resolve "<ref>" while finding the pull request's changes`); there is no merge base (a shallow
// clone: the hint says to fetch full history, e.g. `fetch-depth: 0`); a commit cannot be read.
ChangedFiles changed_files_since_merge_base(const std::filesystem::path& repo_dir, std::string_view base_ref,
                                            std::string_view head_ref);

}  // namespace benchhist::automation
