#pragma once
// Real git repositories for the automation suites: git run as a subprocess with a pinned
// identity and pinned author/committer dates (so first-parent order and committer times are
// exactly what a test says), in a temporary directory removed at the end.

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "benchhist/error.hpp"
#include "benchhist/probe/process.hpp"

namespace bhtest {

class TempRepo {
 public:
  explicit TempRepo(const std::string& name) {
    std::string tmpl = (std::filesystem::temp_directory_path() / ("bh-" + name + "-XXXXXX")).string();
    if (!mkdtemp(tmpl.data())) throw std::runtime_error("mkdtemp failed");
    root_ = tmpl;
    dir_ = root_ / "repo";
    std::filesystem::create_directories(dir_);
    git({"init", "-q", "-b", "main"});
  }
  ~TempRepo() {
    std::error_code ec;
    std::filesystem::remove_all(root_, ec);
  }
  TempRepo(const TempRepo&) = delete;
  TempRepo& operator=(const TempRepo&) = delete;

  const std::filesystem::path& dir() const { return dir_; }

  // git in the repository; `when` (Unix seconds) pins author and committer dates.
  std::string git(const std::vector<std::string>& args, std::optional<long long> when = std::nullopt) const {
    benchhist::probe::ProcessSpec spec;
    spec.argv = {"git", "-c", "commit.gpgsign=false", "-c", "core.autocrlf=false"};
    spec.argv.insert(spec.argv.end(), args.begin(), args.end());
    spec.cwd = dir_;
    spec.capture_stdout = true;
    spec.capture_stderr = true;
    spec.env_changes = {{"GIT_AUTHOR_NAME", "Test"},          {"GIT_AUTHOR_EMAIL", "test@example.invalid"},
                        {"GIT_COMMITTER_NAME", "Test"},       {"GIT_COMMITTER_EMAIL", "test@example.invalid"},
                        {"GIT_CONFIG_NOSYSTEM", "1"},         {"HOME", root_.string()},
                        {"GIT_DIR", std::nullopt},            {"GIT_WORK_TREE", std::nullopt}};
    if (when) {
      const auto d = "@" + std::to_string(*when) + " +0000";
      spec.env_changes["GIT_AUTHOR_DATE"] = d;
      spec.env_changes["GIT_COMMITTER_DATE"] = d;
    }
    auto r = benchhist::probe::run_process(spec);
    if (!r.success()) {
      std::string joined;
      for (const auto& a : args) joined += " " + a;
      throw std::runtime_error("git" + joined + " failed: " + r.err);
    }
    while (!r.out.empty() && (r.out.back() == '\n' || r.out.back() == '\r')) r.out.pop_back();
    return r.out;
  }

  void write(const std::string& rel, const std::string& text) const {
    auto p = dir_ / rel;
    std::filesystem::create_directories(p.parent_path());
    std::ofstream(p, std::ios::binary | std::ios::trunc) << text;
  }

  // Writes `rel` (when given), stages everything and commits at `when`; returns the full id.
  std::string commit(const std::string& message, long long when, const std::string& rel = {},
                     const std::string& text = {}) const {
    write(rel.empty() ? "log.txt" : rel, text.empty() ? message + "\n" : text);
    git({"add", "-A"});
    git({"commit", "-q", "-m", message}, when);
    return git({"rev-parse", "HEAD"});
  }

 private:
  std::filesystem::path root_, dir_;
};

}  // namespace bhtest
