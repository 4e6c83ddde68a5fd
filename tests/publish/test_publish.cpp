// publish against the loopback GitHub REST stand-in (github_standin.js): the client's
// pagination, retries and error handling, the body size limit, and every row of the guide's
// publication rules (docs/github.md "Publication rules").

#include <catch2/catch.hpp>

#include <chrono>
#include <set>

#include "../report/report_fixtures.hpp"
#include "benchhist/error.hpp"
#include "benchhist/publish/body_fit.hpp"
#include "benchhist/publish/link_header.hpp"
#include "benchhist/publish/publication.hpp"
#include "benchhist/report/json_reporter.hpp"
#include "benchhist/report/summary_reporter.hpp"
#include "standin.hpp"

using namespace benchhist;
using namespace benchhist::publish;
namespace json = boost::json;
using bhtest::standin;

namespace {

const std::string tip_a = "1111111111aaaaaaaaaa2222222222bbbbbbbbbb";
const std::string tip_b = "3333333333cccccccccc4444444444dddddddddd";
const std::string tip_c = "5555555555eeeeeeeeee6666666666ffffffffff";

// An analyze JSON report in the shape of docs/formats.md#report-formats, reduced to what
// publication reads.
std::string report_json(const std::string& outcome, const std::string& coverage, int in_scope, int judged,
                        int regressions, const std::string& tip = tip_a, const std::string& project = "textproc") {
  return "{\n  \"project\": \"" + project + "\",\n  \"tip_commit\": \"" + tip +
         "\",\n  \"tip_dirty\": false,\n  \"mode\": \"history\",\n  \"outcome\": \"" + outcome +
         "\",\n  \"notable\": " + (outcome == "findings" ? "true" : "false") + ",\n  \"runs\": 12,\n  \"series\": " +
         std::to_string(in_scope) + ",\n  \"regressions\": " + std::to_string(regressions) +
         ",\n  \"ghosts_excluded\": 0,\n  \"census\": {\"total\": " + std::to_string(in_scope) +
         ", \"in_scope\": " + std::to_string(in_scope) + ", \"judged\": " + std::to_string(judged) +
         ", \"unjudged\": " + std::to_string(in_scope - judged) + ", \"coverage\": \"" + coverage +
         "\", \"reasons\": []},\n  \"findings\": [],\n  \"sets\": []\n}";
}

ReportFacts facts(const std::string& outcome, const std::string& coverage, int in_scope, int judged, int regressions,
                  const std::string& tip = tip_a) {
  return read_report_facts(report_json(outcome, coverage, in_scope, judged, regressions, tip), "report.json");
}

HistoryPublication history(ReportFacts f, bool complete = true, std::string md = "# Benchmark history analysis: textproc\n\n- Regressions: 1\n") {
  HistoryPublication p;
  p.facts = std::move(f);
  p.markdown = std::move(md);
  p.collection_complete = complete;
  p.links.run_url = "https://github.test/octo-org/octo-repo/actions/runs/77";
  p.links.artifact_url = "https://github.test/octo-org/octo-repo/actions/runs/77/artifacts/5";
  return p;
}

const auto findings_report = [] { return facts("findings", "partial", 8, 5, 2); };
const auto clean_report = [] { return facts("clean", "full", 6, 6, 0, tip_b); };
const auto partial_report = [] { return facts("partial", "partial", 6, 3, 0, tip_c); };

const json::array& issues_in(const json::value& state) { return state.at("issues").as_array(); }
const json::array& comments_in(const json::value& state) { return state.at("comments").as_array(); }

std::vector<json::object> comments_on(const json::value& state, std::int64_t issue) {
  std::vector<json::object> out;
  for (const auto& c : comments_in(state))
    if (c.at("issue").as_int64() == issue) out.push_back(c.as_object());
  return out;
}

std::string str(const json::value& v, const char* k) { return std::string(v.at(k).as_string()); }

std::size_t api_requests() { return standin().requests().size(); }

}  // namespace

// ---- link header, target, body fit ---------------------------------------------------------

TEST_CASE("the next page is the Link header's rel=next target, whatever the order and spelling", "[publish][link]") {
  CHECK(next_page_url("<https://api.github.com/repositories/1/issues?page=2>; rel=\"next\", "
                      "<https://api.github.com/repositories/1/issues?page=5>; rel=\"last\"") ==
        "https://api.github.com/repositories/1/issues?page=2");
  CHECK(next_page_url("<https://h/x?page=1>; rel=\"prev\", <https://h/x?page=3>; rel=\"next\"") == "https://h/x?page=3");
  CHECK(next_page_url("<https://h/x?page=3>;rel=next") == "https://h/x?page=3");
  CHECK(next_page_url("<https://h/x?page=3>; title=\"n\"; rel=\"next last\"") == "https://h/x?page=3");
  CHECK_FALSE(next_page_url("<https://h/x?page=1>; rel=\"first\", <https://h/x?page=1>; rel=\"prev\""));
  CHECK_FALSE(next_page_url(""));
}

TEST_CASE("a missing token or repository fails naming the variable, and the API URL must be https",
          "[publish][target]") {
  probe::MapEnvironment env;
  env.set("GITHUB_REPOSITORY", "octo-org/octo-repo");
  try {
    GitHubTarget::from_environment(env);
    FAIL("no error");
  } catch (const Error& e) {
    CHECK(e.message().find("GITHUB_TOKEN") != std::string::npos);
    CHECK(e.hint().find("github.token") != std::string::npos);
  }
  probe::MapEnvironment env2;
  env2.set("GITHUB_TOKEN", "t");
  try {
    GitHubTarget::from_environment(env2);
    FAIL("no error");
  } catch (const Error& e) {
    CHECK(e.message().find("GITHUB_REPOSITORY") != std::string::npos);
  }
  env2.set("GITHUB_REPOSITORY", "just-a-name");
  CHECK_THROWS_WITH(GitHubTarget::from_environment(env2), Catch::Contains("GITHUB_REPOSITORY \"just-a-name\" is not of the form owner/name"));
  for (const char* dots : {"../octo-repo", "octo-org/..", "./x", "o/."}) {
    env2.set("GITHUB_REPOSITORY", dots);
    CHECK_THROWS_WITH(GitHubTarget::from_environment(env2), Catch::Contains("is not of the form owner/name"));
  }
  env2.set("GITHUB_REPOSITORY", "o/r");
  for (const char* token : {"tok\n", "tok en", "\ttok", "tok\r"}) {
    env2.set("GITHUB_TOKEN", token);
    CHECK_THROWS_WITH(GitHubTarget::from_environment(env2), Catch::Contains("GITHUB_TOKEN contains whitespace"));
  }
  env2.set("GITHUB_TOKEN", "t");
  env2.set("GITHUB_API_URL", "http://github.example/api/v3");
  CHECK_THROWS_WITH(GitHubTarget::from_environment(env2), Catch::Contains("GITHUB_API_URL"));
  env2.set("GITHUB_API_URL", "https://github.example/api/v3/");
  auto t = GitHubTarget::from_environment(env2);
  CHECK(t.api_url == "https://github.example/api/v3");
  CHECK(t.repository_url() == "https://github.example/api/v3/repos/o/r");
  env2.set("GITHUB_API_URL", "");
  CHECK(GitHubTarget::from_environment(env2).api_url == "https://api.github.com");
}

namespace {

// A Markdown report of `sections` sections, each a heading, a paragraph, a table and a chart.
std::string big_report(int sections) {
  std::string md = "# Benchmark history analysis: textproc\n\n- Commit: " + tip_a + "\n- Regressions: " +
                   std::to_string(sections) + "\n";
  for (int s = 0; s < sections; ++s) {
    md += "\n## criterion/x86_64-unknown-linux-gnu/set" + std::to_string(s) + "\n\nSome words about set " +
          std::to_string(s) + ".\n\n| Benchmark | Change |\n| --- | --- |\n";
    for (int r = 0; r < 30; ++r) md += "| bench_" + std::to_string(s) + "_" + std::to_string(r) + " | +12.34% |\n";
    md += "\n```text\n 135 ┤           ╭─╮╭─╮╭╮\n # not a heading inside a fence\n  97 ┼─╯╰─╯ ╰╯\n```\n";
  }
  return md;
}

// Every table row complete and every fence closed.
void check_well_formed(const std::string& md) {
  std::size_t fences = 0;
  std::size_t pos = 0;
  while (pos < md.size()) {
    auto nl = md.find('\n', pos);
    std::string line = md.substr(pos, nl == std::string::npos ? std::string::npos : nl - pos);
    pos = nl == std::string::npos ? md.size() : nl + 1;
    if (line.rfind("```", 0) == 0) ++fences;
    if (!line.empty() && line[0] == '|') {
      INFO(line);
      CHECK(line.back() == '|');
      CHECK(std::count(line.begin(), line.end(), '|') == 3);
    }
  }
  CHECK(fences % 2 == 0);
}

}  // namespace

TEST_CASE("open issues are read across every page through the Link header, pull requests left out",
          "[publish][client]") {
  auto& s = standin();
  s.reset();
  std::string seed = "{\"issues\": [";
  for (int i = 0; i < 250; ++i)
    seed += std::string(i ? "," : "") + "{\"title\": \"issue " + std::to_string(i) + "\", \"pull_request\": " +
            (i % 5 == 0 ? "true" : "false") + ", \"state\": \"" + (i % 7 == 0 ? "closed" : "open") + "\"}";
  seed += "]}";
  s.seed(seed);
  auto github = s.client();
  auto issues = github.open_issues();
  std::size_t expected = 0;
  for (int i = 0; i < 250; ++i)
    if (i % 5 != 0 && i % 7 != 0) ++expected;
  CHECK(issues.size() == expected);
  std::set<std::uint64_t> numbers;
  for (const auto& i : issues) {
    CHECK_FALSE(i.pull_request);
    CHECK(i.state == "open");
    numbers.insert(i.number);
  }
  CHECK(numbers.size() == issues.size());
  const auto log = s.requests();
  // 214 open items (pull requests included) at 100 per page: the first request by repository
  // name, the next ones exactly as the Link header said (/repositories/<id>/…).
  REQUIRE(log.size() == 3);
  CHECK(str(log[0], "url") == "/repos/octo-org/octo-repo/issues?state=open&per_page=100");
  CHECK(str(log[1], "url").rfind("/repositories/4242/issues?", 0) == 0);
  CHECK(str(log[1], "url").find("page=2") != std::string::npos);
  CHECK(str(log[2], "url").find("page=3") != std::string::npos);
}

TEST_CASE("the token travels only in the Authorization header of each request", "[publish][client]") {
  auto& s = standin();
  s.reset();
  auto github = s.client();
  auto issue = github.create_issue("t", "body");
  github.update_issue_body(issue.number, "body 2");
  auto c = github.create_comment(issue.number, "c");
  github.update_comment(c.id, "c2");
  github.comments(issue.number);
  github.open_issues();
  const auto log = s.requests();
  REQUIRE(log.size() == 6);
  for (const auto& r : log) {
    INFO(json::serialize(r));
    CHECK(str(r, "url").find(bhtest::GitHubStandIn::token) == std::string::npos);
    CHECK(str(r, "body").find(bhtest::GitHubStandIn::token) == std::string::npos);
    for (const auto& [name, value] : r.at("headers").as_object()) {
      const std::string v(value.as_string());
      if (name == "authorization") CHECK(v == std::string("Bearer ") + bhtest::GitHubStandIn::token);
      else CHECK(v.find(bhtest::GitHubStandIn::token) == std::string::npos);
    }
    const auto& h = r.at("headers").as_object();
    CHECK(h.at("accept").as_string() == "application/vnd.github+json");
    CHECK(h.at("x-github-api-version").as_string() == "2022-11-28");
    CHECK(std::string(h.at("user-agent").as_string()).rfind("cargo-bench-history/", 0) == 0);
  }
}

TEST_CASE("5xx answers and timeouts are retried with backoff until an answer comes", "[publish][client]") {
  auto& s = standin();
  s.reset();
  s.faults(R"({"rules": [{"path": "/repos/octo-org/octo-repo/issues", "method": "GET", "count": 2, "status": 502},
                         {"path": "/repos/octo-org/octo-repo/issues", "method": "POST", "count": 1, "status": 503, "retry_after": 0},
                         {"path": "/repos/octo-org/octo-repo/issues/1/comments", "count": 1, "hang": true}]})");
  auto github = s.client();
  CHECK(github.open_issues().empty());
  CHECK(api_requests() == 3);
  auto issue = github.create_issue("t", "b");
  CHECK(issue.number == 1);
  CHECK(api_requests() == 5);
  const auto started = std::chrono::steady_clock::now();
  CHECK(github.comments(1).empty());  // the first try hangs until the client's timeout
  CHECK(std::chrono::steady_clock::now() - started >= std::chrono::milliseconds(1000));
  CHECK(api_requests() == 7);
  CHECK(s.state().at("issues").as_array().size() == 1);  // the retried POST created one issue
}

TEST_CASE("retries are bounded: a persistent 5xx fails naming the operation and the attempts", "[publish][client]") {
  auto& s = standin();
  s.reset();
  s.faults(R"({"rules": [{"path": "/repos/", "count": 100, "status": 500}]})");
  auto github = s.client(3);
  try {
    github.open_issues();
    FAIL("no error");
  } catch (const Error& e) {
    CHECK(e.kind() == ErrorKind::network);
    CHECK(e.message() == "listing the open issues of octo-org/octo-repo failed after 3 attempts");
    CHECK(e.cause().find("HTTP 500") != std::string::npos);
  }
  CHECK(api_requests() == 3);
}

TEST_CASE("a rate limit is told apart from a permission problem: waited out when short, named when long",
          "[publish][client]") {
  auto& s = standin();
  s.reset();
  s.seed(R"({"issues": [{"title": "existing"}]})");
  const auto epoch = [](int from_now) {
    return std::to_string(std::chrono::duration_cast<std::chrono::seconds>(
                              std::chrono::system_clock::now().time_since_epoch())
                              .count() +
                          from_now);
  };
  GitHubClientOptions patient;
  patient.retry.max_attempts = 3;
  patient.retry.max_delay = std::chrono::seconds(5);
  std::vector<std::chrono::milliseconds> waits;
  patient.retry.sleep = [&](std::chrono::milliseconds d) { waits.push_back(d); };
  GitHubClient github(GitHubTarget::from_environment(s.env()), s.http(), patient);
  // The primary limit, lifting in about a second: waited out (not blamed on permissions), then served.
  s.faults(R"({"rules": [{"method": "GET", "path": "/repos/octo-org/octo-repo/issues", "count": 1, "status": 403,
                          "headers": {"x-ratelimit-remaining": "0", "x-ratelimit-reset": ")" +
           epoch(1) + R"("}}]})");
  CHECK(github.open_issues().size() == 1);
  REQUIRE(waits.size() == 1);
  CHECK(waits[0] >= std::chrono::milliseconds(1000));
  CHECK(api_requests() == 2);
  // Lifting in an hour: one request, an error naming the rate limit, not the job's permissions.
  s.reset();
  s.faults(R"({"rules": [{"count": 1, "status": 403, "headers": {"x-ratelimit-remaining": "0", "x-ratelimit-reset": ")" +
           epoch(3600) + R"("}}]})");
  try {
    github.open_issues();
    FAIL("no error");
  } catch (const Error& e) {
    CHECK(e.kind() == ErrorKind::network);
    CHECK(e.message().find("GitHub's API rate limit for this token stopped listing the open issues") != std::string::npos);
    CHECK(e.message().find("it lifts in 360") != std::string::npos);
    CHECK(e.hint().find("after the limit lifts") != std::string::npos);
    CHECK(e.hint().find("issues: write") == std::string::npos);
  }
  CHECK(api_requests() == 1);
  // A secondary limit (429, Retry-After beyond the cap): no futile retries within the cap.
  s.reset();
  s.faults(R"({"rules": [{"count": 1, "status": 429, "retry_after": 120}]})");
  CHECK_THROWS_WITH(github.open_issues(), Catch::Contains("rate limit for this token stopped") &&
                                              Catch::Contains("it lifts in 120 s"));
  CHECK(api_requests() == 1);
  s.reset();
}

TEST_CASE("401, 403, 404 and 422 are final answers: one request each, an error saying what to do",
          "[publish][client]") {
  auto& s = standin();
  s.reset();
  s.seed(R"({"issues": [{"title": "existing"}]})");
  {
    auto github = s.client();
    try {
      github.comments(99);
      FAIL("no error");
    } catch (const Error& e) {
      CHECK(e.kind() == ErrorKind::not_found);
      CHECK(e.message().find("/repos/octo-org/octo-repo/issues/99/comments") != std::string::npos);
      CHECK(e.hint().find("GITHUB_REPOSITORY") != std::string::npos);
    }
    CHECK(api_requests() == 1);
    try {
      github.create_comment(1, std::string(70000, 'x'));
      FAIL("no error");
    } catch (const Error& e) {
      CHECK(e.kind() == ErrorKind::usage);
      CHECK(e.cause().find("body is too long (maximum is 65536 characters)") != std::string::npos);
    }
    CHECK(api_requests() == 2);
  }
  s.configure(R"({"read_only": true})");
  try {
    s.client().create_issue("x", "y");
    FAIL("no error");
  } catch (const Error& e) {
    CHECK(e.kind() == ErrorKind::auth);
    CHECK(e.cause().find("Resource not accessible by integration") != std::string::npos);
    CHECK(e.hint().find("issues: write") != std::string::npos);
  }
  CHECK(api_requests() == 3);
  s.configure(R"({"read_only": false, "token": "a-different-token"})");
  try {
    s.client().open_issues();
    FAIL("no error");
  } catch (const Error& e) {
    CHECK(e.kind() == ErrorKind::auth);
    CHECK(e.message().find("GITHUB_TOKEN") != std::string::npos);
    CHECK(std::string(e.what()).find(bhtest::GitHubStandIn::token) == std::string::npos);
  }
  CHECK(api_requests() == 4);
  s.reset();
}

// ---- history: the rolling findings issue ---------------------------------------------------

TEST_CASE("a first clean or inconclusive history report opens nothing", "[publish][history]") {
  auto& s = standin();
  s.reset();
  auto github = s.client();
  auto clean = publish_history(github, history(clean_report()));
  CHECK(clean.message.find("nothing to publish") != std::string::npos);
  auto partial = publish_history(github, history(partial_report()));
  CHECK(partial.message.find("inconclusive") != std::string::npos);
  auto first_runs = publish_history(github, history(facts("insufficient_baseline", "nothing_judged", 6, 0, 0)));
  CHECK(first_runs.message.find("not enough comparable history") != std::string::npos);
  CHECK(issues_in(s.state()).empty());
  CHECK(comments_in(s.state()).empty());
}

TEST_CASE("findings open the rolling issue once and update it afterwards", "[publish][history]") {
  auto& s = standin();
  s.reset();
  auto github = s.client();
  auto first = publish_history(github, history(findings_report()));
  CHECK(first.message == "Opened issue #1 \"Benchmark history findings for textproc\" with the findings at 1111111111aa.");
  auto st = s.state();
  REQUIRE(issues_in(st).size() == 1);
  const auto& issue = issues_in(st)[0];
  CHECK(str(issue, "title") == "Benchmark history findings for textproc");
  CHECK(str(issue, "body").rfind(findings_issue_marker("textproc") + "\n", 0) == 0);
  CHECK(str(issue, "body").find("**Findings** at commit `1111111111aa`: 2 regressions") != std::string::npos);
  CHECK(str(issue, "body").find("[Download the full report bundle](https://github.test/") != std::string::npos);
  CHECK(str(issue, "body").find("# Benchmark history analysis: textproc") != std::string::npos);

  auto again = publish_history(github, history(facts("findings", "partial", 8, 5, 3, tip_b)));
  CHECK(again.message == "Updated issue #1 with the findings at 3333333333cc.");
  st = s.state();
  REQUIRE(issues_in(st).size() == 1);
  CHECK(issues_in(st)[0].at("edits").as_int64() == 1);
  CHECK(str(issues_in(st)[0], "body").find("3 regressions") != std::string::npos);
  CHECK(comments_in(st).empty());
}

TEST_CASE("a later complete clean report marks the issue all clear with a comment and leaves it open",
          "[publish][history]") {
  auto& s = standin();
  s.reset();
  auto github = s.client();
  publish_history(github, history(findings_report()));
  auto clear = publish_history(github, history(clean_report()));
  CHECK(clear.message == "Marked issue #1 all clear at 3333333333cc; it stays open.");
  auto st = s.state();
  REQUIRE(issues_in(st).size() == 1);
  CHECK(str(issues_in(st)[0], "state") == "open");
  CHECK(str(issues_in(st)[0], "body").find("**All clear** since commit `3333333333cc`") != std::string::npos);
  auto c = comments_on(st, 1);
  REQUIRE(c.size() == 1);
  CHECK(std::string(c[0].at("body").as_string()).rfind("**All clear** at commit `3333333333cc`", 0) == 0);

  // Another clean report: already clear, nothing more is written.
  auto still = publish_history(github, history(clean_report()));
  CHECK(still.message == "Issue #1 is already marked all clear: nothing to publish.");
  CHECK(comments_on(s.state(), 1).size() == 1);

  // Findings come back: the description shows them and a comment says so.
  auto back = publish_history(github, history(facts("findings", "full", 6, 6, 1, tip_c)));
  CHECK(back.message.find("Updated issue #1 with the findings at 5555555555ee") == 0);
  st = s.state();
  CHECK(str(issues_in(st)[0], "body").find("**Findings** at commit `5555555555ee`: 1 regression") != std::string::npos);
  c = comments_on(st, 1);
  REQUIRE(c.size() == 2);
  CHECK(std::string(c[1].at("body").as_string()).rfind("**Findings again** at commit `5555555555ee`", 0) == 0);
}

TEST_CASE("a report for a commit older than the one the issue shows leaves the issue alone", "[publish][history]") {
  auto& s = standin();
  s.reset();
  s.configure("{\"history\": [\"" + tip_a + "\", \"" + tip_b + "\", \"" + tip_c + "\"]}");
  auto github = s.client();
  publish_history(github, history(facts("findings", "partial", 8, 5, 2, tip_c)));
  // The clean run of an earlier push finishes last: it must not mark the newer findings all clear.
  auto stale_clean = publish_history(github, history(clean_report()));
  CHECK(stale_clean.message == "Left issue #1 unchanged: it shows commit 5555555555ee, which is newer than this "
                               "report's commit 3333333333cc (a run for an older commit finished later).");
  auto st = s.state();
  CHECK(issues_in(st)[0].at("edits").as_int64() == 0);
  CHECK(comments_in(st).empty());
  // A clean report of the newest commit clears it; stale findings then do not say "findings again".
  publish_history(github, history(facts("clean", "full", 6, 6, 0, tip_c)));
  CHECK(str(issues_in(s.state())[0], "body").find("**All clear**") != std::string::npos);
  auto stale_findings = publish_history(github, history(facts("findings", "partial", 8, 5, 2, tip_a)));
  CHECK(stale_findings.message.rfind("Left issue #1 unchanged: it shows commit 5555555555ee", 0) == 0);
  st = s.state();
  CHECK(str(issues_in(st)[0], "body").find("**All clear**") != std::string::npos);
  CHECK(comments_in(st).size() == 1);
  // A commit GitHub does not know (compare answers 404) is no evidence of age: the report is published.
  s.configure(R"({"history": []})");
  auto unknown = publish_history(github, history(facts("findings", "partial", 8, 5, 2, tip_a)));
  CHECK(unknown.message.rfind("Updated issue #1 with the findings at 1111111111aa", 0) == 0);
}

TEST_CASE("a body cut inside a section says parts of the report, not whole sections, were left out",
          "[publish][history][size]") {
  auto& s = standin();
  s.reset();
  auto github = s.client();
  std::string md = "# Benchmark history analysis: textproc\n\n| Benchmark | Change |\n| --- | --- |\n";
  for (int r = 0; r < 5000; ++r) md += "| bench_" + std::to_string(r) + " | +12.34% |\n";
  publish_history(github, history(findings_report(), true, md));
  const auto body = str(issues_in(s.state())[0], "body");
  CHECK(body.size() <= github_body_limit);
  CHECK(body.find("> **Shortened:** parts of this report were left out to fit GitHub's 65,536-character limit. "
                  "The full report is in the [report bundle](") != std::string::npos);
  CHECK(body.find("whole sections") == std::string::npos);
  check_well_formed(body);
}

TEST_CASE("an inconclusive report never clears the issue, nor does a clean one with a platform missing",
          "[publish][history]") {
  auto& s = standin();
  s.reset();
  auto github = s.client();
  publish_history(github, history(findings_report()));
  const auto before = str(issues_in(s.state())[0], "body");
  for (auto f : {partial_report(), facts("insufficient_baseline", "nothing_judged", 6, 0, 0),
                 facts("nothing_in_scope", "nothing_in_scope", 0, 0, 0)}) {
    auto r = publish_history(github, history(f));
    CHECK(r.message.rfind("Left issue #1 unchanged: an inconclusive report", 0) == 0);
  }
  auto incomplete = publish_history(github, history(clean_report(), /*complete=*/false));
  CHECK(incomplete.message.find("collection was not confirmed complete on every expected platform") != std::string::npos);
  auto st = s.state();
  CHECK(str(issues_in(st)[0], "body") == before);
  CHECK(issues_in(st)[0].at("edits").as_int64() == 0);
  CHECK(comments_in(st).empty());
}

TEST_CASE("the rolling issue is found by exact title and our marker among open issues only, on any page",
          "[publish][history]") {
  auto& s = standin();
  s.reset();
  const std::string title = "Benchmark history findings for textproc";
  const std::string marker = findings_issue_marker("textproc");
  // A closed old findings issue, a pull request with the same title, another project's issue, a
  // person's issue under the same title, one quoting our marker, and enough noise to push ours onto a
  // later page.
  std::string seed = R"({"issues": [{"title": "Benchmark history findings for textproc", "state": "closed", "body": ")" +
                     marker + R"("},
                                    {"title": "Benchmark history findings for textproc", "pull_request": true, "body": ")" +
                     marker + R"("},
                                    {"title": "Benchmark history findings for textproc-2"})";
  seed += R"(, {"title": "Benchmark history findings for textproc", "body": "Tracking: parse got slower on my laptop"})";
  seed += R"(, {"title": "Benchmark history findings for textproc", "body": "> )" + marker + R"(\n> quoted by alice"})";
  for (int i = 0; i < 230; ++i) seed += ", {\"title\": \"noise " + std::to_string(i) + "\"}";
  seed += R"(, {"title": "Benchmark history findings for textproc", "body": ")" + marker + R"(\nolder findings"})";
  seed += "]}";
  s.seed(seed);
  auto github = s.client();
  auto r = publish_history(github, history(findings_report()));
  CHECK(r.message == "Updated issue #236 with the findings at 1111111111aa.");
  auto st = s.state();
  CHECK(issues_in(st).size() == 236);
  for (const auto& i : issues_in(st))
    if (i.at("number").as_int64() != 236) CHECK(i.at("edits").as_int64() == 0);

  // Without ours, a person's issue under the same title is not adopted: a new one is opened.
  s.reset();
  s.seed(R"({"issues": [{"title": "Benchmark history findings for textproc", "body": "Tracking: parse got slower"},
                        {"title": "Benchmark history findings for textproc", "body": "> )" +
         marker + R"(\n> quoted"}]})");
  auto opened = publish_history(github, history(findings_report()));
  CHECK(opened.message == "Opened issue #3 \"" + title + "\" with the findings at 1111111111aa.");
  st = s.state();
  REQUIRE(issues_in(st).size() == 3);
  CHECK(issues_in(st)[0].at("edits").as_int64() == 0);
  CHECK(issues_in(st)[1].at("edits").as_int64() == 0);
  CHECK(str(issues_in(st)[0], "body") == "Tracking: parse got slower");
}

TEST_CASE("an issue body too long for GitHub is shortened by whole sections with a pointer to the bundle",
          "[publish][history][size]") {
  auto& s = standin();
  s.reset();
  auto github = s.client();
  auto r = publish_history(github, history(findings_report(), true, big_report(300)));  // ~500 KB of Markdown
  CHECK(r.message.rfind("Opened issue #1", 0) == 0);
  const auto body = str(issues_in(s.state())[0], "body");
  CHECK(body.size() <= github_body_limit);
  CHECK(body.size() > github_body_limit - 4000);  // not needlessly short
  CHECK(body.find("> **Shortened:** whole sections of this report were left out to fit GitHub's 65,536-character "
                  "limit. The full report is in the [report bundle](https://github.test/octo-org/octo-repo/actions/"
                  "runs/77/artifacts/5).") != std::string::npos);
  CHECK(body.find("_Maintained by cargo-bench-history") != std::string::npos);  // the footer survives
  check_well_formed(body);
}

// ---- pr: one comment, edited in place --------------------------------------------------------

namespace {

PrPublication pr_publication(PrPublicationKind kind, const std::string& commit) {
  PrPublication p;
  p.project = "textproc";
  p.pull_request = 7;
  p.kind = kind;
  p.commit = commit;
  p.links.run_url = "https://github.test/octo-org/octo-repo/actions/runs/" + commit.substr(0, 4);
  return p;
}

PrPublication pr_result(ReportFacts f, std::string md, bool complete = true) {
  auto p = pr_publication(PrPublicationKind::result, f.tip_commit);
  p.facts = std::move(f);
  p.markdown = std::move(md);
  p.collection_complete = complete;
  p.links.artifact_url = "https://github.test/artifacts/" + p.facts->tip_commit.substr(0, 4);
  return p;
}

}  // namespace

TEST_CASE("three pushes edit the one pull-request comment in place: pending, then the result, each time",
          "[publish][pr]") {
  auto& s = standin();
  s.reset();
  auto seeded = s.seed(R"({"issues": [{"title": "Add a faster parser", "pull_request": true},
                                      {"title": "unrelated"},
                                      {"title": "Speed up", "pull_request": true},
                                      {"title": "Another", "pull_request": true},
                                      {"title": "x"}, {"title": "x"}, {"title": "Seventh", "pull_request": true}]})");
  // Other people's comments (and another project's marker) around ours, across two pages.
  std::string seed = "{\"comments\": [";
  for (int i = 0; i < 120; ++i)
    seed += std::string(i ? "," : "") + "{\"issue\": 7, \"body\": \"review note " + std::to_string(i) + "\"}";
  seed += ", {\"issue\": 7, \"body\": \"" + pr_comment_marker("other-project") + "\\nsomeone else's\"}";
  // A person quoting our comment: it carries our marker, but not as its first line.
  seed += ", {\"issue\": 7, \"body\": \"> " + pr_comment_marker("textproc") + "\\n> **Pending** ...\\nWhy so long?\"}]}";
  s.seed(seed);
  auto github = s.client();

  const std::vector<std::pair<std::string, ReportFacts>> pushes = {
      {tip_a, facts("findings", "partial", 8, 5, 2, tip_a)},
      {tip_b, facts("clean", "full", 6, 6, 0, tip_b)},
      {tip_c, facts("partial", "partial", 6, 3, 0, tip_c)}};
  std::optional<std::int64_t> our_id;
  for (std::size_t k = 0; k < pushes.size(); ++k) {
    const auto& [commit, f] = pushes[k];
    auto pending = publish_pr(github, pr_publication(PrPublicationKind::pending, commit));
    CHECK(pending.message == (k == 0 ? "Commented on pull request #7 (pending)."
                                     : "Updated the benchmark comment on pull request #7 (pending)."));
    auto result = publish_pr(github, pr_result(f, "# Benchmark history analysis: textproc\n\nreport " + commit + "\n"));
    CHECK(result.message == "Updated the benchmark comment on pull request #7 (result).");
    auto ours = comments_on(s.state(), 7);
    REQUIRE(ours.size() == 123);
    const auto& mine = ours.back();
    if (!our_id) our_id = mine.at("id").as_int64();
    CHECK(mine.at("id").as_int64() == *our_id);
    CHECK(mine.at("edits").as_int64() == static_cast<std::int64_t>(2 * k + 1));
    const std::string body(mine.at("body").as_string());
    CHECK(body.rfind(pr_comment_marker("textproc") + "\n", 0) == 0);
    CHECK(body.find("report " + commit) != std::string::npos);
    CHECK(body.find("[Download the full report bundle](https://github.test/artifacts/" + commit.substr(0, 4) + ")") !=
          std::string::npos);
  }
  const std::string last(comments_on(s.state(), 7).back().at("body").as_string());
  CHECK(last.find("**Inconclusive** for commit `5555555555ee`: only 3 of 6 in-scope series could be judged. This is not "
                  "an all-clear") != std::string::npos);
  // Nobody else's comment was touched.
  for (const auto& c : comments_on(s.state(), 7))
    if (c.at("id").as_int64() != *our_id) CHECK(c.at("edits").as_int64() == 0);
  (void)seeded;
}

TEST_CASE("clean, inconclusive and nothing-benchmarked results are commented too", "[publish][pr]") {
  auto& s = standin();
  s.reset();
  s.seed(R"({"issues": [{"title": "1"}, {"title": "2"}, {"title": "3"}, {"title": "4"}, {"title": "5"}, {"title": "6"},
                        {"title": "PR", "pull_request": true}]})");
  auto github = s.client();
  publish_pr(github, pr_result(clean_report(), "clean report\n"));
  auto body = std::string(comments_on(s.state(), 7).at(0).at("body").as_string());
  CHECK(body.find("**Clean** for commit `3333333333cc`: every in-scope series was judged on every expected platform") !=
        std::string::npos);
  publish_pr(github, pr_result(clean_report(), "clean report\n", /*complete=*/false));
  body = std::string(comments_on(s.state(), 7).at(0).at("body").as_string());
  CHECK(body.find("**Inconclusive** for commit `3333333333cc`: collection was not confirmed complete") != std::string::npos);
  publish_pr(github, pr_publication(PrPublicationKind::nothing_benchmarked, tip_a));
  auto ours = comments_on(s.state(), 7);
  REQUIRE(ours.size() == 1);
  body = std::string(ours[0].at("body").as_string());
  CHECK(body.find("**Nothing was benchmarked** for commit `1111111111aa` in `textproc`: no workspace package with "
                  "benchmarks is affected") != std::string::npos);
}

TEST_CASE("a pull request that does not exist is a 404 naming it, with no retry", "[publish][pr]") {
  auto& s = standin();
  s.reset();
  auto github = s.client();
  CHECK_THROWS_WITH(publish_pr(github, pr_publication(PrPublicationKind::pending, tip_a)),
                    Catch::Contains("GitHub found nothing at /repos/octo-org/octo-repo/issues/7 "));
  CHECK(api_requests() == 1);
  // A plain issue under that number is refused before anything is written on it.
  s.seed(R"({"issues": [{"title": "1"}, {"title": "2"}, {"title": "3"}, {"title": "4"}, {"title": "5"}, {"title": "6"},
                        {"title": "a plain issue"}]})");
  CHECK_THROWS_WITH(publish_pr(github, pr_publication(PrPublicationKind::pending, tip_a)),
                    Catch::Contains("#7 of octo-org/octo-repo is an issue, not a pull request"));
  CHECK(s.state().at("comments").as_array().empty());
}

// ---- failure alerts --------------------------------------------------------------------------

TEST_CASE("a failed run opens the failure alert or comments on the open one; successes never close it",
          "[publish][failure]") {
  auto& s = standin();
  s.reset();
  auto github = s.client();
  FailurePublication f;
  f.project = "textproc";
  f.commit = tip_a;
  f.ref = "main";
  f.links.run_url = "https://github.test/octo-org/octo-repo/actions/runs/90";
  auto first = publish_failure(github, f);
  CHECK(first.message == "Opened failure alert #1 \"Benchmark history workflow failed for textproc\".");
  auto st = s.state();
  REQUIRE(issues_in(st).size() == 1);
  CHECK(str(issues_in(st)[0], "body").find("The benchmark history workflow failed for commit `1111111111aa` on `main` · "
                                           "[workflow run](https://github.test/octo-org/octo-repo/actions/runs/90).") !=
        std::string::npos);
  f.links.run_url = "https://github.test/octo-org/octo-repo/actions/runs/91";
  auto second = publish_failure(github, f);
  CHECK(second.message == "Commented on the open failure alert #1.");
  // Successful history runs afterwards, clean and with findings: the alert stays open, untouched.
  publish_history(github, history(findings_report()));
  publish_history(github, history(clean_report()));
  st = s.state();
  REQUIRE(issues_in(st).size() == 2);
  CHECK(str(issues_in(st)[0], "state") == "open");
  CHECK(issues_in(st)[0].at("edits").as_int64() == 0);
  CHECK(comments_on(st, 1).size() == 1);
}

// ---- the real reporters' output reads back -------------------------------------------------

TEST_CASE("the JSON the analyze reporter writes is what publication reads", "[publish][facts]") {
  auto findings = read_report_facts(report::JsonReporter().render(report_test::seed_findings_report()), "r.json");
  CHECK(findings.project == "textproc");
  CHECK(findings.tip_commit == report_test::tip);
  CHECK(findings.outcome == benchhist::Outcome::findings);
  CHECK(findings.regressions == 2);
  CHECK(findings.in_scope == 8);
  CHECK(findings.judged == 5);
  CHECK(publication_state(findings, false) == PublicationState::findings);
  auto silent = read_report_facts(report::JsonReporter().render(report_test::seed_silent_report()), "r.json");
  CHECK(silent.outcome == benchhist::Outcome::partial);
  CHECK(publication_state(silent, true) == PublicationState::inconclusive);
  CHECK_THROWS_WITH(read_report_facts("{\"project\": \"x\"}", "bad.json"),
                    Catch::Contains("bad.json is not an analyze JSON report"));
  // The condensed summary starts with the report heading the comment shows.
  CHECK(report::SummaryReporter().render(report_test::seed_findings_report()).rfind("# Benchmark history analysis: textproc", 0) == 0);
}
