#include "git/repository.hpp"

#include "git/error.hpp"

namespace benchhist::git {

Repository Repository::open(const std::filesystem::path& dir, std::string hint) {
  Library library;  // libgit2 must be initialised before the open; the result takes its own
  RepositoryPtr handle;
  if (git_repository_open_ext(out(handle), dir.c_str(), 0, nullptr) != 0)
    throw failure("could not open a git repository at " + dir.string(), dir.string(), std::move(hint));
  return Repository(std::move(handle));
}

}  // namespace benchhist::git
