// The files a pull request changes, against the merge base, through libgit2.

#include "benchhist/automation/changed_files.hpp"

#include <algorithm>
#include <string>

#include "benchhist/error.hpp"
#include "git/error.hpp"
#include "git/repository.hpp"
#include "git/versions.hpp"
#include "shallow_history.hpp"

namespace benchhist::automation {
namespace {

git_oid resolve(git_repository* repo, std::string_view ref) {
  git::ObjectPtr obj;
  const std::string spec = std::string(ref) + "^{commit}";
  if (git_revparse_single(git::out(obj), repo, spec.c_str()) != 0)
    throw git::failure("could not resolve \"" + std::string(ref) + "\" while finding the pull request's changes",
                       std::string(ref),
                       "check that the ref exists in the checkout; fetch the base branch and full history "
                       "(actions/checkout with `fetch-depth: 0`)");
  return *git_object_id(obj.get());
}


git::TreePtr tree_of(git_repository* repo, const git_oid& id) {
  const std::string hex = git::oid_hex(id);
  git::CommitPtr commit;
  if (git_commit_lookup(git::out(commit), repo, &id) != 0)
    throw git::failure("failed to read commit " + hex, hex, git::unreadable_hint);
  git::TreePtr tree;
  if (git_commit_tree(git::out(tree), commit.get()) != 0)
    throw git::failure("failed to read the tree of commit " + hex, hex, git::unreadable_hint);
  return tree;
}

}  // namespace

ChangedFiles changed_files_since_merge_base(const std::filesystem::path& repo_dir, std::string_view base_ref,
                                            std::string_view head_ref) {
  const auto repo = git::Repository::open(repo_dir);
  ChangedFiles out;
  if (const char* wd = git_repository_workdir(repo.get())) out.workdir = std::filesystem::path(wd).lexically_normal();
  const git_oid base = resolve(repo.get(), base_ref);
  const git_oid head = resolve(repo.get(), head_ref);
  out.base_ref = base_ref;
  out.head_ref = head_ref;
  out.base = git::oid_hex(base);
  out.head = git::oid_hex(head);
  git_oid mb;
  const int rc = git_merge_base(&mb, repo.get(), &base, &head);
  if (rc != 0)
    throw Error(ErrorKind::git,
                "no merge base between " + std::string(base_ref) + " and " + std::string(head_ref) +
                    ": cannot tell what the pull request changes",
                std::string(head_ref),
                rc == GIT_ENOTFOUND ? std::string("the histories share no commit") : git::last_error_message(),
                shallow_history_hint);
  out.merge_base = git::oid_hex(mb);

  auto old_tree = tree_of(repo.get(), mb);
  auto new_tree = tree_of(repo.get(), head);
  const git_diff_options opts = git::diff_options();
  git::DiffPtr diff;
  if (git_diff_tree_to_tree(git::out(diff), repo.get(), old_tree.get(), new_tree.get(), &opts) != 0)
    throw git::failure("failed to compare " + out.merge_base + " with " + out.head, out.head);
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
