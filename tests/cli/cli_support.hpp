#pragma once
// Test helpers: temporary directories and running the real CLI binary as a subprocess with a
// chosen working directory and environment changes, capturing stdout and stderr separately.

#include "common/files.hpp"
#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace bhtest {

using benchhist::testing::TempDir;
using benchhist::testing::read_file;
using benchhist::testing::write_file;

struct CliResult {
  int exit_code = -1;
  std::string out;
  std::string err;
};

// Environment variables the CLI reads; cleared for every run unless a test sets them, so the
// developer's own shell never changes a test's outcome.
inline const std::vector<std::string> cli_env_vars = {"CARGO_BENCH_HISTORY_STORAGE",
                                                      "CARGO_BENCH_HISTORY_CACHE"};

// Runs BH_CLI_PATH with `args` in `cwd`; `env` values set variables (nullopt removes them).
inline CliResult run_cli(const std::vector<std::string>& args, const std::filesystem::path& cwd,
                         std::map<std::string, std::optional<std::string>> env = {}) {
  for (const auto& v : cli_env_vars)
    if (!env.count(v)) env[v] = std::nullopt;
  TempDir io("bhcli-io");
  const auto out_path = io.path() / "out", err_path = io.path() / "err";
  pid_t pid = fork();
  if (pid < 0) throw std::runtime_error("fork failed");
  if (pid == 0) {
    int out = open(out_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    int err = open(err_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    if (out < 0 || err < 0 || dup2(out, 1) < 0 || dup2(err, 2) < 0) _exit(126);
    if (chdir(cwd.c_str()) != 0) _exit(126);
    for (const auto& [k, v] : env) {
      if (v) setenv(k.c_str(), v->c_str(), 1);
      else unsetenv(k.c_str());
    }
    std::vector<std::string> full{BH_CLI_PATH};
    full.insert(full.end(), args.begin(), args.end());
    std::vector<char*> argv;
    for (auto& a : full) argv.push_back(a.data());
    argv.push_back(nullptr);
    execv(BH_CLI_PATH, argv.data());
    _exit(127);
  }
  int status = 0;
  while (waitpid(pid, &status, 0) < 0) {
  }
  CliResult r;
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  r.out = read_file(out_path);
  r.err = read_file(err_path);
  return r;
}

inline bool contains(const std::string& haystack, const std::string& needle) {
  return haystack.find(needle) != std::string::npos;
}

// `git -C <repo> <args>` through the shell; its standard output without the final newlines.
// Throws when git cannot be started or fails.
inline std::string git_out(const std::filesystem::path& repo, const std::string& args) {
  std::string out;
  FILE* p = ::popen(("git -C '" + repo.string() + "' " + args).c_str(), "r");
  if (!p) throw std::runtime_error("cannot start git " + args);
  char buf[256];
  while (std::size_t n = std::fread(buf, 1, sizeof buf, p)) out.append(buf, n);
  if (::pclose(p) != 0) throw std::runtime_error("git " + args + " failed in " + repo.string());
  while (!out.empty() && out.back() == '\n') out.pop_back();
  return out;
}

}  // namespace bhtest
