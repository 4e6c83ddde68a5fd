#pragma once
// The GitHub REST calls publication needs: open issues of the repository, an issue's comments
// (both paginated through the Link header, never the search API, which is rate-limited and
// lags behind writes), and creating and editing issues and comments. Requests carry
// `Authorization: Bearer <token>` (the only place the token appears), `Accept:
// application/vnd.github+json`, `X-GitHub-Api-Version: 2022-11-28` and a User-Agent, and go
// over the verified-TLS client of https/client.hpp.
//
// Retries: connection failures, timeouts and 408/429/5xx are retried with the bounded
// exponential backoff of https/retry.hpp (Retry-After honoured, capped). 401, 403, 404 and 422
// — and every other status — are final: they are answers, not accidents. Error messages name
// the operation and the repository; server text in them has the token redacted.

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "benchhist/https/client.hpp"
#include "benchhist/https/retry.hpp"
#include "benchhist/publish/github_target.hpp"

namespace benchhist::publish {

inline constexpr const char* github_api_version = "2022-11-28";

struct GitHubIssue {
  std::uint64_t number = 0;
  std::string title;
  std::string body;
  std::string state;     // `open` or `closed`
  std::string html_url;
  bool pull_request = false;  // the issues endpoints list pull requests too
};

struct GitHubComment {
  std::uint64_t id = 0;
  std::string body;
  std::string html_url;
};

struct GitHubClientOptions {
  https::RetryPolicy retry;    // transient failures only
  std::size_t per_page = 100;  // GitHub's maximum
  std::size_t max_pages = 200; // a runaway pagination chain is an error, not a hang
};

// Not thread-safe (one publication runs at a time); the HTTP client underneath is.
class GitHubClient {
 public:
  GitHubClient(GitHubTarget target, std::shared_ptr<https::HttpClient> http, GitHubClientOptions options = {});

  const GitHubTarget& target() const noexcept { return target_; }

  // Every call below throws Error{auth} for HTTP 401/403, Error{not_found} for 404, Error{usage}
  // for 422, Error{network} for other statuses, failed retries or a runaway pagination,
  // Error{decode} for an unexpected JSON answer, Error{config} when TLS verification fails;
  // the subject is the request path.
  // Every open issue of the repository, pull requests excluded, in GitHub's order (newest
  // first). GET /repos/{owner}/{repo}/issues?state=open, all pages.
  std::vector<GitHubIssue> open_issues();
  // POST /repos/{owner}/{repo}/issues.
  GitHubIssue create_issue(std::string_view title, std::string_view body);
  // PATCH /repos/{owner}/{repo}/issues/{number} with a new body (the state is left alone).
  GitHubIssue update_issue_body(std::uint64_t number, std::string_view body);
  // GET /repos/{owner}/{repo}/issues/{number}/comments, all pages, oldest first. A pull
  // request's conversation comments are its issue comments.
  std::vector<GitHubComment> comments(std::uint64_t issue_number);
  // POST /repos/{owner}/{repo}/issues/{number}/comments.
  GitHubComment create_comment(std::uint64_t issue_number, std::string_view body);
  // PATCH /repos/{owner}/{repo}/issues/comments/{comment_id}.
  GitHubComment update_comment(std::uint64_t comment_id, std::string_view body);
  // GET /repos/{owner}/{repo}/issues/{number}: an issue or a pull request (`pull_request` set).
  GitHubIssue issue(std::uint64_t number);
  // GET /repos/{owner}/{repo}/compare/{base}...{head}: how head relates to base — `ahead`,
  // `behind`, `identical` or `diverged`; nullopt when GitHub does not know one of the commits
  // (404: not pushed, or rewritten away).
  std::optional<std::string> compare(std::string_view base, std::string_view head);

  // HTTP exchanges made so far (every try of every call).
  std::size_t exchanges() const noexcept { return exchanges_; }

 private:
  struct Reply;
  Reply call(const std::string& method, const std::string& url, std::string_view body, const std::string& what);
  std::vector<std::string> get_pages(const std::string& first_url, const std::string& what);
  std::string redact(std::string text) const;

  GitHubTarget target_;
  std::shared_ptr<https::HttpClient> http_;
  GitHubClientOptions options_;
  std::size_t exchanges_ = 0;
};

}  // namespace benchhist::publish
