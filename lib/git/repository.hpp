#pragma once
// An open git repository: libgit2's global state held for as long as the handle lives, the
// handle freed first. Every area that reads git opens its repository here.

#include <git2.h>

#include <filesystem>
#include <string>

#include "git/error.hpp"
#include "git/handles.hpp"
#include "git/library.hpp"

namespace benchhist::git {

class Repository {
 public:
  // The repository containing `dir`, discovered upwards like `git -C <dir>`. Throws
  // Error{git, "could not open a git repository at <dir>"} (subject = dir, cause = libgit2's
  // reason, hint = `hint`) when there is none or it cannot be read; for a repository owned by
  // another user that no safe.directory entry allows, Error{git, "git refuses to open the
  // repository at <top>: it is owned by another user …"} whose hint gives the
  // `git config --global --add safe.directory <top>` to run (every command opens here).
  static Repository open(const std::filesystem::path& dir, std::string hint = default_open_hint);

  git_repository* get() const noexcept { return handle_.get(); }

 private:
  explicit Repository(RepositoryPtr handle) noexcept : handle_(std::move(handle)) {}

  Library library_;       // declared first: released after the handle
  RepositoryPtr handle_;
};

}  // namespace benchhist::git
