// Git working-tree state through libgit2 (docs/formats.md#git-facts).

#include "probe/git_state.hpp"

#include <optional>
#include <string>
#include <utility>

#include "benchhist/error.hpp"
#include "git/error.hpp"
#include "git/repository.hpp"
#include "git/versions.hpp"

namespace benchhist::probe {
namespace {

// The spec's one message for every git-state failure (docs/formats.md#process-contract); what
// failed and libgit2's (or our own) reason go into the cause.
[[noreturn]] void fail(const std::filesystem::path& dir, const std::string& what,
                       const std::string& why = git::last_error_message(),
                       std::string hint = git::default_open_hint) {
  throw Error(ErrorKind::git, "failed to probe the repository's git state", dir.string(),
              what + " (" + why + ")", std::move(hint));
}

}  // namespace

GitState probe_git_state(const std::filesystem::path& repo_dir) {
  GitState state;
  std::optional<git::Repository> opened;
  try {
    opened = git::Repository::open(repo_dir);
  } catch (const Error& e) {
    fail(repo_dir, e.message(), e.cause(), e.hint());  // the open knows the fix (another owner: safe.directory)
  }
  git_repository* repo = opened->get();
  if (git_repository_is_bare(repo)) {
    fail(repo_dir, "no working tree at " + repo_dir.string(), "the repository is bare");
  }

  git::ReferencePtr head;
  const int rc = git_repository_head(git::out(head), repo);
  if (rc == 0) {
    if (const git_oid* oid = git_reference_target(head.get())) state.commit = git::oid_hex(*oid);
    // `git rev-parse --abbrev-ref HEAD` prints `HEAD` when detached → null
    // (docs/formats.md#git-facts).
    if (!git_repository_head_detached(repo) && git_reference_is_branch(head.get())) {
      state.branch = std::string(git_reference_shorthand(head.get()));
    }
  } else if (rc != GIT_EUNBORNBRANCH && rc != GIT_ENOTFOUND) {
    fail(repo_dir, "could not read HEAD of " + repo_dir.string());
  }
  // An unborn branch: `git rev-parse HEAD` fails, so commit and branch stay null.

  git_status_options opts = git::status_options();
  opts.show = GIT_STATUS_SHOW_INDEX_AND_WORKDIR;
  // Untracked files make the tree dirty; ignored ones do not (porcelain semantics).
  opts.flags = GIT_STATUS_OPT_INCLUDE_UNTRACKED;
  git::StatusListPtr list;
  if (git_status_list_new(git::out(list), repo, &opts) != 0) {
    fail(repo_dir, "could not read the working-tree status of " + repo_dir.string());
  }
  state.dirty = git_status_list_entrycount(list.get()) > 0;
  return state;
}

std::optional<std::filesystem::path> find_worktree_root(const std::filesystem::path& dir) {
  // The nearest directory at or above `dir` holding `.git` (a directory, or the file of a linked
  // worktree or submodule). A plain walk rather than libgit2: every command runs this first,
  // and a libgit2 init/shutdown cycle before the Azure client's TLS left OpenSSL allocations
  // behind (LeakSanitizer, the azure-cli suite).
  std::error_code ec;
  auto at = std::filesystem::absolute(dir, ec).lexically_normal();
  if (ec) return std::nullopt;
  if (at.filename().empty() && at.has_parent_path()) at = at.parent_path();
  for (;;) {
    if (std::filesystem::exists(at / ".git", ec)) return at;
    if (!at.has_parent_path() || at.parent_path() == at) return std::nullopt;
    at = at.parent_path();
  }
}

}  // namespace benchhist::probe
