// GitHub REST calls for publication (docs/github.md): issues and issue comments, Link-header
// pagination, bounded retries of transient failures only.

#include "benchhist/publish/github_client.hpp"

#include <boost/json.hpp>

#include <random>

#include "benchhist/codec/json_writer.hpp"
#include "benchhist/error.hpp"
#include "benchhist/publish/link_header.hpp"
#include "benchhist/version.hpp"

namespace benchhist::publish {

struct GitHubClient::Reply {
  int status = 0;
  std::string body;
  https::HeaderList headers;
  int attempts = 0;

  std::optional<std::string> header(std::string_view name) const {
    for (const auto& [k, v] : headers)
      if (https::iequals(k, name)) return v;
    return std::nullopt;
  }
};

namespace {

std::string path_of(const std::string& url) {
  try {
    auto u = https::Url::parse(url);
    return u.target.substr(0, u.target.find('?'));
  } catch (const Error&) {
    return url;
  }
}

// GitHub's error document: {"message": "...", "errors": [{"message": "..."} | {"code": ...}]}.
std::string service_message(const std::string& body) {
  boost::system::error_code ec;
  auto v = boost::json::parse(body, ec);
  if (ec || !v.is_object()) return {};
  const auto& o = v.as_object();
  std::string msg;
  if (auto* m = o.if_contains("message"); m && m->is_string()) msg = std::string(m->as_string());
  if (auto* errs = o.if_contains("errors"); errs && errs->is_array()) {
    for (const auto& e : errs->as_array()) {
      std::string detail;
      if (e.is_string()) detail = std::string(e.as_string());
      else if (e.is_object()) {
        const auto& eo = e.as_object();
        if (auto* m = eo.if_contains("message"); m && m->is_string()) detail = std::string(m->as_string());
        else if (auto* c = eo.if_contains("code"); c && c->is_string()) {
          detail = std::string(c->as_string());
          if (auto* f = eo.if_contains("field"); f && f->is_string()) detail += " (" + std::string(f->as_string()) + ")";
        }
      }
      if (!detail.empty()) msg += (msg.empty() ? "" : "; ") + detail;
    }
  }
  return msg;
}

[[noreturn]] void bad_json(const std::string& what, const std::string& url, const std::string& detail) {
  throw Error(ErrorKind::decode, "GitHub's answer to " + what + " is not the expected JSON", path_of(url), detail,
              "check that GITHUB_API_URL points at the GitHub REST API");
}

const boost::json::object& as_object(const boost::json::value& v, const std::string& what, const std::string& url) {
  if (!v.is_object()) bad_json(what, url, "expected an object");
  return v.as_object();
}

std::uint64_t uint_member(const boost::json::object& o, const char* name, const std::string& what,
                          const std::string& url) {
  auto* v = o.if_contains(name);
  if (v && v->is_uint64()) return v->as_uint64();
  if (v && v->is_int64() && v->as_int64() >= 0) return static_cast<std::uint64_t>(v->as_int64());
  bad_json(what, url, std::string("missing integer member \"") + name + "\"");
}

std::string string_member(const boost::json::object& o, const char* name) {
  auto* v = o.if_contains(name);
  return v && v->is_string() ? std::string(v->as_string()) : std::string();
}

GitHubIssue to_issue(const boost::json::value& v, const std::string& what, const std::string& url) {
  const auto& o = as_object(v, what, url);
  GitHubIssue i;
  i.number = uint_member(o, "number", what, url);
  i.title = string_member(o, "title");
  i.body = string_member(o, "body");  // null for an empty body
  i.state = string_member(o, "state");
  i.html_url = string_member(o, "html_url");
  if (auto* pr = o.if_contains("pull_request"); pr && !pr->is_null()) i.pull_request = true;
  return i;
}

GitHubComment to_comment(const boost::json::value& v, const std::string& what, const std::string& url) {
  const auto& o = as_object(v, what, url);
  GitHubComment c;
  c.id = uint_member(o, "id", what, url);
  c.body = string_member(o, "body");
  c.html_url = string_member(o, "html_url");
  return c;
}

boost::json::value parse_json(const std::string& body, const std::string& what, const std::string& url) {
  boost::system::error_code ec;
  auto v = boost::json::parse(body, ec);
  if (ec) bad_json(what, url, ec.message());
  return v;
}

std::string body_document(std::string_view body) {
  return "{\"body\":" + codec::json::quote(body) + "}";
}

// GitHub's rate limits (docs.github.com "Rate limits for the REST API"): the primary limit
// answers 403 or 429 with `x-ratelimit-remaining: 0` and the reset time in `x-ratelimit-reset`
// (epoch seconds); a secondary limit answers 403 or 429 with Retry-After. Neither is a
// permission problem, and retrying before the reset only spends attempts.
bool rate_limited(int status, const std::optional<std::string>& remaining, bool retry_after) {
  return status == 429 || (status == 403 && ((remaining && *remaining == "0") || retry_after));
}

// How long until the limit lifts: Retry-After, else the reset time; nullopt when neither says.
std::optional<std::chrono::milliseconds> rate_limit_wait(const std::optional<std::string>& retry_after,
                                                         const std::optional<std::string>& reset,
                                                         std::chrono::system_clock::time_point now) {
  if (retry_after)
    if (auto d = https::parse_retry_after(*retry_after, now)) return d;
  if (!reset) return std::nullopt;
  try {
    std::size_t used = 0;
    const long long epoch = std::stoll(*reset, &used);
    if (used != reset->size()) return std::nullopt;
    const auto at = std::chrono::system_clock::time_point(std::chrono::seconds(epoch));
    // One second more: the reset time is truncated to whole seconds.
    return std::max(std::chrono::milliseconds(0),
                    std::chrono::duration_cast<std::chrono::milliseconds>(at - now) + std::chrono::seconds(1));
  } catch (const std::exception&) {
    return std::nullopt;
  }
}

}  // namespace

GitHubClient::GitHubClient(GitHubTarget target, std::shared_ptr<https::HttpClient> http, GitHubClientOptions options)
    : target_(std::move(target)), http_(std::move(http)), options_(std::move(options)) {
  if (!http_) http_ = https::make_http_client();
  if (options_.per_page == 0 || options_.per_page > 100) options_.per_page = 100;
}

std::string GitHubClient::redact(std::string text) const {
  if (target_.token.empty()) return text;
  for (auto at = text.find(target_.token); at != std::string::npos; at = text.find(target_.token, at))
    text.replace(at, target_.token.size(), "[redacted]");
  return text;
}

GitHubClient::Reply GitHubClient::call(const std::string& method, const std::string& url, std::string_view body,
                                       const std::string& what) {
  thread_local std::mt19937_64 rng(std::random_device{}());
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  const int max_attempts = std::max(1, options_.retry.max_attempts);
  const std::string where = path_of(url);
  const std::string repo = target_.repository();
  std::string last;
  for (int attempt = 1;; ++attempt) {
    https::HttpRequest req;
    req.method = method;
    req.url = url;
    req.headers = {{"Authorization", "Bearer " + target_.token},
                   {"Accept", "application/vnd.github+json"},
                   {"X-GitHub-Api-Version", github_api_version},
                   {"User-Agent", "cargo-bench-history/" + std::string(tool_version)}};
    if (!body.empty()) req.headers.emplace_back("Content-Type", "application/json; charset=utf-8");
    req.body = std::string(body);
    std::optional<std::chrono::milliseconds> retry_after;
    ++exchanges_;
    std::optional<https::HttpResponse> response;
    try {
      response = http_->send(req);
    } catch (const Error& e) {
      // A certificate that fails verification is Error{config}: deterministic, never retried.
      if (e.kind() != ErrorKind::network) throw;
      last = redact(e.cause().empty() ? e.message() : e.message() + ": " + e.cause());
    }
    if (response) {
      Reply reply{response->status, std::move(response->body), std::move(response->headers), attempt};
      if (reply.status >= 200 && reply.status < 300) return reply;
      const auto message = service_message(reply.body);
      const std::string detail = redact("HTTP " + std::to_string(reply.status) + (message.empty() ? "" : ": " + message));
      const auto retry_after_header = reply.header("Retry-After");
      const bool limited = rate_limited(reply.status, reply.header("x-ratelimit-remaining"), retry_after_header.has_value());
      if (limited) {
        const auto now = std::chrono::system_clock::now();
        const auto wait = rate_limit_wait(retry_after_header, reply.header("x-ratelimit-reset"), now);
        if (wait && (attempt >= max_attempts || *wait > options_.retry.max_delay)) {
          const auto seconds = std::chrono::duration_cast<std::chrono::seconds>(*wait).count();
          throw Error(ErrorKind::network,
                      "GitHub's API rate limit for this token stopped " + what + "; it lifts in " +
                          std::to_string(seconds) + " s",
                      where, detail,
                      "run the step again after the limit lifts; runs that publish at the same time share one "
                      "token's limit");
        }
        last = detail + " (rate limited)";
        if (wait) {
          // Waiting less than the limit asks for would only spend an attempt.
          options_.retry.wait(*wait);
          continue;
        }
      } else if (!https::is_transient_status(reply.status)) {
        switch (reply.status) {
          case 401:
            throw Error(ErrorKind::auth, "GitHub rejected the token in GITHUB_TOKEN while " + what, where, detail,
                        "check that GITHUB_TOKEN holds a valid, unexpired token for " + repo);
          case 403:
            throw Error(ErrorKind::auth, "GitHub refused " + what, where, detail,
                        "grant the job `issues: write` (history and failure alerts) or `pull-requests: write` "
                        "(pull-request comments); a pull request from a fork gets a read-only token");
          case 404:
            throw Error(ErrorKind::not_found, "GitHub found nothing at " + where + " while " + what, where, detail,
                        "check GITHUB_REPOSITORY (" + repo + "), the issue or pull-request number, and that the "
                        "token can see the repository");
          case 422:
            throw Error(ErrorKind::usage, "GitHub refused " + what + " as invalid", where, detail,
                        "the request cargo-bench-history built was rejected; report this with the detail above");
          default:
            throw Error(ErrorKind::network, "GitHub answered " + what + " with an error", where, detail,
                        "check GITHUB_API_URL (" + target_.api_url + ") and GitHub's status");
        }
      }
      last = limited ? detail + " (rate limited)" : detail;
      if (retry_after_header) retry_after = https::parse_retry_after(*retry_after_header, std::chrono::system_clock::now());
    }
    if (attempt >= max_attempts)
      throw Error(ErrorKind::network, what + " failed after " + std::to_string(attempt) + " attempts", where, last,
                  last.ends_with("(rate limited)")
                      ? "GitHub is rate-limiting this token; run the step again later"
                      : "GitHub or the network is failing; run the step again later");
    options_.retry.wait(options_.retry.delay_after(attempt, retry_after, unit(rng)));
  }
}

std::vector<std::string> GitHubClient::get_pages(const std::string& first_url, const std::string& what) {
  std::vector<std::string> pages;
  const auto api_origin = https::Url::parse(target_.api_url).origin();
  std::string url = first_url;
  while (true) {
    if (pages.size() >= options_.max_pages)
      throw Error(ErrorKind::network, what + " did not finish within " + std::to_string(options_.max_pages) + " pages",
                  path_of(first_url), {}, "GitHub kept answering with a next page; run the step again later");
    auto reply = call("GET", url, {}, what);
    pages.push_back(std::move(reply.body));
    auto link = reply.header("Link");
    if (!link) break;
    auto next = next_page_url(*link);
    if (!next) break;
    // The token goes with every request: never follow a link to another origin.
    std::string next_origin;
    try {
      next_origin = https::Url::parse(*next).origin();
    } catch (const Error&) {
    }
    if (next_origin != api_origin)
      throw Error(ErrorKind::network, "GitHub's next-page link for " + what + " leaves GITHUB_API_URL", path_of(url),
                  "the link points at " + (next_origin.empty() ? *next : next_origin),
                  "check GITHUB_API_URL (" + target_.api_url + ")");
    url = *next;
  }
  return pages;
}

std::vector<GitHubIssue> GitHubClient::open_issues() {
  const std::string what = "listing the open issues of " + target_.repository();
  const std::string url = target_.repository_url() + "/issues?state=open&per_page=" + std::to_string(options_.per_page);
  std::vector<GitHubIssue> out;
  for (const auto& page : get_pages(url, what)) {
    auto v = parse_json(page, what, url);
    if (!v.is_array()) bad_json(what, url, "expected an array");
    for (const auto& item : v.as_array()) {
      auto issue = to_issue(item, what, url);
      if (!issue.pull_request) out.push_back(std::move(issue));
    }
  }
  return out;
}

GitHubIssue GitHubClient::create_issue(std::string_view title, std::string_view body) {
  const std::string what = "opening an issue in " + target_.repository();
  const std::string url = target_.repository_url() + "/issues";
  auto reply = call("POST", url, "{\"title\":" + codec::json::quote(title) + ",\"body\":" + codec::json::quote(body) + "}", what);
  return to_issue(parse_json(reply.body, what, url), what, url);
}

GitHubIssue GitHubClient::update_issue_body(std::uint64_t number, std::string_view body) {
  const std::string what = "editing issue #" + std::to_string(number) + " of " + target_.repository();
  const std::string url = target_.repository_url() + "/issues/" + std::to_string(number);
  auto reply = call("PATCH", url, body_document(body), what);
  return to_issue(parse_json(reply.body, what, url), what, url);
}

std::vector<GitHubComment> GitHubClient::comments(std::uint64_t issue_number) {
  const std::string what = "listing the comments of #" + std::to_string(issue_number) + " in " + target_.repository();
  const std::string url = target_.repository_url() + "/issues/" + std::to_string(issue_number) +
                          "/comments?per_page=" + std::to_string(options_.per_page);
  std::vector<GitHubComment> out;
  for (const auto& page : get_pages(url, what)) {
    auto v = parse_json(page, what, url);
    if (!v.is_array()) bad_json(what, url, "expected an array");
    for (const auto& item : v.as_array()) out.push_back(to_comment(item, what, url));
  }
  return out;
}

GitHubComment GitHubClient::create_comment(std::uint64_t issue_number, std::string_view body) {
  const std::string what = "commenting on #" + std::to_string(issue_number) + " in " + target_.repository();
  const std::string url = target_.repository_url() + "/issues/" + std::to_string(issue_number) + "/comments";
  auto reply = call("POST", url, body_document(body), what);
  return to_comment(parse_json(reply.body, what, url), what, url);
}

GitHubComment GitHubClient::update_comment(std::uint64_t comment_id, std::string_view body) {
  const std::string what = "editing comment " + std::to_string(comment_id) + " in " + target_.repository();
  const std::string url = target_.repository_url() + "/issues/comments/" + std::to_string(comment_id);
  auto reply = call("PATCH", url, body_document(body), what);
  return to_comment(parse_json(reply.body, what, url), what, url);
}

GitHubIssue GitHubClient::issue(std::uint64_t number) {
  const std::string what = "reading #" + std::to_string(number) + " of " + target_.repository();
  const std::string url = target_.repository_url() + "/issues/" + std::to_string(number);
  auto reply = call("GET", url, {}, what);
  return to_issue(parse_json(reply.body, what, url), what, url);
}

std::optional<std::string> GitHubClient::compare(std::string_view base, std::string_view head) {
  const std::string what = "comparing " + std::string(base) + " with " + std::string(head) + " in " + target_.repository();
  const std::string url = target_.repository_url() + "/compare/" + std::string(base) + "..." + std::string(head);
  try {
    auto reply = call("GET", url, {}, what);
    const auto v = parse_json(reply.body, what, url);
    const auto status = string_member(as_object(v, what, url), "status");
    if (status.empty()) bad_json(what, url, "missing string member \"status\"");
    return status;
  } catch (const Error& e) {
    if (e.kind() == ErrorKind::not_found) return std::nullopt;
    throw;
  }
}

}  // namespace benchhist::publish
