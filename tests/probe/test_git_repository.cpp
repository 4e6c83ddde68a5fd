// The libgit2 wrapper (lib/git/): how a failure to open a repository becomes benchhist::Error.

#include <catch2/catch.hpp>

#include "benchhist/error.hpp"
#include "benchhist/probe/process.hpp"
#include "git/repository.hpp"
#include "temp_dir.hpp"

using namespace benchhist;
using bh_test::TempDir;
namespace fs = std::filesystem;

TEST_CASE("opening a path outside any repository is a git Error naming the path, libgit2's reason and a hint",
          "[probe][git]") {
  TempDir dir("not_git");
  probe::ProcessSpec check;  // a temp dir inside a repository would open that one instead
  check.argv = {"git", "-C", dir.path().string(), "rev-parse", "--git-dir"};
  check.capture_stderr = true;
  if (probe::run_process(check).success()) {
    WARN("temp directory is inside a git repository; skipping");
    return;
  }
  for (const fs::path& path : {dir.path(), dir.path() / "missing"}) {
    INFO(path);
    try {
      git::Repository::open(path);
      FAIL("expected an Error");
    } catch (const Error& e) {
      CHECK(e.kind() == ErrorKind::git);
      CHECK(e.message() == "could not open a git repository at " + path.string());
      CHECK(e.subject() == path.string());
      CHECK_FALSE(e.cause().empty());
      CHECK(e.cause() != "unknown libgit2 error");  // libgit2's own reason was read
      CHECK(e.hint() == git::default_open_hint);
    }
  }
  try {
    git::Repository::open(dir.path(), "pass --repo <the checkout>");
    FAIL("expected an Error");
  } catch (const Error& e) {
    CHECK(e.hint() == "pass --repo <the checkout>");  // a caller's better hint replaces the default
  }
}
