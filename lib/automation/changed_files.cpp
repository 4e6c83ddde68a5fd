// The files a pull request changes, against the merge base, through libgit2.

#include "benchhist/automation/changed_files.hpp"

#include <git2.h>

#include <algorithm>
#include <memory>

#include "benchhist/error.hpp"

namespace benchhist::automation {
namespace {

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
using ObjectPtr = std::unique_ptr<git_object, Deleter<git_object, git_object_free>>;
using CommitPtr = std::unique_ptr<git_commit, Deleter<git_commit, git_commit_free>>;
using TreePtr = std::unique_ptr<git_tree, Deleter<git_tree, git_tree_free>>;
using DiffPtr = std::unique_ptr<git_diff, Deleter<git_diff, git_diff_free>>;

std::string last_error() {
  const git_error* e = git_error_last();
  return (e && e->message) ? e->message : "unknown libgit2 error";
}

std::string hex(const git_oid& oid) {
  char buf[GIT_OID_HEXSZ + 1];
  git_oid_tostr(buf, sizeof buf, &oid);
  return buf;
}

git_oid resolve(git_repository* repo, std::string_view ref) {
  git_object* raw = nullptr;
  const std::string spec = std::string(ref) + "^{commit}";
  if (git_revparse_single(&raw, repo, spec.c_str()) != 0)
    throw Error(ErrorKind::git, "could not resolve \"" + std::string(ref) + "\" while finding the pull request's changes",
                std::string(ref), last_error(),
                "check that the ref exists in the checkout; fetch the base branch and full history "
                "(actions/checkout with `fetch-depth: 0`)");
  ObjectPtr obj(raw);
  return *git_object_id(obj.get());
}

TreePtr tree_of(git_repository* repo, const git_oid& id) {
  git_commit* c = nullptr;
  if (git_commit_lookup(&c, repo, &id) != 0)
    throw Error(ErrorKind::git, "failed to read commit " + hex(id), hex(id), last_error());
  CommitPtr commit(c);
  git_tree* t = nullptr;
  if (git_commit_tree(&t, commit.get()) != 0)
    throw Error(ErrorKind::git, "failed to read the tree of commit " + hex(id), hex(id), last_error());
  return TreePtr(t);
}

}  // namespace

ChangedFiles changed_files_since_merge_base(const std::filesystem::path& repo_dir, std::string_view base_ref,
                                            std::string_view head_ref) {
  Libgit2 lib;
  git_repository* raw = nullptr;
  if (git_repository_open_ext(&raw, repo_dir.c_str(), 0, nullptr) != 0)
    throw Error(ErrorKind::git, "no git repository at " + repo_dir.string(), repo_dir.string(), last_error(),
                "run the command inside the checkout (or pass --repo <path>)");
  RepoPtr repo(raw);
  ChangedFiles out;
  if (const char* wd = git_repository_workdir(repo.get())) out.workdir = std::filesystem::path(wd).lexically_normal();
  const git_oid base = resolve(repo.get(), base_ref);
  const git_oid head = resolve(repo.get(), head_ref);
  out.base = hex(base);
  out.head = hex(head);
  git_oid mb;
  const int rc = git_merge_base(&mb, repo.get(), &base, &head);
  if (rc != 0)
    throw Error(ErrorKind::git,
                "no merge base between " + std::string(base_ref) + " and " + std::string(head_ref) +
                    ": cannot tell what the pull request changes",
                std::string(head_ref), rc == GIT_ENOTFOUND ? std::string("the histories share no commit") : last_error(),
                "a shallow clone cuts the history off: fetch full history (actions/checkout with `fetch-depth: 0`, or "
                "`git fetch --unshallow`)");
  out.merge_base = hex(mb);

  auto old_tree = tree_of(repo.get(), mb);
  auto new_tree = tree_of(repo.get(), head);
  git_diff_options opts;  // the init function: the macro leaves fields unnamed (clang warns)
  git_diff_options_init(&opts, GIT_DIFF_OPTIONS_VERSION);
  git_diff* d = nullptr;
  if (git_diff_tree_to_tree(&d, repo.get(), old_tree.get(), new_tree.get(), &opts) != 0)
    throw Error(ErrorKind::git, "failed to compare " + out.merge_base + " with " + out.head, out.head, last_error());
  DiffPtr diff(d);
  for (std::size_t i = 0, n = git_diff_num_deltas(diff.get()); i < n; ++i) {
    const git_diff_delta* delta = git_diff_get_delta(diff.get(), i);
    if (delta->old_file.path) out.paths.emplace_back(delta->old_file.path);
    if (delta->new_file.path) out.paths.emplace_back(delta->new_file.path);
  }
  std::sort(out.paths.begin(), out.paths.end());
  out.paths.erase(std::unique(out.paths.begin(), out.paths.end()), out.paths.end());
  return out;
}

}  // namespace benchhist::automation
