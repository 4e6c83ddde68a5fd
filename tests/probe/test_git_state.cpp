#include <catch2/catch.hpp>

#include "benchhist/error.hpp"
#include "probe/git_state.hpp"
#include "benchhist/probe/process.hpp"
#include "temp_dir.hpp"

using namespace benchhist;
using bh_test::TempDir;
namespace fs = std::filesystem;

namespace {

// Runs the git CLI in `dir` with a fixed identity; returns trimmed stdout.
std::string git(const fs::path& dir, std::vector<std::string> args) {
  probe::ProcessSpec spec;
  spec.argv = {"git", "-C", dir.string()};
  spec.argv.insert(spec.argv.end(), args.begin(), args.end());
  spec.capture_stdout = true;
  spec.capture_stderr = true;
  spec.env_changes = {{"GIT_AUTHOR_NAME", "T"},         {"GIT_AUTHOR_EMAIL", "t@example.com"},
                      {"GIT_COMMITTER_NAME", "T"},      {"GIT_COMMITTER_EMAIL", "t@example.com"},
                      {"GIT_CONFIG_NOSYSTEM", "1"},     {"HOME", dir.string()},
                      {"GIT_CONFIG_GLOBAL", "/dev/null"}};
  auto r = probe::run_process(spec);
  INFO("git " << probe::describe_command(args) << ": " << r.err);
  REQUIRE(r.success());
  while (!r.out.empty() && (r.out.back() == '\n' || r.out.back() == '\r')) r.out.pop_back();
  return r.out;
}

// A repository with one commit on branch `main` containing a tracked file and a .gitignore.
struct Repo {
  TempDir dir{"git"};
  std::string head;
  Repo() {
    git(dir.path(), {"init", "-q", "-b", "main"});
    dir.write("tracked.txt", "one\n");
    dir.write(".gitignore", "*.log\nbuild/\n");
    git(dir.path(), {"add", "tracked.txt", ".gitignore"});
    git(dir.path(), {"commit", "-q", "-m", "first"});
    head = git(dir.path(), {"rev-parse", "HEAD"});
  }
  const fs::path& path() const { return dir.path(); }
};

}  // namespace

TEST_CASE("a clean repository reports its commit and branch and is not dirty", "[probe][git]") {
  Repo repo;
  auto s = probe::probe_git_state(repo.path());
  CHECK(s.commit == repo.head);
  CHECK(s.commit->size() == 40);
  CHECK(s.branch == "main");
  CHECK_FALSE(s.dirty);
}

TEST_CASE("the state is found from a subdirectory of the working tree", "[probe][git]") {
  Repo repo;
  fs::create_directories(repo.path() / "crates" / "a");
  auto s = probe::probe_git_state(repo.path() / "crates" / "a");
  CHECK(s.commit == repo.head);
  CHECK_FALSE(s.dirty);  // an empty directory is not an untracked file
}

TEST_CASE("an edited tracked file makes the tree dirty", "[probe][git]") {
  Repo repo;
  repo.dir.write("tracked.txt", "two\n");
  CHECK(probe::probe_git_state(repo.path()).dirty);
}

TEST_CASE("a staged change makes the tree dirty", "[probe][git]") {
  Repo repo;
  repo.dir.write("new.txt", "x\n");
  git(repo.path(), {"add", "new.txt"});
  CHECK(probe::probe_git_state(repo.path()).dirty);
}

TEST_CASE("an untracked file makes the tree dirty", "[probe][git]") {
  Repo repo;
  repo.dir.write("sub/untracked.rs", "fn main() {}\n");
  CHECK(probe::probe_git_state(repo.path()).dirty);
}

TEST_CASE("ignored files leave the tree clean", "[probe][git]") {
  Repo repo;
  repo.dir.write("run.log", "noise\n");
  repo.dir.write("build/out.o", "bin\n");
  CHECK_FALSE(probe::probe_git_state(repo.path()).dirty);
}

TEST_CASE("a detached HEAD has a commit but no branch", "[probe][git]") {
  Repo repo;
  repo.dir.write("tracked.txt", "two\n");
  git(repo.path(), {"commit", "-q", "-am", "second"});
  git(repo.path(), {"checkout", "-q", "--detach", repo.head});
  auto s = probe::probe_git_state(repo.path());
  CHECK(s.commit == repo.head);
  CHECK_FALSE(s.branch);
  CHECK_FALSE(s.dirty);
}

TEST_CASE("a branch with a slash in its name is reported in full", "[probe][git]") {
  Repo repo;
  git(repo.path(), {"checkout", "-q", "-b", "feature/x"});
  CHECK(probe::probe_git_state(repo.path()).branch == "feature/x");
}

TEST_CASE("a repository without commits has no commit and no branch", "[probe][git]") {
  TempDir dir("git_unborn");
  git(dir.path(), {"init", "-q", "-b", "main"});
  auto s = probe::probe_git_state(dir.path());
  CHECK_FALSE(s.commit);
  CHECK_FALSE(s.branch);
  CHECK_FALSE(s.dirty);
  dir.write("a.txt", "a");
  CHECK(probe::probe_git_state(dir.path()).dirty);
}

TEST_CASE("a directory outside any repository is a git Error naming the path", "[probe][git]") {
  TempDir dir("not_git");
  // GIT_CEILING_DIRECTORIES is not consulted by libgit2's open_ext with default flags, so make
  // sure no parent of the temp dir is a repository before relying on the failure.
  probe::ProcessSpec check;
  check.argv = {"git", "-C", dir.path().string(), "rev-parse", "--git-dir"};
  check.capture_stderr = true;
  if (probe::run_process(check).success()) {
    WARN("temp directory is inside a git repository; skipping");
    return;
  }
  try {
    probe::probe_git_state(dir.path());
    FAIL("expected an Error");
  } catch (const Error& e) {
    CHECK(e.kind() == ErrorKind::git);
    CHECK(e.message() == "failed to probe the repository's git state");
    CHECK(e.subject() == dir.path().string());
    CHECK_THAT(e.cause(), Catch::Contains(dir.path().string()));
    CHECK_THAT(std::string(e.what()), Catch::Contains(dir.path().string()));
    CHECK_FALSE(e.hint().empty());
  }
  CHECK_THROWS_AS(probe::probe_git_state(dir.path() / "missing"), Error);
}

TEST_CASE("an untracked directory holding only ignored files leaves the tree clean", "[probe][git]") {
  Repo repo;
  repo.dir.write("data/run.log", "noise\n");
  CHECK_FALSE(probe::probe_git_state(repo.path()).dirty);
  repo.dir.write("data/keep.txt", "real\n");
  CHECK(probe::probe_git_state(repo.path()).dirty);
}

TEST_CASE("a linked worktree reports its own detached commit", "[probe][git]") {
  Repo repo;
  repo.dir.write("tracked.txt", "two\n");
  git(repo.path(), {"commit", "-q", "-am", "second"});
  auto wt = repo.path() / "wt";  // inside the repo but ignored below, like a backfill worktree
  repo.dir.write(".git/info/exclude", "wt/\n");
  git(repo.path(), {"worktree", "add", "-q", "--detach", wt.string(), repo.head});
  auto s = probe::probe_git_state(wt);
  CHECK(s.commit == repo.head);
  CHECK_FALSE(s.branch);
  CHECK_FALSE(s.dirty);
  CHECK_FALSE(probe::probe_git_state(repo.path()).dirty);
}
