// `cargo bench-history publish` through the real binary against the GitHub REST stand-in: the
// variables it reads, the certificate trusted through SSL_CERT_FILE (verification stays on),
// the token never printed, argument rules, and the project id taken from the configuration.

#include <catch2/catch.hpp>

#include "../cli/cli_support.hpp"
#include "standin.hpp"

using bhtest::contains;
using bhtest::run_cli;
using bhtest::standin;
namespace json = boost::json;

namespace {

const std::string tip = "9f2c4a1d3b5e708aab12cd34ef5678901234567a";

std::string report_json(const std::string& project, const std::string& outcome, const std::string& coverage,
                        int regressions, const std::string& mode = "history") {
  return "{\"project\": \"" + project + "\", \"tip_commit\": \"" + tip +
         "\", \"tip_dirty\": false, \"mode\": \"" + mode + "\", \"outcome\": \"" + outcome +
         "\", \"notable\": false, \"runs\": 3, \"series\": 4, \"regressions\": " + std::to_string(regressions) +
         ", \"ghosts_excluded\": 0, \"census\": {\"total\": 4, \"in_scope\": 4, \"judged\": 4, \"unjudged\": 0, "
         "\"coverage\": \"" + coverage + "\", \"reasons\": []}, \"findings\": [], \"sets\": []}";
}

// A project directory named `textproc` (no configuration: the id is the directory's name).
struct Project {
  bhtest::TempDir tmp{"bhpub"};
  std::filesystem::path dir = tmp.path() / "textproc";
  Project() {
    std::filesystem::create_directories(dir);
    bhtest::write_file(dir / "report.json", report_json("textproc", "findings", "full", 2));
    bhtest::write_file(dir / "branch.json", report_json("textproc", "findings", "full", 2, "branch"));
    bhtest::write_file(dir / "summary.md", "# Benchmark history analysis: textproc\n\n- Regressions: 2\n");
  }
};

std::map<std::string, std::optional<std::string>> github_env() {
  auto& s = standin();
  return {{"GITHUB_API_URL", s.api_url()},
          {"GITHUB_REPOSITORY", bhtest::GitHubStandIn::repository},
          {"GITHUB_TOKEN", bhtest::GitHubStandIn::token},
          {"GITHUB_SHA", "abcdefabcdef0123456789abcdef0123456789ab"},
          {"GITHUB_REF_NAME", "main"},
          {"GITHUB_SERVER_URL", std::nullopt},  // set per test: Actions sets it, so bodies link commits
          {"SSL_CERT_FILE", s.cert().string()}};
}

void no_token_printed(const bhtest::CliResult& r) {
  CHECK_FALSE(contains(r.out, bhtest::GitHubStandIn::token));
  CHECK_FALSE(contains(r.err, bhtest::GitHubStandIn::token));
}

}  // namespace

TEST_CASE("publish without GITHUB_TOKEN or GITHUB_REPOSITORY fails naming the variable before any request",
          "[publish][cli]") {
  auto& s = standin();
  s.reset();
  Project p;
  auto env = github_env();
  env["GITHUB_TOKEN"] = std::nullopt;
  auto r = run_cli({"publish", "failure", "--run-url", "https://run"}, p.dir, env);
  CHECK(r.exit_code == 1);
  CHECK(contains(r.err, "Error: GITHUB_TOKEN is unset or empty"));
  CHECK(contains(r.err, "hint: in a workflow step set `env: GITHUB_TOKEN: ${{ github.token }}`"));
  env = github_env();
  env["GITHUB_REPOSITORY"] = "";
  r = run_cli({"publish", "failure", "--run-url", "https://run"}, p.dir, env);
  CHECK(r.exit_code == 1);
  CHECK(contains(r.err, "Error: GITHUB_REPOSITORY is unset or empty"));
  CHECK(s.requests().empty());
}

TEST_CASE("publish history opens the findings issue over verified TLS and never prints the token",
          "[publish][cli]") {
  auto& s = standin();
  s.reset();
  Project p;
  auto r = run_cli({"publish", "history", "--json", "report.json", "--markdown", "summary.md", "--collection-complete",
                    "true", "--run-url", "https://github.test/runs/1", "--verbose"},
                   p.dir, github_env());
  INFO(r.err);
  CHECK(r.exit_code == 0);
  CHECK(r.out == "Opened issue #1 \"Benchmark history findings for textproc\" with the findings at 9f2c4a1d3b5e.\n"
                 "https://github.test/octo-org/octo-repo/issues/1\n");
  no_token_printed(r);
  auto st = s.state();
  REQUIRE(st.at("issues").as_array().size() == 1);

  // Without the certificate the stand-in is not trusted: verification cannot be switched off.
  auto untrusted = github_env();
  untrusted["SSL_CERT_FILE"] = std::nullopt;
  r = run_cli({"publish", "history", "--json", "report.json", "--markdown", "summary.md"}, p.dir, untrusted);
  CHECK(r.exit_code == 1);
  CHECK(contains(r.err, "certificate"));
  no_token_printed(r);

  // A rejected token: the message names the variable, never its value.
  s.configure(R"({"token": "another"})");
  r = run_cli({"publish", "history", "--json", "report.json", "--markdown", "summary.md", "--verbose"}, p.dir,
              github_env());
  CHECK(r.exit_code == 1);
  CHECK(contains(r.err, "Error: GitHub rejected the token in GITHUB_TOKEN while listing the open issues of "
                        "octo-org/octo-repo"));
  CHECK(contains(r.err, "caused by: HTTP 401: Bad credentials"));
  no_token_printed(r);
  s.reset();
}

TEST_CASE("publish pr posts pending, then edits the same comment with the result", "[publish][cli]") {
  auto& s = standin();
  s.reset();
  s.seed(R"({"issues": [{"title": "A pull request", "pull_request": true}]})");
  Project p;
  auto r = run_cli({"publish", "pr", "--pr", "1", "--pending", "--run-url", "https://github.test/runs/2"}, p.dir,
                   github_env());
  INFO(r.err);
  CHECK(r.exit_code == 0);
  CHECK(contains(r.out, "Commented on pull request #1 (pending)."));
  auto body = std::string(s.state().at("comments").as_array().at(0).at("body").as_string());
  CHECK(contains(body, "**Pending:** benchmarking commit `abcdefabcdef` for `textproc`"));  // $GITHUB_SHA
  r = run_cli({"publish", "pr", "--pr", "1", "--json", "branch.json", "--markdown", "summary.md",
               "--collection-complete", "true", "--artifact-url", "https://github.test/a/3"},
              p.dir, github_env());
  CHECK(r.exit_code == 0);
  CHECK(contains(r.out, "Updated the benchmark comment on pull request #1 (result)."));
  auto comments = s.state().at("comments").as_array();
  REQUIRE(comments.size() == 1);
  body = std::string(comments.at(0).at("body").as_string());
  CHECK(contains(body, "**Findings** for commit `9f2c4a1d3b5e`: 2 regressions"));
  CHECK(contains(body, "[Download the full report bundle](https://github.test/a/3)"));
  no_token_printed(r);

  // A run that stops before its result replaces the pending promise with "failed", linking the run.
  r = run_cli({"publish", "pr", "--pr", "1", "--pending", "--run-url", "https://github.test/runs/4"}, p.dir,
              github_env());
  CHECK(r.exit_code == 0);
  r = run_cli({"publish", "pr", "--pr", "1", "--failed", "--run-url", "https://github.test/runs/4"}, p.dir,
              github_env());
  INFO(r.err);
  CHECK(r.exit_code == 0);
  CHECK(contains(r.out, "Updated the benchmark comment on pull request #1 (failed)."));
  comments = s.state().at("comments").as_array();
  REQUIRE(comments.size() == 1);
  body = std::string(comments.at(0).at("body").as_string());
  CHECK(contains(body, "**Failed:** the benchmark run for commit `abcdefabcdef` in `textproc` stopped before it "
                       "produced a result"));
  CHECK(contains(body, "[workflow run](https://github.test/runs/4)"));
  CHECK_FALSE(contains(body, "Pending"));

  // In Actions (GITHUB_SERVER_URL set) the commit links to its page; without any commit the
  // body names the pull request's head instead of an "analyzed commit" nobody analyzed.
  auto env = github_env();
  env["GITHUB_SERVER_URL"] = "https://github.test";
  r = run_cli({"publish", "pr", "--pr", "1", "--pending", "--run-url", "https://github.test/runs/5"}, p.dir, env);
  CHECK(r.exit_code == 0);
  body = std::string(s.state().at("comments").as_array().at(0).at("body").as_string());
  CHECK(contains(body, "benchmarking commit [`abcdefabcdef`](https://github.test/octo-org/octo-repo/commit/"
                       "abcdefabcdef0123456789abcdef0123456789ab) for `textproc`"));
  env["GITHUB_SHA"] = std::nullopt;
  r = run_cli({"publish", "pr", "--pr", "1", "--pending", "--run-url", "https://github.test/runs/6"}, p.dir, env);
  CHECK(r.exit_code == 0);
  body = std::string(s.state().at("comments").as_array().at(0).at("body").as_string());
  CHECK(contains(body, "**Pending:** benchmarking this pull request's head for `textproc`"));
}

TEST_CASE("publish refuses a report of another project and arguments that do not fit the target", "[publish][cli]") {
  auto& s = standin();
  s.reset();
  Project p;
  bhtest::write_file(p.dir / "other.json", report_json("other", "clean", "full", 0));
  auto r = run_cli({"publish", "history", "--json", "other.json", "--markdown", "summary.md"}, p.dir, github_env());
  CHECK(r.exit_code == 1);
  CHECK(contains(r.err, "is for project \"other\", but this directory's project id is \"textproc\""));
  CHECK(s.requests().empty());
  // The other mode's report: a branch's tip on the trunk issue, or trunk history on a pull request.
  r = run_cli({"publish", "history", "--json", "branch.json", "--markdown", "summary.md"}, p.dir, github_env());
  CHECK(r.exit_code == 1);
  CHECK(contains(r.err, "is a branch-mode report, but `publish history` publishes history-mode reports"));
  r = run_cli({"publish", "pr", "--pr", "1", "--json", "report.json", "--markdown", "summary.md"}, p.dir, github_env());
  CHECK(r.exit_code == 1);
  CHECK(contains(r.err, "is a history-mode report, but `publish pr` publishes branch-mode reports"));
  CHECK(s.requests().empty());

  const std::vector<std::pair<std::vector<std::string>, std::string>> bad = {
      {{"publish", "history", "--json", "report.json"}, "requires --json <PATH> and --markdown <PATH>"},
      {{"publish", "pr", "--pending"}, "`publish pr` requires --pr <N>"},
      {{"publish", "pr", "--pr", "3"}, "exactly one of --pending, --nothing-benchmarked"},
      {{"publish", "pr", "--pr", "3", "--pending", "--nothing-benchmarked"}, "exactly one of"},
      {{"publish", "pr", "--pr", "3", "--pending", "--failed"}, "exactly one of --pending, --nothing-benchmarked, --failed"},
      {{"publish", "pr", "--pr", "3", "--failed"}, "`publish pr --failed` requires --run-url <URL>"},
      {{"publish", "pr", "--pr", "3", "--pending", "--commit", "not a sha"},
       "invalid value 'not a sha' for '--commit <SHA>': pass the commit's id"},
      {{"publish", "history", "--failed"}, "'--failed' does not apply to `publish history`"},
      {{"publish", "failure"}, "`publish failure` requires --run-url <URL>"},
      {{"publish", "failure", "--run-url", "u", "--pr", "2"}, "'--pr <N>' does not apply to `publish failure`"},
      {{"publish", "history", "--json", "a", "--markdown", "b", "--collection-complete", "yes"},
       "invalid value 'yes' for '--collection-complete <BOOL>'"},
      {{"publish", "everything"}, "invalid value 'everything' for '<TARGET>'"},
  };
  for (const auto& [args, message] : bad) {
    auto u = run_cli(args, p.dir, github_env());
    INFO(u.err);
    CHECK(u.exit_code == 1);
    CHECK(contains(u.err, message));
  }
  CHECK(s.requests().empty());
}
