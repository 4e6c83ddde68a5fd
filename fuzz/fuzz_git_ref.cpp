// Git refs from the command line (--context, --base) and the configuration
// (default_branch), resolved in a real repository made at start-up (three commits, a branch,
// a tag). A ref either resolves to a full commit id that resolves to itself and has a
// committer time, or resolution fails with Error{git} quoting the ref (a ref naming a tree or a
// blob included); libgit2 never sees a
// ref it could misread (an embedded NUL must not resolve as its prefix).

#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>

#include "benchhist/analysis/git_topology.hpp"
#include "fuzz_support.hpp"

namespace fs = std::filesystem;

namespace {

std::unique_ptr<benchhist::analysis::GitTopology> repo;

bool is_hex40(std::string_view s) {
  if (s.size() != 40) return false;
  for (char c : s)
    if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) return false;
  return true;
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  std::string tmpl = (fs::temp_directory_path() / "bh-fuzz-git-XXXXXX").string();
  if (!mkdtemp(tmpl.data())) fuzz::fail("mkdtemp failed");
  const std::string script =
      "cd '" + tmpl + "' && git init -q -b main . && git config user.email f@example.org && "
      "git config user.name fuzz && git commit -q --allow-empty -m one && git commit -q --allow-empty -m two && "
      "git tag v1 && git checkout -q -b feature && git commit -q --allow-empty -m three && git checkout -q main";
  if (std::system(script.c_str()) != 0) fuzz::fail("could not create the fuzz repository", tmpl);
  repo = benchhist::analysis::open_git_topology(tmpl);
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto ref = fuzz::as_view(data, size);
  const auto& git = *repo;
  // A ref naming an object that is not a commit (`v1:`, a tree) is refused with Error{git}
  // naming it (git_topology.hpp), and so is every resolution built on it.
  std::optional<std::string> id;
  try {
    id = git.resolve(ref);
  } catch (const benchhist::Error& e) {
    fuzz::check(e.kind() == benchhist::ErrorKind::git, "resolve failed with a kind other than git", e.what());
    fuzz::check_names(e, ref);
    for (const auto& attempt : {+[](const benchhist::analysis::GitTopology& g, std::string_view r) {
                                  (void)benchhist::analysis::resolve_context(g, r);
                                },
                                +[](const benchhist::analysis::GitTopology& g, std::string_view r) {
                                  (void)benchhist::analysis::resolve_base(g, std::string(r), std::nullopt, "HEAD");
                                }}) {
      try {
        attempt(git, ref);
        fuzz::check(false, "a resolution built on a refused ref succeeded", e.what());
      } catch (const benchhist::Error& again) {
        fuzz::check_names(again, ref);
      }
    }
    return 0;
  }
  if (id) {
    fuzz::check(ref.find('\0') == std::string_view::npos, "a ref with a NUL byte resolved", *id);
    fuzz::check(is_hex40(*id), "resolve gave something other than a full commit id", *id);
    fuzz::check(git.resolve(*id) == id, "a resolved commit id does not resolve to itself", *id);
    (void)git.committer_time(*id);
  }
  try {
    const auto context = benchhist::analysis::resolve_context(git, ref);
    fuzz::check(id && context == *id, "resolve_context disagrees with resolve");
  } catch (const benchhist::Error& e) {
    fuzz::check(!id, "resolve_context refused a ref that resolves", e.what());
    fuzz::check(e.kind() == benchhist::ErrorKind::git, "resolve_context failed with a kind other than git", e.what());
    fuzz::check_names(e, ref);
  }
  try {
    const auto base = benchhist::analysis::resolve_base(git, std::string(ref), std::nullopt, "HEAD");
    fuzz::check(id && base.commit == *id && base.name == ref, "resolve_base disagrees with resolve");
  } catch (const benchhist::Error& e) {
    fuzz::check(!id, "resolve_base refused a ref that resolves", e.what());
    fuzz::check_names(e, ref);
  }
  // A configured default branch that does not resolve falls back to git's own (main).
  const auto fallback = benchhist::analysis::resolve_base(git, std::nullopt, std::string(ref), "HEAD");
  fuzz::check(fallback.commit == (id ? *id : *git.resolve("main")), "a configured default branch resolved wrongly");
  return 0;
}
