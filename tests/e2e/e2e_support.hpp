#pragma once
// Helpers for the end-to-end suites: temporary directories, running the real
// `cargo-bench-history` binary (BH_CLI_PATH) and other programs (git, sh) as subprocesses with a
// chosen working directory and environment, and reading stored objects straight from disk.
// Same approach as tests/cli/cli_support.hpp, extended with asynchronous launches (for the
// collection race) and a git helper with pinned identities and dates so repositories are
// reproducible.

#include "common/files.hpp"
#include "benchhist/codec/gzip.hpp"
#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <boost/json.hpp>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace e2e {

namespace fs = std::filesystem;

using benchhist::testing::TempDir;
using benchhist::testing::read_file;
using benchhist::testing::write_file;

inline bool contains(const std::string& haystack, const std::string& needle) {
  return haystack.find(needle) != std::string::npos;
}

struct Result {
  int exit_code = -1;
  std::string out;
  std::string err;
};

using EnvChanges = std::map<std::string, std::optional<std::string>>;

// Variables the CLI (or the tools it runs) read; cleared unless a test sets them, so the
// developer's shell never changes an outcome. CXX names the compiler the C++ target probe asks
// (scripts/test-distro.sh and CI's containers export it while the suites run).
inline const std::vector<std::string> cleared_env_vars = {
    "CARGO_BENCH_HISTORY_STORAGE", "CARGO_BENCH_HISTORY_CACHE", "CARGO", "CARGO_TARGET_DIR",
    "CRITERION_HOME",              "GITHUB_ACTIONS",            "TF_BUILD", "GUNGRAUN_SAVE_SUMMARY",
    "GIT_DIR",                     "GIT_WORK_TREE",             "CXX"};

// The children's TMPDIR unless a test sets one: backfill's worktrees and the benchmark logs the
// CLI keeps (docs/bench-output.md) land in it, and it goes when the suite exits.
inline const fs::path& children_temp_dir() {
  static const TempDir dir("bhe2e-tmp");
  return dir.path();
}

// A launched child whose streams go to files; wait() collects them.
class Child {
 public:
  Child(std::vector<std::string> argv, const fs::path& cwd, EnvChanges env) : io_("bhe2e-io") {
    for (const auto& v : cleared_env_vars)
      if (!env.count(v)) env[v] = std::nullopt;
    if (!env.count("TMPDIR")) env["TMPDIR"] = children_temp_dir().string();
    const auto out_path = io_.path() / "out", err_path = io_.path() / "err";
    pid_ = fork();
    if (pid_ < 0) throw std::runtime_error("fork failed");
    if (pid_ == 0) {
      int out = open(out_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
      int err = open(err_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
      int in = open("/dev/null", O_RDONLY);
      if (out < 0 || err < 0 || in < 0 || dup2(out, 1) < 0 || dup2(err, 2) < 0 || dup2(in, 0) < 0)
        _exit(126);
      if (chdir(cwd.c_str()) != 0) _exit(126);
      for (const auto& [k, v] : env) {
        if (v) setenv(k.c_str(), v->c_str(), 1);
        else unsetenv(k.c_str());
      }
      std::vector<char*> args;
      for (auto& a : argv) args.push_back(a.data());
      args.push_back(nullptr);
      execvp(args[0], args.data());
      _exit(127);
    }
  }
  Child(const Child&) = delete;
  Child& operator=(const Child&) = delete;
  ~Child() {
    if (!done_) wait();
  }

  Result wait() {
    int status = 0;
    while (waitpid(pid_, &status, 0) < 0) {
    }
    done_ = true;
    Result r;
    r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    r.out = read_file(io_.path() / "out");
    r.err = read_file(io_.path() / "err");
    return r;
  }

 private:
  TempDir io_;
  pid_t pid_ = -1;
  bool done_ = false;
};

inline Result run(std::vector<std::string> argv, const fs::path& cwd, EnvChanges env = {}) {
  Child c(std::move(argv), cwd, std::move(env));
  return c.wait();
}

inline std::vector<std::string> cli_argv(const std::vector<std::string>& args) {
  std::vector<std::string> full{BH_CLI_PATH};
  full.insert(full.end(), args.begin(), args.end());
  return full;
}

inline Result run_cli(const std::vector<std::string>& args, const fs::path& cwd, EnvChanges env = {}) {
  return run(cli_argv(args), cwd, std::move(env));
}

// git with a pinned identity; `when` (Unix seconds) pins author and committer dates so commit
// ids and first-parent order are reproducible.
inline std::string git(const fs::path& repo, const std::vector<std::string>& args,
                       std::optional<long long> when = std::nullopt) {
  std::vector<std::string> argv{"git", "-c", "init.defaultBranch=main", "-c", "commit.gpgsign=false"};
  argv.insert(argv.end(), args.begin(), args.end());
  EnvChanges env{{"GIT_AUTHOR_NAME", "E2E"},         {"GIT_AUTHOR_EMAIL", "e2e@example.invalid"},
                 {"GIT_COMMITTER_NAME", "E2E"},      {"GIT_COMMITTER_EMAIL", "e2e@example.invalid"},
                 {"GIT_CONFIG_NOSYSTEM", "1"},       {"HOME", repo.string()}};
  if (when) {
    const auto d = "@" + std::to_string(*when) + " +0000";
    env["GIT_AUTHOR_DATE"] = d;
    env["GIT_COMMITTER_DATE"] = d;
  }
  auto r = run(argv, repo, env);
  if (r.exit_code != 0) {
    std::string joined;
    for (const auto& a : args) joined += " " + a;
    throw std::runtime_error("git" + joined + " failed: " + r.err);
  }
  while (!r.out.empty() && (r.out.back() == '\n' || r.out.back() == '\r')) r.out.pop_back();
  return r.out;
}

// A linear history in `dir` (already `git init`ed): `n` commits `spacing` seconds apart from
// 20 days ago (analyze's default window reaches six months back from now). `change(i)` writes
// commit i's files; every commit also changes NOTES and is subject "change <i>", except commit
// `step_at`, subject `step_subject`. Returns the commit ids, oldest first.
inline std::vector<std::string> commit_history(const fs::path& dir, int n, int step_at, long long spacing,
                                               const std::string& step_subject,
                                               const std::function<void(int)>& change) {
  const long long t0 = std::chrono::duration_cast<std::chrono::seconds>(
                           std::chrono::system_clock::now().time_since_epoch()).count() - 20 * 86400;
  std::vector<std::string> commits;
  for (int i = 0; i < n; ++i) {
    change(i);
    write_file(dir / "NOTES", "change " + std::to_string(i) + "\n");
    git(dir, {"add", "-A"});
    git(dir, {"commit", "-q", "-m", i == step_at ? step_subject : "change " + std::to_string(i)}, t0 + i * spacing);
    commits.push_back(git(dir, {"rev-parse", "HEAD"}));
  }
  return commits;
}

// Every regular file under `root`, as '/'-separated paths relative to it, sorted.
inline std::vector<std::string> files_under(const fs::path& root) {
  std::vector<std::string> out;
  if (!fs::exists(root)) return out;
  for (const auto& e : fs::recursive_directory_iterator(root))
    if (e.is_regular_file()) out.push_back(fs::relative(e.path(), root).generic_string());
  std::sort(out.begin(), out.end());
  return out;
}

// The last line of `out` (with its newline). A real `cargo bench` child inherits stdout
// (docs/formats.md#benchmark-invocation), so the collect message is the final line after the
// benchmark progress.
inline std::string last_line(const std::string& out) {
  if (out.empty()) return out;
  const auto pos = out.rfind('\n', out.size() - 2);
  return pos == std::string::npos ? out : out.substr(pos + 1);
}

inline std::string trim(std::string s) {
  while (!s.empty() && (s.back() == '\n' || s.back() == ' ' || s.back() == '\r')) s.pop_back();
  return s;
}

// The run record stored at `file` (gzip'd JSON), read straight from a local store.
inline boost::json::object stored_run(const fs::path& file) {
  return boost::json::parse(benchhist::codec::gunzip(read_file(file))).as_object();
}

// A stored run's result ids, segments joined with '/', in stored order.
inline std::vector<std::string> result_ids(const boost::json::object& run) {
  std::vector<std::string> ids;
  for (const auto& r : run.at("results").as_array()) {
    std::string id;
    for (const auto& s : r.at("id").at("segments").as_array()) id += (id.empty() ? "" : "/") + std::string(s.as_string());
    ids.push_back(id);
  }
  return ids;
}

// The C++ compiler's target, as the tool records it for a --bench-command run or an import
// (Debian's g++ says x86_64-linux-gnu; the tool records the Rust spelling).
inline std::string cxx_host_triple() {
  const std::string t = trim(run({"c++", "-dumpmachine"}, fs::current_path()).out);
  return t == "x86_64-linux-gnu" ? "x86_64-unknown-linux-gnu" : t;
}

}  // namespace e2e
