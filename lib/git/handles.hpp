#pragma once
// Owning handles for libgit2 objects: std::unique_ptr with the matching git_*_free, and out()
// so a libgit2 out-parameter fills one directly:
//   git::CommitPtr c;
//   if (git_commit_lookup(git::out(c), repo, &id) != 0) throw git::failure(...);

#include <git2.h>

#include <memory>

namespace benchhist::git {

template <class T, void (*Free)(T*)>
struct Freer {
  void operator()(T* p) const noexcept {
    if (p) Free(p);
  }
};

template <class T, void (*Free)(T*)>
using Owned = std::unique_ptr<T, Freer<T, Free>>;

using RepositoryPtr = Owned<git_repository, git_repository_free>;
using ReferencePtr = Owned<git_reference, git_reference_free>;
using ObjectPtr = Owned<git_object, git_object_free>;
using CommitPtr = Owned<git_commit, git_commit_free>;
using TreePtr = Owned<git_tree, git_tree_free>;
using DiffPtr = Owned<git_diff, git_diff_free>;
using StatusListPtr = Owned<git_status_list, git_status_list_free>;

// The out-parameter adaptor behind out(): the handle takes what libgit2 wrote (or nothing) at
// the end of the full expression, i.e. before the caller's next statement.
template <class T, class Deleter>
class OutParam {
 public:
  explicit OutParam(std::unique_ptr<T, Deleter>& owner) noexcept : owner_(owner) {}
  ~OutParam() { owner_.reset(raw_); }
  OutParam(const OutParam&) = delete;
  OutParam& operator=(const OutParam&) = delete;
  operator T**() noexcept { return &raw_; }

 private:
  std::unique_ptr<T, Deleter>& owner_;
  T* raw_ = nullptr;
};

template <class T, class Deleter>
OutParam<T, Deleter> out(std::unique_ptr<T, Deleter>& owner) noexcept {
  return OutParam<T, Deleter>(owner);
}

}  // namespace benchhist::git
