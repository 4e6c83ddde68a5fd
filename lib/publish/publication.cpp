// The publication rules of the guide's "Read the reports" (docs/github.md "Publication rules").

#include "benchhist/publish/publication.hpp"

#include <algorithm>

#include "benchhist/error.hpp"
#include "benchhist/model/text.hpp"
#include "benchhist/publish/body_fit.hpp"
#include "benchhist/codec/key.hpp"

namespace benchhist::publish {
namespace {

constexpr std::string_view kStatePrefix = "<!-- cargo-bench-history:state=";

// "commit `abc123`", linked to the commit's page when the server is known; `fallback` without a
// commit.
std::string commit_ref(const std::optional<std::string>& commit, const PublicationLinks& links,
                       std::string_view fallback = "the analyzed commit") {
  if (!commit || commit->empty()) return std::string(fallback);
  const std::string shown = "`" + short_id(*commit) + "`";
  if (links.commit_url_base && is_commit_id(*commit)) return "commit [" + shown + "](" + *links.commit_url_base + *commit + ")";
  return "commit " + shown;
}

std::string run_link(const PublicationLinks& l) {
  return l.run_url ? "[workflow run](" + *l.run_url + ")" : std::string();
}

std::string bundle_link(const PublicationLinks& l) {
  if (l.artifact_url) return "[Download the full report bundle](" + *l.artifact_url + ")";
  if (l.run_url) return "the full report bundle is in the [workflow run](" + *l.run_url + ")'s artifacts";
  return {};
}

std::string omission_note(const PublicationLinks& l, Shortening how) {
  std::string where = l.artifact_url ? "in the [report bundle](" + *l.artifact_url + ")"
                      : l.run_url    ? "in the [workflow run](" + *l.run_url + ")'s artifacts"
                                     : std::string("in the workflow run's artifacts");
  const char* what = how == Shortening::whole_sections ? "whole sections of this report were left out"
                                                       : "parts of this report were left out";
  return std::string("> **Shortened:** ") + what + " to fit GitHub's 65,536-character limit. The full report is " +
         where + ".";
}

// prefix + the report shortened to what fits + suffix, within GitHub's limit.
std::string compose(const std::string& prefix, std::string_view markdown, const std::string& suffix,
                    const PublicationLinks& links) {
  const std::size_t frame = prefix.size() + suffix.size();
  const std::size_t budget = frame < github_body_limit ? github_body_limit - frame : 0;
  auto fitted = fit_markdown(markdown, budget, [&](Shortening how) { return omission_note(links, how); });
  return prefix + fitted.text + suffix;
}

// "a · b · c" without empty parts.
std::string dot_joined(std::initializer_list<std::string> parts) {
  std::string out;
  for (const auto& p : parts)
    if (!p.empty()) out += (out.empty() ? "" : " · ") + p;
  return out;
}

// This tool's bodies begin with their marker. One that merely contains it (a person quoting our
// comment, or pasting it into an issue of their own) is a person's text and is never edited.
bool ours(const std::string& body, const std::string& marker) { return body.starts_with(marker); }

// The issue this tool maintains: same title and our marker first; the oldest when an accidental
// duplicate exists, whatever order the API lists. An issue a person opened under the same title
// is left alone (a new one is opened beside it).
const GitHubIssue* find_issue(const std::vector<GitHubIssue>& issues, const std::string& title,
                              const std::string& marker) {
  const GitHubIssue* best = nullptr;
  for (const auto& i : issues)
    if (i.title == title && ours(i.body, marker) && (!best || i.number < best->number)) best = &i;
  return best;
}

enum class IssueState { findings, all_clear, unknown };

// The commit the issue's description shows (`commit=` of its state marker), when it names one.
std::optional<std::string> shown_commit(const std::string& body) {
  const auto at = body.find(kStatePrefix);
  if (at == std::string::npos) return std::nullopt;
  const auto end = body.find(" -->", at);
  const auto key = body.find(" commit=", at);
  if (key == std::string::npos || (end != std::string::npos && key > end)) return std::nullopt;
  const auto from = key + 8;
  const auto to = body.find_first_of(" \n", from);
  std::string c = body.substr(from, to == std::string::npos ? std::string::npos : to - from);
  return is_commit_id(c) ? std::optional<std::string>(std::move(c)) : std::nullopt;
}

IssueState state_of(const std::string& body) {
  auto at = body.find(kStatePrefix);
  if (at == std::string::npos) return IssueState::unknown;
  auto value = std::string_view(body).substr(at + kStatePrefix.size());
  if (value.rfind("all-clear", 0) == 0) return IssueState::all_clear;
  if (value.rfind("findings", 0) == 0) return IssueState::findings;
  return IssueState::unknown;
}

// Whether `shown` is a descendant of `report` on GitHub. Best effort: a token without `contents:
// read`, or a commit GitHub does not know, is no evidence of age, and the report is published.
bool newer_than(GitHubClient& github, const std::string& shown, const std::string& report) {
  try {
    return github.compare(shown, report) == std::optional<std::string>("behind");
  } catch (const Error& e) {
    if (e.kind() == ErrorKind::auth) return false;
    throw;
  }
}

std::string counts(const ReportFacts& f) {
  std::string s = std::to_string(f.regressions) + (f.regressions == 1 ? " regression" : " regressions");
  if (f.improvements) s += ", " + std::to_string(*f.improvements) + (*f.improvements == 1 ? " improvement" : " improvements");
  return s;
}

const char* kIssueFooter =
    "\n---\n_Maintained by cargo-bench-history's history workflow: runs with findings update this description; a "
    "later complete clean report marks it all clear and leaves it open for you to close. Findings are advisory: read "
    "the report's coverage alongside them._\n";

std::string findings_body(const HistoryPublication& p) {
  const auto& f = p.facts;
  std::string prefix = findings_issue_marker(f.project) + "\n" + std::string(kStatePrefix) + "findings commit=" +
                       f.tip_commit + " -->\n" +
                       dot_joined({"**Findings** at " + commit_ref(f.tip_commit, p.links) + ": " + counts(f), run_link(p.links),
                               bundle_link(p.links)}) +
                       "\n\n";
  return compose(prefix, p.markdown, kIssueFooter, p.links);
}

std::string all_clear_body(const HistoryPublication& p) {
  const auto& f = p.facts;
  std::string prefix = findings_issue_marker(f.project) + "\n" + std::string(kStatePrefix) + "all-clear commit=" +
                       f.tip_commit + " -->\n" +
                       dot_joined({"**All clear** since " + commit_ref(f.tip_commit, p.links) +
                                   ": a complete clean report (every in-scope series judged, no reportable move, "
                                   "collection complete on every expected platform). The earlier findings are in "
                                   "this description's edit history",
                               run_link(p.links), bundle_link(p.links)}) +
                       "\n\n";
  return compose(prefix, p.markdown, kIssueFooter, p.links);
}

std::string pr_result_status(const PrPublication& p) {
  const auto& f = *p.facts;
  const auto state = publication_state(f, p.collection_complete);
  switch (state) {
    case PublicationState::findings:
      return "**Findings** for " + commit_ref(f.tip_commit, p.links) + ": " + counts(f) + ". Findings are advisory";
    case PublicationState::clean:
      return "**Clean** for " + commit_ref(f.tip_commit, p.links) +
             ": every in-scope series was judged on every expected platform and no reportable move survived the gates";
    case PublicationState::inconclusive:
      return "**Inconclusive** for " + commit_ref(f.tip_commit, p.links) + ": " + inconclusive_reason(f, p.collection_complete) +
             ". This is not an all-clear";
  }
  return {};
}

}  // namespace

std::string findings_issue_title(std::string_view project) {
  return "Benchmark history findings for " + std::string(project);
}
std::string failure_issue_title(std::string_view project) {
  return "Benchmark history workflow failed for " + std::string(project);
}
std::string findings_issue_marker(std::string_view project) {
  return "<!-- cargo-bench-history:findings-issue project=" + codec::sanitize_segment(project) + " -->";
}
std::string pr_comment_marker(std::string_view project) {
  return "<!-- cargo-bench-history:pr-comment project=" + codec::sanitize_segment(project) + " -->";
}
std::string failure_issue_marker(std::string_view project) {
  return "<!-- cargo-bench-history:failure-issue project=" + codec::sanitize_segment(project) + " -->";
}

PublicationResult publish_history(GitHubClient& github, const HistoryPublication& p) {
  const auto& f = p.facts;
  const auto state = publication_state(f, p.collection_complete);
  const std::string title = findings_issue_title(f.project);
  const auto issues = github.open_issues();
  const GitHubIssue* issue = find_issue(issues, title, findings_issue_marker(f.project));
  const std::string at = " at " + short_id(f.tip_commit);

  // A report for a commit older than the one the issue shows (an earlier push's slower run
  // finishing last, or an old run re-run) must not take the issue back in time: neither
  // "findings again" nor "all clear" would be true of the code on the branch now.
  if (issue && state != PublicationState::inconclusive && is_commit_id(f.tip_commit))
    if (const auto shown = shown_commit(issue->body); shown && *shown != f.tip_commit)
      if (newer_than(github, *shown, f.tip_commit))
        return {"Left issue #" + std::to_string(issue->number) + " unchanged: it shows commit " + short_id(*shown) +
                    ", which is newer than this report's commit " + short_id(f.tip_commit) +
                    " (a run for an older commit finished later).",
                issue->html_url};

  if (state == PublicationState::findings) {
    const std::string body = findings_body(p);
    if (!issue) {
      auto created = github.create_issue(title, body);
      return {"Opened issue #" + std::to_string(created.number) + " \"" + title + "\" with the findings" + at + ".",
              created.html_url};
    }
    const bool was_clear = state_of(issue->body) == IssueState::all_clear;
    auto updated = github.update_issue_body(issue->number, body);
    if (was_clear)
      github.create_comment(issue->number,
                            dot_joined({"**Findings again** at " + commit_ref(f.tip_commit, p.links) + ": " + counts(f) +
                                        ". The description now shows the new report",
                                    run_link(p.links)}) +
                                ".\n");
    return {"Updated issue #" + std::to_string(updated.number) + " with the findings" + at +
                (was_clear ? " (it had been marked all clear; a comment says the findings are back)." : "."),
            updated.html_url};
  }

  if (state == PublicationState::clean) {
    if (!issue)
      return {"The report is clean and no findings issue is open: nothing to publish (a first clean report opens no "
              "issue; the report bundle has it).",
              std::nullopt};
    if (state_of(issue->body) == IssueState::all_clear)
      return {"Issue #" + std::to_string(issue->number) + " is already marked all clear: nothing to publish.",
              issue->html_url};
    github.update_issue_body(issue->number, all_clear_body(p));
    auto comment = github.create_comment(
        issue->number, dot_joined({"**All clear** at " + commit_ref(f.tip_commit, p.links) +
                                   ": a complete clean report — every in-scope series was judged, no reportable move "
                                   "survived the gates, and collection succeeded on every expected platform. This "
                                   "issue stays open until you close it",
                               run_link(p.links), bundle_link(p.links)}) +
                           ".\n");
    return {"Marked issue #" + std::to_string(issue->number) + " all clear" + at + "; it stays open.", comment.html_url};
  }

  const std::string why = inconclusive_reason(f, p.collection_complete);
  if (!issue)
    return {"The report is inconclusive (" + why + "): no issue is opened for it.", std::nullopt};
  return {"Left issue #" + std::to_string(issue->number) + " unchanged: an inconclusive report (" + why +
              ") cannot clear it.",
          issue->html_url};
}

PublicationResult publish_pr(GitHubClient& github, const PrPublication& p) {
  if (p.pull_request == 0)
    throw Error(ErrorKind::usage, "a pull-request number must be at least 1", "--pr", {},
                "pass --pr ${{ github.event.pull_request.number }}");
  const std::string marker = pr_comment_marker(p.project);
  std::string body;
  const std::string head = commit_ref(p.commit, p.links, "this pull request's head");
  // A comment that is only its status line: the marker, the line, the run link.
  const auto status_only = [&](const std::string& status) {
    return marker + "\n" + dot_joined({status, run_link(p.links)}) + ".\n";
  };
  switch (p.kind) {
    case PrPublicationKind::pending:
      body = status_only("**Pending:** benchmarking " + head + " for `" + p.project +
                         "`; this comment is updated with the result when the run finishes");
      break;
    case PrPublicationKind::nothing_benchmarked:
      body = status_only("**Nothing was benchmarked** for " + head + " in `" + p.project +
                         "`: no workspace package with benchmarks is affected by this pull request's changes against "
                         "the merge base with its base branch");
      break;
    case PrPublicationKind::failed:
      body = status_only("**Failed:** the benchmark run for " + head + " in `" + p.project +
                         "` stopped before it produced a result, so there is no verdict for it. The run's log says "
                         "why; the next push benchmarks the pull request again");
      break;
    case PrPublicationKind::result: {
      if (!p.facts)
        throw Error(ErrorKind::usage, "a pull-request result needs the JSON report", "--json", {},
                    "pass --json <report.json> --markdown <summary.md>");
      const std::string prefix =
          marker + "\n" + dot_joined({pr_result_status(p), run_link(p.links), bundle_link(p.links)}) + ".\n\n";
      body = compose(prefix, p.markdown, "", p.links);
      break;
    }
  }
  // A mistyped number must not put the benchmark comment on an unrelated issue: the issues
  // endpoints serve both, so ask which this one is.
  if (const auto target = github.issue(p.pull_request); !target.pull_request)
    throw Error(ErrorKind::usage,
                "#" + std::to_string(p.pull_request) + " of " + github.target().repository() +
                    " is an issue, not a pull request",
                "--pr", {}, "pass the pull request's number: --pr ${{ github.event.pull_request.number }}");
  const auto comments = github.comments(p.pull_request);
  const GitHubComment* mine = nullptr;
  for (const auto& c : comments)  // oldest first: an accidental duplicate never takes over
    if (ours(c.body, marker) && (!mine || c.id < mine->id)) mine = &c;
  const char* what = p.kind == PrPublicationKind::pending              ? "pending"
                     : p.kind == PrPublicationKind::nothing_benchmarked ? "nothing benchmarked"
                     : p.kind == PrPublicationKind::failed              ? "failed"
                                                                        : "result";
  const std::string pr = "#" + std::to_string(p.pull_request);
  if (mine) {
    auto updated = github.update_comment(mine->id, body);
    return {"Updated the benchmark comment on pull request " + pr + " (" + what + ").", updated.html_url};
  }
  auto created = github.create_comment(p.pull_request, body);
  return {"Commented on pull request " + pr + " (" + what + ").", created.html_url};
}

PublicationResult publish_failure(GitHubClient& github, const FailurePublication& p) {
  const std::string title = failure_issue_title(p.project);
  const auto issues = github.open_issues();
  const GitHubIssue* issue = find_issue(issues, title, failure_issue_marker(p.project));
  // "for commit `abc` on `main`", or as much of it as is known.
  std::string where = commit_ref(p.commit, p.links, "");
  if (p.ref && !p.ref->empty()) where += (where.empty() ? "on `" : " on `") + *p.ref + "`";
  if (!where.empty()) where = " for " + where;
  if (issue) {
    auto comment = github.create_comment(
        issue->number, dot_joined({"The benchmark history workflow failed again" + where, run_link(p.links)}) + ".\n");
    return {"Commented on the open failure alert #" + std::to_string(issue->number) + ".", comment.html_url};
  }
  const std::string body =
      failure_issue_marker(p.project) + "\n" +
      dot_joined({"The benchmark history workflow failed" + where, run_link(p.links)}) +
      ".\n\nInspect the failed run and its diagnostics. This alert is about running the workflow, not about benchmark "
      "results. Later successful runs do not close it: close it once the cause is fixed.\n";
  auto created = github.create_issue(title, body);
  return {"Opened failure alert #" + std::to_string(created.number) + " \"" + title + "\".", created.html_url};
}

}  // namespace benchhist::publish
