// bless / unbless / list blessings through the real binary: a planted step is reported,
// blessed away, scoped to another machine key (still reported), and brought back by unbless.

#include <catch2/catch.hpp>

#include <cstdlib>
#include <string>
#include <vector>

#include "benchhist/codec/run_json.hpp"
#include "benchhist/codec/key.hpp"
#include "benchhist/storage/local_store.hpp"
#include "benchhist/version.hpp"
#include "cli_support.hpp"

using namespace benchhist;
using bhtest::contains;
using bhtest::git_out;
using bhtest::run_cli;

namespace {

// 30 commits; parse/step goes 100 → 140 at commit 15 on machine key mk-a.
std::vector<std::string> make_history(const std::filesystem::path& repo, const std::filesystem::path& store_dir) {
  std::filesystem::create_directories(repo / ".cargo");
  git_out(repo, "init -q -b main");
  git_out(repo, "config user.email t@example.invalid");
  git_out(repo, "config user.name t");
  bhtest::write_file(repo / ".cargo" / "bench_history.toml", "[project]\nid = \"blessdemo\"\n");
  git_out(repo, "add -A");
  storage::LocalStore store(store_dir);
  std::vector<std::string> commits;
  for (int i = 0; i < 30; ++i) {
    git_out(repo, "commit -q --allow-empty -m 'change " + std::to_string(i) + "'");
    commits.push_back(git_out(repo, "rev-parse HEAD"));
    Run run;
    run.context.git = GitState{commits.back(), std::string("main"), false};
    run.context.toolchain = ToolchainInfo{"x86_64-unknown-linux-gnu", std::string("1.91.0")};
    run.context.tool_version = std::string(tool_version);
    const double v = (i < 15 ? 100.0 : 140.0) + (i % 4) * 0.3;
    run.results.push_back(BenchmarkResult{BenchmarkId({"parse", "step"}), {MetricValue{MetricKind::wall_time, v, {}, {}}}});
    store.put(codec::clean_key("blessdemo", Engine::criterion, "x86_64-unknown-linux-gnu", "mk-a", commits.back()),
              codec::encode_run(run), storage::CollisionPolicy::refuse);
  }
  return commits;
}

}  // namespace

TEST_CASE("bless through the CLI re-baselines the step, a foreign scope does not, unbless restores it", "[cli][bless]") {
  bhtest::TempDir dir;
  const auto repo = dir.path() / "repo";
  const auto commits = make_history(repo, dir.path() / "store");
  const std::string local = "--local=" + (dir.path() / "store").string();
  const std::vector<std::string> filters{"--target-triple", "x86_64-unknown-linux-gnu", "--machine-key", "mk-a"};
  auto analyze = [&] {
    std::vector<std::string> args{"analyze", local};
    args.insert(args.end(), filters.begin(), filters.end());
    return run_cli(args, repo);
  };

  const auto before = analyze();
  INFO(before.err);
  REQUIRE(before.exit_code == 0);
  CHECK(contains(before.out, "regression via change point"));

  // A blessing scoped to another machine key leaves this partition's finding alone.
  const auto other = run_cli({"bless", "parse/", local, "--context", commits[15], "--machine-key", "mk-other",
                              "--target-triple", "x86_64-unknown-linux-gnu"},
                             repo);
  INFO(other.err);
  REQUIRE(other.exit_code == 0);
  CHECK(contains(other.out, "Blessed 1 prefix filter"));
  CHECK(contains(analyze().out, "regression via change point"));

  // Blessing the step for mk-a accepts it: nothing left to report.
  std::vector<std::string> bless{"bless", "parse/", local, "--context", commits[15]};
  bless.insert(bless.end(), filters.begin(), filters.end());
  const auto blessed = run_cli(bless, repo);
  REQUIRE(blessed.exit_code == 0);
  CHECK(contains(blessed.err, "[bench-history] selection: "));
  const auto after = analyze();
  CHECK_FALSE(contains(after.out, "regression via change point"));

  std::vector<std::string> list{"list", "blessings", local, "--context", commits[15]};
  list.insert(list.end(), filters.begin(), filters.end());
  const auto listed = run_cli(list, repo);
  REQUIRE(listed.exit_code == 0);
  CHECK(contains(listed.out, "parse/"));
  // Filters that hide every blessing at the commit say so instead of "none recorded" alone.
  const auto hidden = run_cli({"list", "blessings", local, "--context", commits[15], "--machine-key", "mk-nosuch"}, repo);
  REQUIRE(hidden.exit_code == 0);
  CHECK(contains(hidden.out, "No blessings recorded at commit"));
  CHECK(contains(hidden.err, "2 blessings recorded at commit " + commits[15].substr(0, 12) +
                                 " lie outside the selection engine=all"));
  CHECK(contains(hidden.err, "machine-key=mk-nosuch; pass `--engine all --target-triple all --machine-key all`"));
  // The window view over an empty window names the filter that emptied it.
  const auto window = run_cli({"list", "blessings", "--all", local, "--context", commits[15], "--machine-key", "mk-nosuch"}, repo);
  REQUIRE(window.exit_code == 0);
  CHECK(contains(window.out, "No blessings in the analysis window."));
  CHECK(contains(window.err, "--machine-key mk-nosuch matches no stored run"));
  // A record whose prefixes accept no stored benchmark has no row in the window view: named.
  std::vector<std::string> stray{"bless", local, "--context", commits[20], "nosuch/"};
  stray.insert(stray.end(), filters.begin(), filters.end());
  REQUIRE(run_cli(stray, repo).exit_code == 0);
  std::vector<std::string> all{"list", "blessings", "--all", local};
  all.insert(all.end(), filters.begin(), filters.end());
  const auto with_stray = run_cli(all, repo);
  INFO(with_stray.err);
  REQUIRE(with_stray.exit_code == 0);
  CHECK(contains(with_stray.err, "1 blessing record in the window accepts no benchmark of the selected runs, so it has "
                                 "no row here: at " + commits[20].substr(0, 12)));
  CHECK_FALSE(contains(with_stray.err, commits[15].substr(0, 12) + ";"));  // that one has rows
  std::vector<std::string> unbless_stray{"unbless", local, "--context", commits[20]};
  unbless_stray.insert(unbless_stray.end(), filters.begin(), filters.end());
  REQUIRE(run_cli(unbless_stray, repo).exit_code == 0);

  // unbless with the mk-a scope removes only the record it contains; the step is back.
  std::vector<std::string> unbless{"unbless", local, "--context", commits[15]};
  unbless.insert(unbless.end(), filters.begin(), filters.end());
  const auto removed = run_cli(unbless, repo);
  INFO(removed.err);
  REQUIRE(removed.exit_code == 0);
  CHECK(contains(removed.out, "Removed 1 blessing at commit " + commits[15].substr(0, 12) + "."));
  CHECK(contains(analyze().out, "regression via change point"));

  // Usage error before anything is touched.
  const auto none = run_cli({"bless", local}, repo);
  CHECK(none.exit_code == 1);
  CHECK(contains(none.err, "bless requires at least one benchmark-id prefix"));
}

TEST_CASE("bless refuses a local store that does not exist instead of creating one around the blessing",
          "[cli][bless]") {
  bhtest::TempDir dir;
  const auto repo = dir.path() / "repo";
  make_history(repo, dir.path() / "store");
  const auto typo = dir.path() / "stroe";
  const auto r = run_cli({"bless", "--all", "--local=" + typo.string()}, repo);
  CHECK(r.exit_code == 1);
  CHECK(contains(r.err, "no local store at " + typo.string() + ": the directory does not exist"));
  CHECK(contains(r.err, "a new store is created by `collect`, `backfill` or `import`"));
  CHECK_FALSE(std::filesystem::exists(typo));
}
