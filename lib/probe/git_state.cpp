// Git working-tree state through libgit2 (docs/formats.md#git-facts).

#include "probe/git_state.hpp"

#include <git2.h>

#include <memory>

#include "benchhist/error.hpp"

namespace benchhist::probe {
namespace {

// libgit2's global state is reference counted; one guard per probe keeps it balanced
// without any process-wide initialization by callers.
struct Libgit2 {
  Libgit2() { git_libgit2_init(); }
  ~Libgit2() { git_libgit2_shutdown(); }
  Libgit2(const Libgit2&) = delete;
  Libgit2& operator=(const Libgit2&) = delete;
};

template <class T, void (*Free)(T*)>
struct Deleter {
  void operator()(T* p) const noexcept {
    if (p) Free(p);
  }
};
using RepoPtr = std::unique_ptr<git_repository, Deleter<git_repository, git_repository_free>>;
using RefPtr = std::unique_ptr<git_reference, Deleter<git_reference, git_reference_free>>;
using StatusPtr = std::unique_ptr<git_status_list, Deleter<git_status_list, git_status_list_free>>;

std::string last_git_error() {
  const git_error* e = git_error_last();
  return (e && e->message) ? e->message : "unknown libgit2 error";
}

// `why` is libgit2's last error unless the probe found the problem itself: libgit2 1.8 took
// git_error_set_str out of its public headers, so our own reasons never go through its state.
[[noreturn]] void fail(const std::filesystem::path& dir, const std::string& what,
                       const std::string& why = last_git_error()) {
  throw Error(ErrorKind::git, "failed to probe the repository's git state", dir.string(),
              what + " (" + why + ")",
              "run the command inside a git repository (or pass --repo <path>)");
}

}  // namespace

GitState probe_git_state(const std::filesystem::path& repo_dir) {
  Libgit2 lib;
  GitState state;

  git_repository* raw = nullptr;
  if (git_repository_open_ext(&raw, repo_dir.c_str(), 0, nullptr) != 0) {
    fail(repo_dir, "could not open a git repository at " + repo_dir.string());
  }
  RepoPtr repo(raw);
  if (git_repository_is_bare(repo.get())) {
    fail(repo_dir, "no working tree at " + repo_dir.string(), "the repository is bare");
  }

  git_reference* head_raw = nullptr;
  int rc = git_repository_head(&head_raw, repo.get());
  RefPtr head(head_raw);
  if (rc == 0) {
    const git_oid* oid = git_reference_target(head.get());
    if (oid) {
      char buf[GIT_OID_HEXSZ + 1];
      git_oid_tostr(buf, sizeof buf, oid);
      state.commit = std::string(buf);
    }
    // `git rev-parse --abbrev-ref HEAD` prints `HEAD` when detached → null
    // (docs/formats.md#git-facts).
    if (!git_repository_head_detached(repo.get()) && git_reference_is_branch(head.get())) {
      state.branch = std::string(git_reference_shorthand(head.get()));
    }
  } else if (rc != GIT_EUNBORNBRANCH && rc != GIT_ENOTFOUND) {
    fail(repo_dir, "could not read HEAD of " + repo_dir.string());
  }
  // An unborn branch: `git rev-parse HEAD` fails, so commit and branch stay null.

  // The init function, not GIT_STATUS_OPTIONS_INIT: the macro sets the version field only, which
  // clang's -Wmissing-field-initializers reports; the function zero-fills the rest.
  git_status_options opts;
  git_status_options_init(&opts, GIT_STATUS_OPTIONS_VERSION);
  opts.show = GIT_STATUS_SHOW_INDEX_AND_WORKDIR;
  // Untracked files make the tree dirty; ignored ones do not (porcelain semantics).
  opts.flags = GIT_STATUS_OPT_INCLUDE_UNTRACKED;
  git_status_list* list_raw = nullptr;
  if (git_status_list_new(&list_raw, repo.get(), &opts) != 0) {
    fail(repo_dir, "could not read the working-tree status of " + repo_dir.string());
  }
  StatusPtr list(list_raw);
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
