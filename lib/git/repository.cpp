#include "git/repository.hpp"

#include <system_error>

#include "git/error.hpp"
#include "git/versions.hpp"

namespace benchhist::git {
namespace {

// The directory git's safe.directory entry must name: the top of the work tree holding `dir`
// (what git and libgit2 compare the entries with, and what `git status` suggests), else — a
// bare repository — its git directory as libgit2 finds it, else `dir` itself.
std::filesystem::path safe_directory_for(const std::filesystem::path& dir) {
  std::error_code ec;
  auto at = std::filesystem::absolute(dir, ec).lexically_normal();
  if (!ec) {
    if (at.filename().empty() && at.has_parent_path()) at = at.parent_path();
    for (auto up = at;; up = up.parent_path()) {
      if (std::filesystem::exists(up / ".git", ec)) return up;
      if (!up.has_parent_path() || up.parent_path() == up) break;
    }
  }
  git_buf found{};
  std::filesystem::path gitdir = dir;
  if (git_repository_discover(&found, dir.c_str(), 0, nullptr) == 0 && found.ptr)
    gitdir = std::filesystem::path(found.ptr).lexically_normal();
  git_buf_dispose(&found);
  if (gitdir.filename().empty() && gitdir.has_parent_path()) gitdir = gitdir.parent_path();
  return gitdir;
}

}  // namespace

Repository Repository::open(const std::filesystem::path& dir, std::string hint) {
  Library library;  // libgit2 must be initialised before the open; the result takes its own
  RepositoryPtr handle;
  const int rc = git_repository_open_ext(out(handle), dir.c_str(), 0, nullptr);
  if (rc == 0) return Repository(std::move(handle));
  if (is_ownership_refusal(rc)) {
    // The user is inside the repository: "run it inside the repository" would send them in
    // circles. git's own check refuses it too, and its fix is the one to give.
    const std::string cause = last_error_message();
    const std::string top = safe_directory_for(dir).string();
    throw Error(ErrorKind::git,
                "git refuses to open the repository at " + top +
                    ": it is owned by another user than the one running this command",
                top, cause,
                "if you trust the repository, mark it safe with `git config --global --add safe.directory " + top +
                    "` (or run the command as the repository's owner)");
  }
  throw failure("could not open a git repository at " + dir.string(), dir.string(), std::move(hint));
}

}  // namespace benchhist::git
