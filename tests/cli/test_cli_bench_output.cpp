// The benchmark command's output (docs/bench-output.md, issue 22 bullet 7), through the real
// binary: kept in a per-commit log under TMPDIR rather than streamed, its path announced, its
// tail shown when the command fails (all of it in CI), streamed with --verbose; and for cargo
// bench (a fake `$CARGO`) libtest's #[bench] lines still reach the parser through the log.

#include <catch2/catch.hpp>

#include <sys/stat.h>

#include <chrono>
#include <string>
#include <vector>

#include "cli_support.hpp"

using bhtest::contains;
using bhtest::git_out;
using bhtest::run_cli;
using bhtest::TempDir;
namespace fs = std::filesystem;

namespace {

constexpr const char* triple = "x86_64-unknown-linux-gnu";

// Prints BENCH_LINES (default 60) numbered lines on stdout and on stderr, alternately, then fails
// with BENCH_FAIL or where a `fail-here` file is committed; else writes a Google Benchmark report
// (unless BENCH_NO_REPORT is set).
constexpr const char* bench_script = R"SH(#!/bin/sh
i=1
while [ "$i" -le "${BENCH_LINES:-60}" ]; do
  echo "bench-out line $i."
  echo "bench-err line $i." >&2
  i=$((i + 1))
done
if [ -n "$BENCH_FAIL" ]; then exit "$BENCH_FAIL"; fi
if [ -f fail-here ]; then exit 4; fi
if [ -n "$BENCH_NO_REPORT" ]; then exit 0; fi
cat > "$BENCHHIST_OUTPUT_DIR/report.json" <<EOF
{"context": {"date": "2026-12-03T12:00:00+00:00", "library_build_type": "release"}, "benchmarks": [
 {"name": "BM_A", "run_name": "BM_A", "run_type": "iteration", "repetitions": 1, "repetition_index": 0,
  "threads": 1, "iterations": 100, "real_time": 100, "cpu_time": 90, "time_unit": "ns"}]}
EOF
)SH";

void make_executable(const fs::path& p) { ::chmod(p.c_str(), 0755); }

// A repository with bench.sh committed (so every commit, and every worktree of it, has it).
struct Project {
  TempDir dir{"bhcli-output"};
  fs::path repo = dir.path() / "proj";
  fs::path store = dir.path() / "store";
  std::vector<std::string> commits;

  Project() {
    fs::create_directories(repo);
    git_out(repo, "init -q -b main");
    git_out(repo, "config user.email t@example.invalid");
    git_out(repo, "config user.name t");
    bhtest::write_file(repo / "bench.sh", bench_script);
    make_executable(repo / "bench.sh");
    commit("add the benchmark");
  }
  void commit(const std::string& subject) {
    git_out(repo, "add -A");
    git_out(repo, "commit -q --allow-empty -m '" + subject + "'");
    commits.push_back(git_out(repo, "rev-parse HEAD"));
  }
  // A fresh TMPDIR per run, so the run's log directory is the one under it.
  bhtest::CliResult run(std::vector<std::string> args, const fs::path& tmp,
                        std::map<std::string, std::optional<std::string>> env = {}) const {
    fs::create_directories(tmp);
    args.push_back("--local=" + store.string());
    args.push_back("--target-triple");
    args.push_back(triple);
    env["TMPDIR"] = tmp.string();
    for (const char* ci : {"CI", "GITHUB_ACTIONS", "TF_BUILD"})
      if (!env.count(ci)) env[ci] = std::nullopt;
    return run_cli(args, repo, env);
  }
};

// The log directories a run left under `tmp`.
std::vector<fs::path> log_dirs(const fs::path& tmp) {
  std::vector<fs::path> out;
  for (const auto& e : fs::directory_iterator(tmp))
    if (e.path().filename().string().starts_with("cargo-bench-history-logs-")) out.push_back(e.path());
  return out;
}

}  // namespace

TEST_CASE("collect keeps the benchmark output in a log named in its announcements", "[cli][bench-output]") {
  Project p;
  const fs::path tmp = p.dir.path() / "tmp-ok";
  const auto r = p.run({"collect", "--bench-command", "./bench.sh"}, tmp);
  INFO("stdout: " << r.out << "\nstderr: " << r.err);
  REQUIRE(r.exit_code == 0);
  CHECK(contains(r.out, "Stored 1 result set covering 1 benchmark case."));
  CHECK(contains(r.err, "[bench-history] collecting: target-triple="));
  CHECK_FALSE(contains(r.out + r.err, "bench-out line"));
  CHECK_FALSE(contains(r.out + r.err, "bench-err line"));
  const auto dirs = log_dirs(tmp);
  REQUIRE(dirs.size() == 1);
  CHECK(dirs[0].filename().string().starts_with("cargo-bench-history-logs-collect-"));
  const fs::path log = dirs[0] / (p.commits[0].substr(0, 12) + ".log");
  CHECK(contains(r.err, "[bench-history] the benchmark output goes to " + log.string() +
                            " (pass --verbose to see it here)"));
  const std::string text = bhtest::read_file(log);
  CHECK(contains(text, "(repetition 1 of 1)\nbench-out line 1.\nbench-err line 1.\n"));
  CHECK(contains(text, "bench-out line 60.\nbench-err line 60.\n"));
  CHECK(git_out(p.repo, "status --porcelain").empty());  // nothing of it in the working tree
}

TEST_CASE("collect says when the command wrote no report, and when it stored a dirty snapshot", "[cli][bench-output]") {
  Project p;
  const auto none = p.run({"collect", "--bench-command", "./bench.sh"}, p.dir.path() / "tmp-none",
                          {{"BENCH_NO_REPORT", "1"}});
  INFO("stdout: " << none.out << "\nstderr: " << none.err);
  REQUIRE(none.exit_code == 0);
  CHECK(contains(none.out, "Stored 0 result sets covering 0 benchmark cases."));
  CHECK(contains(none.err, "[bench-history] the benchmark command wrote no report into $BENCHHIST_OUTPUT_DIR, so "
                           "nothing was stored"));
  CHECK_FALSE(contains(none.err, "dirty snapshot"));

  // One untracked file makes the run a dirty snapshot, which history analysis never reads.
  bhtest::write_file(p.repo / "notes.txt", "scratch");
  const auto dirty = p.run({"collect", "--bench-command", "./bench.sh"}, p.dir.path() / "tmp-dirty");
  INFO("stdout: " << dirty.out << "\nstderr: " << dirty.err);
  REQUIRE(dirty.exit_code == 0);
  CHECK(contains(dirty.out, "Stored 1 result set covering 1 benchmark case."));
  CHECK(contains(dirty.err, "[bench-history] stored as a dirty snapshot of " + p.commits[0].substr(0, 12) +
                            ": the working tree has uncommitted changes or untracked files"));
  CHECK_FALSE(contains(dirty.err, "wrote no report"));
  CHECK_FALSE(contains(dirty.err, "The store itself"));

  // The guide's own --local=./bench-history puts the store in the working tree: it is named.
  fs::remove(p.repo / "notes.txt");
  // The first run creates it (the tree was clean when probed); the next finds it untracked.
  fs::create_directories(p.dir.path() / "tmp-inside");
  auto collect_inside = [&] {
    return run_cli({"collect", "--bench-command", "./bench.sh", "--local=./bench-history", "--target-triple",
                               triple},
                              p.repo, {{"TMPDIR", (p.dir.path() / "tmp-inside").string()}, {"CI", std::nullopt},
                                       {"GITHUB_ACTIONS", std::nullopt}, {"TF_BUILD", std::nullopt}});
  };
  CHECK_FALSE(contains(collect_inside().err, "dirty snapshot"));
  const auto inside = collect_inside();
  INFO("stderr: " << inside.err);
  REQUIRE(inside.exit_code == 0);
  CHECK(contains(inside.err, "stored as a dirty snapshot of "));
  CHECK(contains(inside.err, "The store itself (bench-history/) is inside this working tree: add it to .gitignore if "
                             "it is not ignored yet."));
}

TEST_CASE("A failing benchmark command shows the end of its log and the log's path", "[cli][bench-output]") {
  Project p;
  const fs::path tmp = p.dir.path() / "tmp-fail";
  const auto r = p.run({"collect", "--bench-command", "./bench.sh"}, tmp, {{"BENCH_FAIL", "3"}});
  INFO("stdout: " << r.out << "\nstderr: " << r.err);
  CHECK(r.exit_code == 1);
  CHECK(r.out.empty());
  const auto dirs = log_dirs(tmp);
  REQUIRE(dirs.size() == 1);
  const fs::path log = dirs[0] / (p.commits[0].substr(0, 12) + ".log");
  // 121 lines: the repetition's header and 60 of each stream; the last 40 are shown.
  CHECK(contains(r.err, "[bench-history] the benchmark command failed; the last 40 lines of its output (all 121 are in " +
                            log.string() + "):\nbench-out line 41.\n"));
  CHECK(contains(r.err, "bench-err line 60.\nError: engine \"./bench.sh\" failed with exit code 3\n"));
  CHECK(contains(r.err, "  hint: fix the failing benchmark (its output is in " + log.string() + ")"));
  CHECK_FALSE(contains(r.err, "bench-err line 40."));

  SECTION("in CI the whole log is shown: the runner's files go with the job") {
    const auto ci = p.run({"collect", "--bench-command", "./bench.sh"}, p.dir.path() / "tmp-ci",
                          {{"BENCH_FAIL", "3"}, {"CI", "true"}});
    INFO("stderr: " << ci.err);
    CHECK(ci.exit_code == 1);
    CHECK(contains(ci.err, "the benchmark command failed; its output (kept in "));
    CHECK(contains(ci.err, "(repetition 1 of 1)\nbench-out line 1.\n"));
  }
}

TEST_CASE("collect --verbose streams the benchmark output and keeps no log", "[cli][bench-output]") {
  Project p;
  const fs::path tmp = p.dir.path() / "tmp-verbose";
  const auto r = p.run({"collect", "--bench-command", "./bench.sh", "--verbose"}, tmp, {{"BENCH_LINES", "3"}});
  INFO("stdout: " << r.out << "\nstderr: " << r.err);
  REQUIRE(r.exit_code == 0);
  CHECK(contains(r.out, "bench-out line 3."));
  CHECK(contains(r.err, "bench-err line 3."));
  CHECK_FALSE(contains(r.err, "the benchmark output goes to"));
  CHECK(log_dirs(tmp).empty());
}

TEST_CASE("backfill keeps one log per commit and shows a failing commit's tail", "[cli][bench-output][backfill]") {
  Project p;
  bhtest::write_file(p.repo / "fail-here", "");
  p.commit("break the benchmark");
  fs::remove(p.repo / "fail-here");
  p.commit("fix the benchmark");
  const fs::path tmp = p.dir.path() / "tmp-backfill";
  const auto r = p.run({"backfill", "--bench-command", "./bench.sh", "--ignore-errors", p.commits[0], p.commits[2]}, tmp,
                       {{"BENCH_LINES", "30"}});
  INFO("stdout: " << r.out << "\nstderr: " << r.err);
  REQUIRE(r.exit_code == 0);
  CHECK(contains(r.out, "Backfill range of 3 commits: 2 stored, 0 skipped (existing), 0 skipped (empty), 1 failed"));
  const auto dirs = log_dirs(tmp);
  REQUIRE(dirs.size() == 1);
  for (const auto& c : p.commits) {
    const fs::path log = dirs[0] / (c.substr(0, 12) + ".log");
    CHECK(contains(r.err, "[bench-history] the benchmark output goes to " + log.string()));
    CHECK(contains(bhtest::read_file(log), "bench-err line 30.\n"));
  }
  // Only the failing commit's last 40 lines reach the terminal.
  const fs::path failed = dirs[0] / (p.commits[1].substr(0, 12) + ".log");
  CHECK(contains(r.err, "the last 40 lines of its output (all 61 are in " + failed.string() + "):\nbench-out line 11.\n"));
  CHECK_FALSE(contains(r.err, "bench-out line 10."));
  CHECK(contains(r.err, "[bench-history] commit 1 of 3: "));
  CHECK(contains(r.err, "[bench-history] the benchmark output of each commit is kept in " + dirs[0].string() +
                            "/<commit>.log"));
}

TEST_CASE("cargo bench's #[bench] lines are read from its output although it goes to the log",
          "[cli][bench-output][libtest]") {
  Project p;
  const fs::path cargo = p.dir.path() / "fake-cargo";
  bhtest::write_file(cargo, "#!/bin/sh\necho '   Compiling fake v0.1.0' >&2\n"
                            "echo 'test tests::bench_sum ... bench:       1,234 ns/iter (+/- 56)'\n");
  make_executable(cargo);
  const fs::path tmp = p.dir.path() / "tmp-cargo";
  const auto r = p.run({"collect"}, tmp, {{"CARGO", cargo.string()}});
  INFO("stdout: " << r.out << "\nstderr: " << r.err);
  REQUIRE(r.exit_code == 0);
  CHECK(contains(r.out, "libtest: 1 stored"));
  CHECK_FALSE(contains(r.out + r.err, "ns/iter"));
  const auto dirs = log_dirs(tmp);
  REQUIRE(dirs.size() == 1);
  const std::string text = bhtest::read_file(dirs[0] / (p.commits[0].substr(0, 12) + ".log"));
  CHECK(contains(text, "Compiling fake v0.1.0\n"));
  CHECK(contains(text, "test tests::bench_sum ... bench:       1,234 ns/iter (+/- 56)\n"));
}

TEST_CASE("a report the command copied with its old time is named as ignored, not as missing", "[cli][bench-output]") {
  Project p;
  // A report saved an hour ago, copied with `cp -p` (which keeps its time).
  const fs::path saved = p.dir.path() / "saved" / "gbench.json";
  const auto fresh = p.run({"collect", "--no-store", "--bench-command",
                            "./bench.sh && mkdir -p '" + saved.parent_path().string() + "' && cp \"$BENCHHIST_OUTPUT_DIR/"
                            "report.json\" '" + saved.string() + "'"},
                           p.dir.path() / "tmp-save");
  REQUIRE(fresh.exit_code == 0);
  fs::last_write_time(saved, fs::file_time_type::clock::now() - std::chrono::hours(1));
  const auto r = p.run({"collect", "--bench-command", "cp -p '" + saved.string() + "' \"$BENCHHIST_OUTPUT_DIR/\""},
                       p.dir.path() / "tmp-stale");
  INFO("stdout: " << r.out << "\nstderr: " << r.err);
  CHECK(r.exit_code == 0);
  CHECK(contains(r.out, "Stored 0 result sets covering 0 benchmark cases."));
  CHECK(contains(r.err, "[bench-history] the benchmark command left a report in $BENCHHIST_OUTPUT_DIR modified before "
                        "its run started ("));
  CHECK(contains(r.err, "), so it cannot hold this run's results and was ignored as stale: gbench.json (modified "));
  CHECK(contains(r.err, "); nothing was stored. Have the command write its reports while it runs; a copy made with `cp "
                        "-p` keeps the old modification time (drop -p, or `touch` the file after copying it; "
                        "docs/bench-command.md)\n"));
  CHECK_FALSE(contains(r.err, "wrote no report"));
}

TEST_CASE("a store that cannot be written is refused before the benchmark command runs", "[cli][bench-output]") {
  Project p;
  const fs::path marks = p.dir.path() / "marks";
  fs::create_directories(marks);
  // A file where the store's parent directory should be: no user, root included, can write there.
  bhtest::write_file(p.dir.path() / "not-a-dir", "");
  const fs::path tmp = p.dir.path() / "tmp-unwritable";
  fs::create_directories(tmp);
  const auto r = run_cli({"collect", "--bench-command", "touch '" + (marks / "ran").string() + "'; ./bench.sh",
                          "--local=" + (p.dir.path() / "not-a-dir" / "store").string(), "--target-triple", triple},
                         p.repo, {{"TMPDIR", tmp.string()}, {"CI", std::nullopt}});
  INFO("stdout: " << r.out << "\nstderr: " << r.err);
  CHECK(r.exit_code == 1);
  CHECK(contains(r.err, "Error: could not create the local store at " + (p.dir.path() / "not-a-dir" / "store").string() +
                            "\n  caused by: a new file could not be made in " + (p.dir.path() / "not-a-dir").string() +
                            " (checked before any benchmark runs): Not a directory\n"));
  CHECK_FALSE(fs::exists(marks / "ran"));
  CHECK_FALSE(contains(r.err, "the benchmark output goes to"));
}

TEST_CASE("a re-run with --skip-existing benchmarks again and says why it stored nothing", "[cli][bench-output]") {
  Project p;
  REQUIRE(p.run({"collect", "--bench-command", "./bench.sh"}, p.dir.path() / "tmp-first").exit_code == 0);
  const fs::path tmp = p.dir.path() / "tmp-again";
  const auto r = p.run({"collect", "--skip-existing", "--bench-command", "./bench.sh"}, tmp);
  INFO("stdout: " << r.out << "\nstderr: " << r.err);
  CHECK(r.exit_code == 0);
  CHECK_THAT(r.out, Catch::StartsWith("Harvested 1 benchmark case and stored nothing: their result set was already "
                                      "stored, and --skip-existing keeps it. [google_benchmark: 1 harvested (v1/"));
  const auto dirs = log_dirs(tmp);
  REQUIRE(dirs.size() == 1);  // it did run (the guide: a broken benchmark is still caught)
  CHECK(contains(bhtest::read_file(dirs[0] / (p.commits[0].substr(0, 12) + ".log")), "bench-out line 60."));
}
