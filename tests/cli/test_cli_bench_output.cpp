// The benchmark command's output (docs/bench-output.md, issue 22 bullet 7), through the real
// binary: kept in a per-commit log under TMPDIR rather than streamed, its path announced, its
// tail shown when the command fails (all of it in CI), streamed with --verbose; and for cargo
// bench (a fake `$CARGO`) libtest's #[bench] lines still reach the parser through the log. And
// what collect and backfill say when the run ends without storing: interrupted (SIGTERM, Ctrl-C,
// a hung command stopped by a second interrupt), a stale report, a store that cannot be written,
// results that were already stored.

#include <catch2/catch.hpp>

#include <signal.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <memory>
#include <string>
#include <thread>
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
// (unless BENCH_NO_REPORT is set; BENCH_ERRORED: one whose only benchmark errored).
constexpr const char* bench_script = R"SH(#!/bin/sh
i=1
while [ "$i" -le "${BENCH_LINES:-60}" ]; do
  echo "bench-out line $i."
  echo "bench-err line $i." >&2
  i=$((i + 1))
done
# BENCH_MARKS: note the pids and the output directory there, start a grandchild, mark `started`
# and wait for the grandchild (BENCH_HANG: ignore SIGINT and SIGTERM and loop forever instead).
if [ -n "$BENCH_MARKS" ]; then
  if [ -n "$BENCH_HANG" ]; then trap '' INT TERM; fi
  echo $$ > "$BENCH_MARKS/child"
  echo "$BENCHHIST_OUTPUT_DIR" > "$BENCH_MARKS/output-dir"
  sleep 30 &
  echo $! > "$BENCH_MARKS/grandchild"
  touch "$BENCH_MARKS/started"
  if [ -n "$BENCH_HANG" ]; then while :; do sleep 1; done; fi
  wait
fi
if [ -n "$BENCH_FAIL" ]; then exit "$BENCH_FAIL"; fi
if [ -f fail-here ]; then exit 4; fi
if [ -n "$BENCH_NO_REPORT" ]; then exit 0; fi
if [ -n "$BENCH_ERRORED" ]; then
cat > "$BENCHHIST_OUTPUT_DIR/report.json" <<EOF
{"context": {"date": "2026-12-03T12:00:00+00:00"}, "benchmarks": [
 {"name": "BM_A", "run_name": "BM_A", "run_type": "iteration", "repetitions": 1, "repetition_index": 0, "threads": 1,
  "iterations": 0, "real_time": 0, "cpu_time": 0, "time_unit": "ns", "error_occurred": true, "error_message": "boom"}]}
EOF
exit 0
fi
cat > "$BENCHHIST_OUTPUT_DIR/report.json" <<EOF
{"context": {"date": "2026-12-03T12:00:00+00:00", "library_build_type": "release"}, "benchmarks": [
 {"name": "BM_A", "run_name": "BM_A", "run_type": "iteration", "repetitions": 1, "repetition_index": 0,
  "threads": 1, "iterations": 100, "real_time": 100, "cpu_time": 90, "time_unit": "ns"}]}
EOF
)SH";

void make_executable(const fs::path& p) { ::chmod(p.c_str(), 0755); }

struct Running;

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
    prepare(args, tmp, env);
    return run_cli(args, repo, env);
  }
  // This project's store and triple, a fresh TMPDIR, and no CI provider's variables.
  void prepare(std::vector<std::string>& args, const fs::path& tmp,
               std::map<std::string, std::optional<std::string>>& env) const {
    fs::create_directories(tmp);
    args.push_back("--local=" + store.string());
    args.push_back("--target-triple");
    args.push_back(triple);
    env["TMPDIR"] = tmp.string();
    for (const char* ci : {"CI", "GITHUB_ACTIONS", "TF_BUILD"})
      if (!env.count(ci)) env[ci] = std::nullopt;
  }
  // As run(), started in the background for a test to signal.
  Running start(std::vector<std::string> args, const fs::path& tmp,
                       std::map<std::string, std::optional<std::string>> env = {}) const;
};

// The CLI started in a process group of its own, as a shell starts a job, with SIGINT and SIGTERM
// at their default dispositions whatever this process has: a test signals it as a terminal's
// Ctrl-C (the group) or a supervisor's SIGTERM (the process) would.
struct Running {
  pid_t pid = -1;
  std::shared_ptr<TempDir> io = std::make_shared<TempDir>("bhcli-io");

  std::string err() const { return bhtest::read_file(io->path() / "err"); }
  bool running() const { return ::waitpid(pid, &status, WNOHANG) == 0; }
  // Waits up to `limit`; exit_code -2 when it had to be killed.
  bhtest::CliResult finish(std::chrono::seconds limit) const {
    const auto end = std::chrono::steady_clock::now() + limit;
    bhtest::CliResult r;
    while (::waitpid(pid, &status, WNOHANG) == 0) {
      if (std::chrono::steady_clock::now() > end) {
        ::kill(-pid, SIGKILL);
        ::waitpid(pid, &status, 0);
        r.exit_code = -2;
        break;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    if (r.exit_code != -2) r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    r.out = bhtest::read_file(io->path() / "out");
    r.err = err();
    return r;
  }

 private:
  mutable int status = 0;
};

Running start_cli(const std::vector<std::string>& args, const fs::path& cwd,
                  std::map<std::string, std::optional<std::string>> env) {
  for (const auto& v : bhtest::cli_env_vars)
    if (!env.count(v)) env[v] = std::nullopt;
  Running r;
  const auto out_path = r.io->path() / "out", err_path = r.io->path() / "err";
  r.pid = ::fork();
  REQUIRE(r.pid >= 0);
  if (r.pid == 0) {
    ::setpgid(0, 0);
    ::signal(SIGINT, SIG_DFL);
    ::signal(SIGTERM, SIG_DFL);
    int out = ::open(out_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    int err = ::open(err_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    if (out < 0 || err < 0 || ::dup2(out, 1) < 0 || ::dup2(err, 2) < 0 || ::chdir(cwd.c_str()) != 0) ::_exit(126);
    for (const auto& [k, v] : env) {
      if (v) ::setenv(k.c_str(), v->c_str(), 1);
      else ::unsetenv(k.c_str());
    }
    std::vector<std::string> full{BH_CLI_PATH};
    full.insert(full.end(), args.begin(), args.end());
    std::vector<char*> argv;
    for (auto& a : full) argv.push_back(a.data());
    argv.push_back(nullptr);
    ::execv(BH_CLI_PATH, argv.data());
    ::_exit(127);
  }
  ::setpgid(r.pid, r.pid);  // whichever of the two runs first
  return r;
}

Running Project::start(std::vector<std::string> args, const fs::path& tmp,
                       std::map<std::string, std::optional<std::string>> env) const {
  prepare(args, tmp, env);
  return start_cli(args, repo, env);
}

// Waits up to 10 s for `file` to appear (the benchmark command got that far).
bool appears(const fs::path& file) {
  for (int i = 0; i < 500; ++i) {
    if (fs::exists(file)) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  return false;
}

pid_t pid_in(const fs::path& file) {
  std::string text = bhtest::read_file(file);
  return text.empty() ? -1 : static_cast<pid_t>(std::stol(text));
}

// Alive and not a zombie (an orphan's zombie lingers where PID 1 does not reap), within 5 s.
bool gone(pid_t pid) {
  for (int i = 0; i < 250; ++i) {
    const std::string stat = bhtest::read_file("/proc/" + std::to_string(pid) + "/stat");
    const auto paren = stat.rfind(')');
    if (stat.empty() || paren == std::string::npos || paren + 2 >= stat.size() || stat[paren + 2] == 'Z') return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  return false;
}

// Ends the benchmark command noted in `marks` if it is still running when a test ends, so a
// regression fails the test without leaving a looping command behind (checked by its
// environment, so a reused pid is never hit).
struct StopLeftover {
  fs::path marks;
  ~StopLeftover() {
    const pid_t child = pid_in(marks / "child");
    if (child <= 0) return;
    const std::string env = bhtest::read_file("/proc/" + std::to_string(child) + "/environ");
    if (env.find("BENCH_MARKS=" + marks.string() + std::string(1, '\0')) == std::string::npos) return;
    ::kill(-child, SIGKILL);
    ::kill(child, SIGKILL);
  }
};

// The objects in a local store (none when it was never made).
std::size_t stored_objects(const fs::path& store) {
  std::size_t n = 0;
  std::error_code ec;
  for (auto it = fs::recursive_directory_iterator(store, ec); !ec && it != fs::recursive_directory_iterator();
       it.increment(ec))
    if (it->is_regular_file()) ++n;
  return n;
}

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

  // A report whose every benchmark errored was written: the note says what stored nothing.
  const auto errored = p.run({"collect", "--bench-command", "./bench.sh"}, p.dir.path() / "tmp-errored",
                             {{"BENCH_ERRORED", "1"}});
  INFO("stdout: " << errored.out << "\nstderr: " << errored.err);
  REQUIRE(errored.exit_code == 0);
  CHECK(contains(errored.out, "Stored 0 result sets covering 0 benchmark cases."));
  CHECK(contains(errored.err, "[bench-history] the benchmark command wrote 1 report into $BENCHHIST_OUTPUT_DIR, but "
                              "no benchmark in it has a result to store, so nothing was stored: BM_A stored nothing "
                              "(error: boom). Fix the benchmarks that errored or failed"));
  CHECK_FALSE(contains(errored.err, "wrote no report"));

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
  // A refused argument (an unknown -p package) fails the same way: the hint does not blame the code.
  CHECK(contains(r.err, "an argument the command refused (an unknown -p package or --bench target), fails the same way"));
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

TEST_CASE("collect stopped by SIGTERM or Ctrl-C stops its benchmark command, removes its output directory and says "
          "nothing was stored", "[cli][bench-output][interrupt]") {
  Project p;
  const fs::path marks = p.dir.path() / "marks";
  fs::create_directories(marks);
  const StopLeftover stop_leftover{marks};
  const auto [sig, to_group] = GENERATE(std::pair{SIGTERM, false}, std::pair{SIGINT, true});
  const std::string name = sig == SIGTERM ? "SIGTERM" : "SIGINT";
  INFO(name << (to_group ? " to the process group (Ctrl-C)" : " to collect alone"));
  const fs::path tmp = p.dir.path() / ("tmp-" + name);
  const auto run = p.start({"collect", "--bench-command", "./bench.sh"}, tmp, {{"BENCH_MARKS", marks.string()}});
  REQUIRE(appears(marks / "started"));
  ::kill(to_group ? -run.pid : run.pid, sig);
  const auto r = run.finish(std::chrono::seconds(20));
  INFO("stdout: " << r.out << "\nstderr: " << r.err);
  CHECK(r.exit_code == 1);
  CHECK(contains(r.err, "[bench-history] interrupted by " + name + ": stopping the benchmark command (its process "
                        "group was sent " + name + "); press Ctrl-C again (or send another SIGTERM) to terminate it if "
                        "it does not stop\n"));
  CHECK(contains(r.err, "Error: collect was interrupted by " + name +
                            " while the benchmark command ran: nothing was stored\n  caused by: interrupted by " + name +
                            "\n  hint: run collect again to measure this commit\n"));
  CHECK_FALSE(contains(r.err, "bench-out line"));  // an interruption shows no tail (docs/bench-output.md)
  CHECK(r.out.empty());
  CHECK(gone(pid_in(marks / "child")));
  CHECK(gone(pid_in(marks / "grandchild")));  // a background `sleep`, which ignores SIGINT
  const fs::path output_dir = bhtest::read_file(marks / "output-dir").substr(0, bhtest::read_file(marks / "output-dir").size() - 1);
  CHECK(output_dir.parent_path() == tmp);
  CHECK_FALSE(fs::exists(output_dir));
  CHECK(stored_objects(p.store) == 0);
}

TEST_CASE("a hung benchmark command is stopped by a second interrupt, the first saying how", "[cli][bench-output][interrupt]") {
  Project p;
  const fs::path marks = p.dir.path() / "marks";
  fs::create_directories(marks);
  const StopLeftover stop_leftover{marks};
  const std::map<std::string, std::optional<std::string>> env{{"BENCH_MARKS", marks.string()}, {"BENCH_HANG", "1"}};
  const fs::path tmp = p.dir.path() / "tmp-hang";

  SECTION("backfill: the first lets the commit run on, the second terminates it") {
    p.commit("a second commit");
    const auto run = p.start({"backfill", "--bench-command", "./bench.sh", p.commits[0], p.commits[1]}, tmp, env);
    REQUIRE(appears(marks / "started"));
    ::kill(run.pid, SIGTERM);
    std::this_thread::sleep_for(std::chrono::seconds(1));
    CHECK(run.running());
    CHECK(contains(run.err(), "[bench-history] interrupted by SIGTERM: stopping once the benchmark command under way has "
                              "finished (its results are stored); press Ctrl-C again (or send another SIGTERM) to stop "
                              "the running benchmark now\n"));
    ::kill(-run.pid, SIGINT);
    const auto r = run.finish(std::chrono::seconds(20));
    INFO("stdout: " << r.out << "\nstderr: " << r.err);
    CHECK(r.exit_code == 1);
    CHECK(contains(r.err, "[bench-history] interrupted again (SIGINT): terminating the benchmark command's process "
                          "group (SIGTERM, then SIGKILL if it has not ended 3 s later)\n"));
    CHECK(contains(r.err, "Error: Backfill range of 2 commits: 0 stored, 0 skipped (existing), 0 skipped (empty), 0 "
                          "failed, 2 deferred. Interrupted by SIGTERM.\n"));
    CHECK(gone(pid_in(marks / "child")));
    CHECK(gone(pid_in(marks / "grandchild")));
    for (const auto& e : fs::directory_iterator(tmp))
      CHECK_FALSE(e.path().filename().string().starts_with("cargo-bench-history-worktree-"));
    CHECK(git_out(p.repo, "worktree list").find('\n') == std::string::npos);  // the checkout alone
  }
  SECTION("collect: the first is passed on and ignored, the second terminates it") {
    const auto run = p.start({"collect", "--bench-command", "./bench.sh"}, tmp, env);
    REQUIRE(appears(marks / "started"));
    ::kill(-run.pid, SIGINT);
    std::this_thread::sleep_for(std::chrono::seconds(1));
    CHECK(run.running());
    ::kill(-run.pid, SIGINT);
    const auto r = run.finish(std::chrono::seconds(20));
    INFO("stdout: " << r.out << "\nstderr: " << r.err);
    CHECK(r.exit_code == 1);
    CHECK(contains(r.err, "[bench-history] interrupted again (SIGINT): terminating the benchmark command's process "
                          "group"));
    CHECK(contains(r.err, "Error: collect was interrupted by SIGINT while the benchmark command ran: nothing was stored"));
    CHECK(gone(pid_in(marks / "child")));
  }
  CHECK(stored_objects(p.store) == 0);
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

TEST_CASE("a project id or target triple too long to be stored is refused before the benchmark command runs",
          "[cli][bench-output]") {
  Project p;
  const fs::path marks = p.dir.path() / "marks";
  fs::create_directories(marks);
  const fs::path store = p.dir.path() / "store";
  const fs::path tmp = p.dir.path() / "tmp-long";
  fs::create_directories(tmp);
  auto collect = [&](const std::string& target_triple) {
    return run_cli({"collect", "--bench-command", "touch '" + (marks / "ran").string() + "'; ./bench.sh",
                    "--local=" + store.string(), "--target-triple", target_triple},
                   p.repo, {{"TMPDIR", tmp.string()}, {"CI", std::nullopt}});
  };
  // Each names one directory of the store, and a file system takes at most 255 bytes per name.
  const auto triple_256 = collect(std::string(256, 'x'));
  INFO("stderr: " << triple_256.err);
  CHECK(triple_256.exit_code == 1);
  CHECK(contains(triple_256.err, "'--target-triple <TRIPLE>' is 256 characters long; it names a directory of the "
                                 "store, which takes at most 255: pass the target triple of the toolchain that "
                                 "built the benchmarks"));

  fs::create_directories(p.repo / ".cargo");
  bhtest::write_file(p.repo / ".cargo" / "bench_history.toml", "[project]\nid = \"" + std::string(300, 'p') + "\"\n");
  const auto id_300 = collect(triple);
  INFO("stderr: " << id_300.err);
  CHECK(id_300.exit_code == 1);
  CHECK(contains(id_300.err, "`project.id` at line 2: is 300 characters long; it names a directory of the store, "
                             "which takes at most 255\n  hint: shorten the id to at most 255 characters"));
  CHECK_FALSE(fs::exists(marks / "ran"));
  CHECK_FALSE(fs::exists(store));

  // The limit is the stored name's: 255 characters (each non-ASCII one stored as one `_`) are taken.
  std::string id_255;
  for (int i = 0; i < 255; ++i) id_255 += "\u00e9";  // 510 bytes in the file, 255 in the store
  bhtest::write_file(p.repo / ".cargo" / "bench_history.toml", "[project]\nid = \"" + id_255 + "\"\n");
  const auto stored = collect(std::string(255, 'x'));
  INFO("stderr: " << stored.err);
  CHECK(stored.exit_code == 0);
  CHECK(fs::exists(marks / "ran"));
  CHECK(fs::is_directory(store / "v1" / std::string(255, '_')));
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
