#pragma once
// The guide's publication rules ("GitHub automation" → "Read the reports"), as library calls
// over GitHubClient (docs/github.md has the full table):
//
// * history — only findings open the rolling issue `Benchmark history findings for <project>`;
//   later findings update its description (and say so in a comment when it had been marked all
//   clear); a later *complete* clean report marks it all clear with a comment and leaves it
//   open; an inconclusive report never clears it; a first clean or inconclusive report opens
//   nothing.
// * pr — one comment per pull request and project, found again by a hidden marker, posted as
//   pending and edited in place with the result (findings, clean or inconclusive alike), with
//   the "nothing was benchmarked" explanation, or with "the run failed" when it stopped first.
// * failure — opens `Benchmark history workflow failed for <project>`, or comments on the open
//   one; nothing here ever closes it.
//
// Every body fits GitHub's 65,536-character limit (body_fit.hpp) and points at the run and the
// report bundle when their URLs are given.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "benchhist/publish/github_client.hpp"
#include "benchhist/publish/report_facts.hpp"

namespace benchhist::publish {

struct PublicationLinks {
  std::optional<std::string> run_url;       // the workflow run
  std::optional<std::string> artifact_url;  // the report bundle (falls back to the run)
  // `<server>/<owner>/<name>/commit/`: commits in the bodies link to their page (a code span
  // alone is not linked by GitHub). Unset: shown, not linked.
  std::optional<std::string> commit_url_base;
};

struct HistoryPublication {
  ReportFacts facts;        // from the JSON report; facts.project names the issue
  std::string markdown;     // the report shown in the issue (the workflows pass the summary)
  bool collection_complete = false;  // every expected platform collected
  PublicationLinks links;
};

// `failed`: the run stopped before it produced a result (the workflow's failure step), so the
// pending comment does not promise a result that never comes.
enum class PrPublicationKind { pending, nothing_benchmarked, result, failed };

struct PrPublication {
  std::string project;          // raw project id (the marker and heading)
  std::uint64_t pull_request = 0;
  PrPublicationKind kind = PrPublicationKind::pending;
  std::optional<std::string> commit;  // the head commit (pending / nothing benchmarked / failed)
  std::optional<ReportFacts> facts;   // result only
  std::string markdown;               // result only
  bool collection_complete = false;   // result only
  PublicationLinks links;
};

struct FailurePublication {
  std::string project;
  std::optional<std::string> commit;  // the commit the failed run was for
  std::optional<std::string> ref;     // its branch or ref name
  PublicationLinks links;
};

struct PublicationResult {
  std::string message;              // one line for stdout, e.g. `Opened issue #12 …`
  std::optional<std::string> url;   // the issue or comment written, when one was
};

// `Benchmark history findings for <project>` / `Benchmark history workflow failed for <project>`.
std::string findings_issue_title(std::string_view project);
std::string failure_issue_title(std::string_view project);
// The hidden first line that identifies this tool's bodies (project sanitized like a key
// segment, so any project id is safe inside an HTML comment).
std::string findings_issue_marker(std::string_view project);
std::string pr_comment_marker(std::string_view project);
std::string failure_issue_marker(std::string_view project);

// Each throws what the GitHubClient calls throw (auth, not_found, usage, network, decode, config);
// publish_pr also Error{usage} (subject --pr / --json) for a pull-request number 0 or a result
// without facts.
PublicationResult publish_history(GitHubClient& github, const HistoryPublication& publication);
PublicationResult publish_pr(GitHubClient& github, const PrPublication& publication);
PublicationResult publish_failure(GitHubClient& github, const FailurePublication& publication);

}  // namespace benchhist::publish
