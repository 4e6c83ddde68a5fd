// What a user walking through the CLI on a C++ project met (walk G), each through the real binary
// against a real git repository: a repository owned by another user, a Criterion file and a
// file with two names of one identity given to import, a --commit that names a blob, backfill's
// FROM and TO swapped, library field names in CLI hints, and a store whose `v1` is a file.

#include <catch2/catch.hpp>

#include <unistd.h>

#include <cstdlib>
#include <string>
#include <vector>

#include "cli_support.hpp"

using bhtest::contains;
using bhtest::git_out;
using bhtest::run_cli;
namespace fs = std::filesystem;

namespace {

constexpr const char* triple = "x86_64-unknown-linux-gnu";

// `<dir>/proj` with four empty commits on main.
fs::path make_repo(const fs::path& dir) {
  const auto repo = dir / "proj";
  fs::create_directories(repo);
  git_out(repo, "init -q -b main");
  git_out(repo, "config user.email t@example.invalid");
  git_out(repo, "config user.name t");
  for (int i = 1; i <= 4; ++i) git_out(repo, "commit -q --allow-empty -m 'change " + std::to_string(i) + "'");
  return repo;
}

// A Google Benchmark report of `names`, one iteration row each.
std::string gbench_report(const std::vector<std::string>& names) {
  std::string rows;
  for (const auto& n : names)
    rows += std::string(rows.empty() ? "" : ",") + R"({"name":")" + n +
            R"(","run_type":"iteration","repetition_index":0,"iterations":1,"real_time":10,"cpu_time":10,"time_unit":"ns"})";
  return R"({"context":{"date":"x"},"benchmarks":[)" + rows + "]}";
}

void require_error(const bhtest::CliResult& r, const std::vector<std::string>& parts) {
  INFO("stdout: " << r.out << "\nstderr: " << r.err);
  CHECK(r.exit_code == 1);
  CHECK(r.out.empty());
  for (const auto& p : parts) CHECK(contains(r.err, p));
}

}  // namespace

TEST_CASE("A repository owned by another user is named as such, with git's safe.directory fix",
          "[cli][walk-g][git]") {
  // libgit2 compares the repository's owner with the effective uid: as root, a repository
  // handed to `nobody` is another user's. Elsewhere the ownership cannot be arranged.
  if (::geteuid() != 0) {
    WARN("skipped: needs root to give the repository to another user");
    return;
  }
  bhtest::TempDir dir;
  const auto repo = make_repo(dir.path());
  fs::create_directories(repo / "src");
  fs::create_directories(dir.path() / "store");
  REQUIRE(std::system(("chown -R 65534 '" + repo.string() + "'").c_str()) == 0);
  const auto home = dir.path() / "home";  // no ~/.gitconfig of the developer's decides the outcome
  fs::create_directories(home);
  const std::map<std::string, std::optional<std::string>> env{
      {"HOME", home.string()}, {"XDG_CONFIG_HOME", std::nullopt}, {"GIT_CONFIG_GLOBAL", std::nullopt}};
  const std::string local = "--local=" + (dir.path() / "store").string();
  const std::string fix = "git config --global --add safe.directory " + repo.string();

  // A command that probes the working tree (collect) and one that reads history (analyze), from
  // the root and from a subdirectory: every one names the owner problem and git's own fix.
  // libgit2 1.5 reports an empty global configuration differently from one with other
  // safe.directory entries (GIT_ENOTFOUND, GIT_EOWNER): both are covered.
  for (const char* config : {"", "[safe]\n\tdirectory = /somewhere/else\n"}) {
    bhtest::write_file(home / ".gitconfig", config);
    for (const auto& cwd : {repo, repo / "src"}) {
      INFO("in " << cwd << " with ~/.gitconfig: " << config);
      const auto collect = run_cli({"collect", local, "--target-triple", triple, "--bench-command", "true"}, cwd, env);
      require_error(collect, {"git refuses to open the repository at " + repo.string() + ": it is owned by another user",
                              "  hint: if you trust the repository, mark it safe with `" + fix + "`"});
      CHECK_FALSE(contains(collect.err, "run the command inside the project's git repository"));
      const auto analyze = run_cli({"analyze", local, "--target-triple", triple, "--machine-key", "m"}, cwd, env);
      require_error(analyze, {"Error: git refuses to open the repository at " + repo.string() +
                                  ": it is owned by another user",
                              "  hint: if you trust the repository, mark it safe with `" + fix + "`"});
    }
  }

  // The hint's command is the fix: with it run, the repository opens.
  fs::remove(home / ".gitconfig");
  REQUIRE(std::system(("HOME='" + home.string() + "' " + fix).c_str()) == 0);
  const auto fixed = run_cli({"list", "runs", local, "--target-triple", triple, "--machine-key", "m"}, repo, env);
  INFO(fixed.err);
  CHECK(fixed.exit_code == 0);
  CHECK_FALSE(contains(fixed.err, "refuses"));
}

TEST_CASE("import names a Criterion estimates.json for what it is and points at --target-dir", "[cli][walk-g]") {
  bhtest::TempDir dir;
  const auto repo = make_repo(dir.path());
  bhtest::write_file(repo / "estimates.json",
                     R"({"mean":{"confidence_interval":{"confidence_level":0.95,"lower_bound":26.6,"upper_bound":27.2},)"
                     R"("point_estimate":26.9,"standard_error":0.14},"median":{"confidence_interval":)"
                     R"({"confidence_level":0.95,"lower_bound":26.5,"upper_bound":27.3},"point_estimate":26.7,)"
                     R"("standard_error":0.25}})");
  const auto r = run_cli({"import", "--local=" + (dir.path() / "store").string(), "--target-triple", triple,
                          "estimates.json"},
                         repo);
  require_error(r, {"Error: failed to parse benchmark output: " + (repo / "estimates.json").string(),
                    "  caused by: no engine recognises this file: it is Criterion's per-benchmark output (its "
                    "estimates.json), not a report",
                    "  hint: import a Criterion run with --target-dir <target dir>"});
  CHECK_FALSE(contains(r.err, "confidence_interval"));  // no longer read as a BMF measure
  CHECK_FALSE(fs::exists(dir.path() / "store" / "v1"));
}

TEST_CASE("import of one file whose two names become one benchmark id names both, the id and why",
          "[cli][walk-g]") {
  bhtest::TempDir dir;
  const auto repo = make_repo(dir.path());
  bhtest::write_file(repo / "collide.json", gbench_report({"BM_A/64", "BM_A//64"}));
  const auto r = run_cli({"import", "--local=" + (dir.path() / "store").string(), "--target-triple", triple,
                          "collide.json"},
                         repo);
  require_error(r, {"  caused by: two benchmarks in this file, 'BM_A/64' and 'BM_A//64', become the same benchmark id "
                    "'BM_A/64' (a name is split on '/' into the id's segments, and empty segments are dropped)",
                    "  hint: rename one of them"});
  CHECK_FALSE(contains(r.err, "also reported by"));  // it named the file it was reading as the other one
}

TEST_CASE("import --commit naming a blob or a tree says what it names, not that it could not be found",
          "[cli][walk-g]") {
  bhtest::TempDir dir;
  const auto repo = make_repo(dir.path());
  bhtest::write_file(repo / "bench.sh", "#!/bin/sh\n");
  git_out(repo, "add bench.sh");
  git_out(repo, "commit -q -m 'add bench.sh'");
  bhtest::write_file(dir.path() / "gbench.json", gbench_report({"BM_X"}));
  const std::string local = "--local=" + (dir.path() / "store").string();
  const auto blob = git_out(repo, "rev-parse HEAD:bench.sh");
  const auto tree = git_out(repo, "rev-parse 'HEAD^{tree}'");
  for (const auto& [id, what] : {std::pair{blob, std::string("blob")}, std::pair{tree, std::string("tree")}}) {
    const auto r = run_cli({"import", local, "--target-triple", triple, "--commit", id,
                            (dir.path() / "gbench.json").string()},
                           repo);
    require_error(r, {"Error: \"" + id + "\" is a " + what + ", not a commit", "  hint: pass a commit id, tag or branch"});
    CHECK_FALSE(contains(r.err, "fetch it first"));
  }
  // An id that names nothing keeps the could-not-resolve message.
  const auto missing = run_cli({"import", local, "--target-triple", triple, "--commit", "deadbeef",
                                (dir.path() / "gbench.json").string()},
                               repo);
  require_error(missing, {"could not resolve \"deadbeef\" while resolving --commit"});
  CHECK_FALSE(fs::exists(dir.path() / "store" / "v1"));
}

TEST_CASE("backfill with FROM and TO swapped says so and shows the order", "[cli][walk-g]") {
  bhtest::TempDir dir;
  const auto repo = make_repo(dir.path());
  const auto r = run_cli({"backfill", "--local=" + (dir.path() / "store").string(), "--bench-command", "true", "HEAD",
                          "HEAD~3"},
                         repo);
  require_error(r, {"Error: <FROM> (HEAD) is not a first-parent ancestor of <TO> (HEAD~3)",
                    "  hint: FROM and TO look swapped: HEAD~3 is older than HEAD; pass the older commit first "
                    "(backfill … HEAD~3 HEAD)"});
  // FROM off TO's history for another reason keeps the first-parent explanation.
  git_out(repo, "checkout -q -b side HEAD~2");
  git_out(repo, "commit -q --allow-empty -m side");
  const auto side = run_cli({"backfill", "--local=" + (dir.path() / "store").string(), "--bench-command", "true",
                             "side", "main"},
                            repo);
  require_error(side, {"is not a first-parent ancestor of <TO> (main)", "pick FROM on the first-parent history of TO"});
  CHECK_FALSE(contains(side.err, "swapped"));
}

TEST_CASE("CLI hints name options, never the library's request fields", "[cli][walk-g]") {
  bhtest::TempDir dir;
  const auto repo = make_repo(dir.path());
  fs::create_directories(dir.path() / "store");
  const std::string local = "--local=" + (dir.path() / "store").string();
  const auto unknown = run_cli({"list", "runs", local, "--context", "deadbeef"}, repo);
  require_error(unknown, {"could not resolve \"deadbeef\" while resolving the analysis context",
                          "  hint: name a branch, tag or commit of this repository, or fetch it first"});
  const auto fresh = dir.path() / "fresh";
  fs::create_directories(fresh);
  git_out(fresh, "init -q -b main");
  const auto unborn = run_cli({"list", "runs", local}, fresh);
  require_error(unborn, {"the repository has no commits yet", "or pass --context <REF> naming one"});
  for (const auto* r : {&unknown, &unborn}) {
    CHECK_FALSE(contains(r->err, "in the library"));
    CHECK_FALSE(contains(r->err, "SelectionRequest"));
  }
  const auto outside = dir.path() / "outside";
  fs::create_directories(outside);
  // A --repo that names no repository: the hint is about that path, not "pass --repo".
  const auto bad_repo = run_cli({"list", "runs", local, "--repo", (dir.path() / "nowhere").string()}, dir.path());
  require_error(bad_repo, {"could not open a git repository at " + (dir.path() / "nowhere").string(),
                           "  hint: check the --repo path: it must be (or lie inside) the project's git repository"});
  const auto no_repo = run_cli({"collect", local, "--target-triple", triple, "--bench-command", "true"}, outside);
  if (!contains(no_repo.err, "could not find repository")) return;  // the temp dir sits inside a repository
  require_error(no_repo, {"  hint: run the command inside the project's git repository, or pass --repo <path>"});
  CHECK_FALSE(contains(no_repo.err, "library caller"));
}

TEST_CASE("A store whose v1 is a file is reported as broken by the read commands, not as empty",
          "[cli][walk-g][storage]") {
  bhtest::TempDir dir;
  const auto repo = make_repo(dir.path());
  const auto store = dir.path() / "store";
  fs::create_directories(store);
  bhtest::write_file(store / "v1", "x\n");
  const std::string local = "--local=" + store.string();
  const std::vector<std::string> filters{"--target-triple", triple, "--machine-key", "m"};
  for (std::vector<std::string> args : {std::vector<std::string>{"analyze", local, "--fail-on", "regression"},
                                        std::vector<std::string>{"list", "runs", local}}) {
    args.insert(args.end(), filters.begin(), filters.end());
    const auto r = run_cli(args, repo);
    require_error(r, {"Error: could not list the local store's objects at " + (store / "v1").string(),
                      (store / "v1").string() + " is a file, not a directory",
                      "  hint: move the file out of the storage directory"});
    CHECK_FALSE(contains(r.out + r.err, "No runs are stored"));
  }
  CHECK(bhtest::read_file(store / "v1") == "x\n");  // the file is the user's to move
}
