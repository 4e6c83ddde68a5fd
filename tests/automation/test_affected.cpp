// Affected-package selection on a real three-package cargo workspace (`cargo metadata`
// offline, Debian's crate registry configured like every crate of this project) and its
// changes in a real git repository (docs/github.md "Affected packages").

#include <catch2/catch.hpp>

#include <memory>

#include "benchhist/automation/affected_packages.hpp"
#include "benchhist/automation/cargo_workspace.hpp"
#include "benchhist/automation/changed_files.hpp"
#include "benchhist/error.hpp"
#include "git_repo.hpp"

using namespace benchhist;
using namespace benchhist::automation;
using Names = std::vector<std::string>;

namespace {

const char* kOffline =
    "[source.crates-io]\nreplace-with = \"debian-packages\"\n\n[source.debian-packages]\n"
    "directory = \"/usr/share/cargo/registry\"\n\n[net]\noffline = true\n";

// `tokens` (a library, no benchmarks) ← `parse` (normal dependency, benchmarks) and ← `report`
// (dev-dependency only, benchmarks), in `<repo>/<prefix>`.
void write_workspace(const bhtest::TempRepo& repo, const std::string& prefix) {
  const std::string p = prefix.empty() ? "" : prefix + "/";
  repo.write(p + "Cargo.toml", "[workspace]\nmembers = [\"tokens\", \"parse\", \"report\"]\nresolver = \"2\"\n");
  repo.write(p + ".cargo/config.toml", kOffline);
  repo.write(p + ".gitignore", "/target\nCargo.lock\n");
  repo.write(p + "tokens/Cargo.toml", "[package]\nname = \"tokens\"\nversion = \"0.1.0\"\nedition = \"2021\"\n");
  repo.write(p + "tokens/src/lib.rs", "pub fn base() -> u32 { 1 }\n");
  repo.write(p + "parse/Cargo.toml",
             "[package]\nname = \"parse\"\nversion = \"0.1.0\"\nedition = \"2021\"\n\n[dependencies]\n"
             "tokens = { path = \"../tokens\" }\n\n[[bench]]\nname = \"parsing\"\nharness = false\n");
  repo.write(p + "parse/src/lib.rs", "pub fn parse() -> u32 { tokens::base() + 1 }\n");
  repo.write(p + "parse/benches/parsing.rs", "fn main() { println!(\"{}\", parse::parse()); }\n");
  repo.write(p + "report/Cargo.toml",
             "[package]\nname = \"report\"\nversion = \"0.1.0\"\nedition = \"2021\"\n\n[dev-dependencies]\n"
             "tokens = { path = \"../tokens\" }\n\n[[bench]]\nname = \"render\"\nharness = false\n");
  repo.write(p + "report/src/lib.rs", "pub fn render() -> u32 { 3 }\n");
  repo.write(p + "report/benches/render.rs", "fn main() { println!(\"{}\", tokens::base() + report::render()); }\n");
  repo.write("README.md", "workspace\n");
}

struct Workspace {
  bhtest::TempRepo repo{"affected"};
  std::string prefix;
  std::string base;
  explicit Workspace(std::string pre = {}) : prefix(std::move(pre)) {
    write_workspace(repo, prefix);
    base = repo.commit("workspace", 1767225600, "README.md", "workspace\n");
  }
  std::filesystem::path project() const { return prefix.empty() ? repo.dir() : repo.dir() / prefix; }
  // The selection of a branch that changes `files` (repository-relative) on top of the base.
  AffectedSelection change(const std::vector<std::string>& files, const Names& excludes = {}) const {
    const std::string branch = "pr-" + std::to_string(counter++);
    repo.git({"checkout", "-q", "-b", branch, base});
    for (const auto& f : files) {
      repo.write(f, "changed by " + branch + "\n");
      repo.git({"add", "-f", "--", f});  // Cargo.lock is ignored here, yet a change to it is a change
    }
    repo.git({"add", "-A"});
    repo.git({"commit", "-q", "-m", branch}, 1767312000);
    // main moves on meanwhile: only the pull request's own changes may count.
    repo.git({"checkout", "-q", "main"});
    auto changes = changed_files_since_merge_base(project(), "main", branch);
    REQUIRE(changes.merge_base == base);
    auto ws = read_cargo_workspace(project());
    return select_affected_packages(ws, changes.workdir, changes.paths, excludes);
  }
  mutable int counter = 0;
};

const Workspace& flat() {
  static const std::unique_ptr<Workspace> w = [] {
    auto x = std::make_unique<Workspace>();
    // A later commit on main that touches `parse`: never attributed to a pull request.
    x->repo.commit("main moves", 1767398400, "parse/src/extra.rs", "// main\n");
    return x;
  }();
  return *w;
}

}  // namespace

TEST_CASE("cargo metadata describes the members, their benchmarks and their workspace dependencies",
          "[automation][affected]") {
  const auto ws = read_cargo_workspace(flat().project());
  CHECK(ws.root == std::filesystem::weakly_canonical(flat().project()));
  REQUIRE(ws.members.size() == 3);  // sorted by name
  CHECK(ws.members[0].name == "parse");
  CHECK(ws.members[0].has_benchmarks);
  CHECK(ws.members[0].dependencies == Names{"tokens"});
  CHECK(ws.members[1].name == "report");
  CHECK(ws.members[1].dependencies == Names{"tokens"});  // a dev-dependency counts
  CHECK(ws.members[1].manifest_dir == std::filesystem::weakly_canonical(flat().project() / "report"));
  CHECK(ws.members[2].name == "tokens");
  CHECK_FALSE(ws.members[2].has_benchmarks);
  CHECK(ws.members[2].dependencies.empty());
  // --no-deps: no lock file, no registry access.
  CHECK_FALSE(std::filesystem::exists(flat().project() / "Cargo.lock"));
}

TEST_CASE("a changed package selects itself and every workspace package that depends on it",
          "[automation][affected]") {
  const auto& w = flat();
  auto tokens = w.change({"tokens/src/lib.rs"});
  CHECK(tokens.changed_packages == Names{"tokens"});
  CHECK(tokens.packages == Names{"parse", "report"});  // tokens itself has no benchmarks
  CHECK_FALSE(tokens.workspace_wide);
  CHECK(tokens.explanation == "changed: tokens; benchmarking parse, report (the changed packages with benchmarks and "
                            "every workspace package depending on them)");
  CHECK(w.change({"parse/src/lib.rs"}).packages == Names{"parse"});
  CHECK(w.change({"report/benches/render.rs", "README.md"}).packages == Names{"report"});
  CHECK(w.change({"tokens/Cargo.toml"}).packages == Names{"parse", "report"});
  CHECK(w.change({"tokens/src/lib.rs"}, {"parse"}).packages == Names{"report"});
}

TEST_CASE("workspace-wide inputs select every package with benchmarks", "[automation][affected]") {
  const auto& w = flat();
  for (const char* f : {"Cargo.toml", "Cargo.lock", ".cargo/config.toml", "rust-toolchain.toml", "rust-toolchain"}) {
    INFO(f);
    auto s = w.change({f});
    CHECK(s.workspace_wide);
    CHECK(s.workspace_wide_input == f);
    CHECK(s.packages == Names{"parse", "report"});
  }
}

TEST_CASE("a change outside every package benchmarks nothing", "[automation][affected]") {
  auto s = flat().change({"README.md", "docs/guide.md", ".github/workflows/x.yml"});
  CHECK(s.packages.empty());
  CHECK(s.explanation == "no changed file is inside a workspace package, so nothing is benchmarked");
  auto excluded = flat().change({"report/src/lib.rs"}, {"report"});
  CHECK(excluded.packages.empty());
  // report has benchmarks: it is excluded, which is the reason to give.
  CHECK(excluded.explanation == "the changed packages (report) and their dependents with benchmarks are all excluded "
                                "(report), so nothing is benchmarked");
  CHECK(excluded.unknown_excludes.empty());
  CHECK(flat().change({"report/src/lib.rs"}, {"reprot", "report", "gamma"}).unknown_excludes ==
        Names{"reprot", "gamma"});
}

TEST_CASE("no change at all is explained as such, with the merge base and the head", "[automation][affected]") {
  const auto& w = flat();
  const auto ws = read_cargo_workspace(w.project());
  const std::string main_id = w.repo.git({"rev-parse", "main"});
  // Base and head the same commit.
  auto same = changed_files_since_merge_base(w.project(), "main", "main");
  CHECK(same.paths.empty());
  auto s = select_affected_packages(ws, same, {});
  CHECK(s.packages.empty());
  CHECK(s.changed_packages.empty());
  CHECK(s.explanation == "no file changed between the merge base " + main_id.substr(0, 12) + " and main (" +
                             main_id.substr(0, 12) + "): main already contains it, so nothing is benchmarked");
  // The head an ancestor of the base (a branch main has moved past), named by its full id.
  auto behind = changed_files_since_merge_base(w.project(), "main", w.base);
  REQUIRE(behind.merge_base == w.base);
  CHECK(select_affected_packages(ws, behind, {}).explanation ==
        "no file changed between the merge base " + w.base.substr(0, 12) + " and " + w.base.substr(0, 12) +
            ": main already contains it, so nothing is benchmarked");
  // A head that only adds an empty commit: ahead of the merge base, yet nothing changed.
  w.repo.git({"checkout", "-q", "-b", "empty-change", w.base});
  w.repo.git({"commit", "-q", "--allow-empty", "-m", "nothing"}, 1767484800);
  const std::string empty_id = w.repo.git({"rev-parse", "HEAD"});
  w.repo.git({"checkout", "-q", "main"});
  auto empty = changed_files_since_merge_base(w.project(), "main", "empty-change");
  CHECK(select_affected_packages(ws, empty, {}).explanation ==
        "no file changed between the merge base " + w.base.substr(0, 12) + " and empty-change (" +
            empty_id.substr(0, 12) + "), so nothing is benchmarked");
  // Without the commits, the same fact, unnamed.
  CHECK(select_affected_packages(ws, same.workdir, same.paths, {}).explanation ==
        "no file changed between the merge base and the head, so nothing is benchmarked");
}

TEST_CASE("a workspace in a subdirectory: paths are matched relative to the repository", "[automation][affected]") {
  Workspace w("rust");
  CHECK(w.change({"rust/tokens/src/lib.rs"}).packages == Names{"parse", "report"});
  CHECK(w.change({"rust/report/src/lib.rs"}).packages == Names{"report"});
  // Cargo configuration and toolchain pins above the workspace count, other top-level files do not.
  CHECK(w.change({".cargo/config.toml"}).workspace_wide);
  CHECK(w.change({"rust-toolchain.toml"}).workspace_wide);
  CHECK(w.change({"rust/Cargo.lock"}).workspace_wide);
  CHECK_FALSE(w.change({"Cargo.lock"}).workspace_wide);  // not this workspace's lock file
  CHECK(w.change({"tokens/src/lib.rs"}).packages.empty());  // outside the workspace
}

TEST_CASE("a ref that does not resolve and a shallow history are explained", "[automation][affected]") {
  const auto& w = flat();
  CHECK_THROWS_WITH(changed_files_since_merge_base(w.project(), "origin/main", "HEAD"),
                    Catch::Contains("could not resolve \"origin/main\" while finding the pull request's changes"));
  // Unrelated histories (what a too-shallow clone looks like) have no merge base.
  w.repo.git({"checkout", "-q", "--orphan", "lonely"});
  w.repo.git({"commit", "-q", "--allow-empty", "-m", "lonely"}, 1767398400);
  w.repo.git({"checkout", "-q", "main"});
  try {
    changed_files_since_merge_base(w.project(), "main", "lonely");
    FAIL("no error");
  } catch (const Error& e) {
    CHECK(e.message() == "no merge base between main and lonely: cannot tell what the pull request changes");
    CHECK(e.hint().find("fetch-depth: 0") != std::string::npos);
  }
}

TEST_CASE("cargo metadata output from other cargo versions parses, and a failing cargo says why",
          "[automation][affected]") {
  // Older cargo omits `path` on dependencies: a source-less dependency named like a member is one.
  const std::string doc = R"json({"packages": [
      {"name": "a", "id": "a 0.1.0 (path+file:///w/a)", "manifest_path": "/w/a/Cargo.toml",
       "targets": [{"kind": ["lib"], "name": "a"}], "dependencies": []},
      {"name": "b", "id": "b 0.1.0 (path+file:///w/b)", "manifest_path": "/w/b/Cargo.toml",
       "targets": [{"kind": ["bench"], "name": "x"}],
       "dependencies": [{"name": "a", "source": null, "kind": "dev"},
                        {"name": "serde", "source": "registry+https://github.com/rust-lang/crates.io-index"}]}],
    "workspace_members": ["a 0.1.0 (path+file:///w/a)", "b 0.1.0 (path+file:///w/b)"],
    "workspace_root": "/w"})json";
  auto ws = parse_cargo_metadata(doc, "test");
  REQUIRE(ws.members.size() == 2);
  CHECK(ws.members[1].dependencies == Names{"a"});
  auto s = select_affected_packages(ws, "/w", {"a/src/lib.rs"}, {});
  CHECK(s.packages == Names{"b"});
  bhtest::TempRepo empty("no-workspace");
  CHECK_THROWS_WITH(read_cargo_workspace(empty.dir()), Catch::Contains("`cargo metadata` failed in"));
}
