// GITHUB_API_URL / GITHUB_REPOSITORY / GITHUB_TOKEN (docs/github.md "publish").

#include "benchhist/publish/github_target.hpp"

#include "benchhist/https/client.hpp"
#include "benchhist/error.hpp"

namespace benchhist::publish {

std::string GitHubTarget::repository_url() const {
  return api_url + "/repos/" + https::url_encode(owner) + "/" + https::url_encode(name);
}

GitHubTarget GitHubTarget::from_environment(const probe::Environment& env) {
  GitHubTarget t;
  auto token = env.non_empty("GITHUB_TOKEN");
  if (!token)
    throw Error(ErrorKind::auth, "GITHUB_TOKEN is unset or empty: publish needs a token that may write issues and comments",
                "GITHUB_TOKEN", {},
                "in a workflow step set `env: GITHUB_TOKEN: ${{ github.token }}` and grant `issues: write` (history, "
                "failure) or `pull-requests: write` (pr); elsewhere export a token for the repository");
  // A token read from a file keeps its newline; inside the Authorization header any control
  // character breaks the request, and GitHub's answer then blames the server, not the variable.
  for (const char c : *token)
    if (static_cast<unsigned char>(c) < 0x21 || c == 0x7f)
      throw Error(ErrorKind::usage, "GITHUB_TOKEN contains whitespace or a control character (a trailing newline?)",
                  "GITHUB_TOKEN", {},
                  "export the token without its newline, e.g. GITHUB_TOKEN=\"$(tr -d '[:space:]' < token-file)\"");
  t.token = *token;

  auto repo = env.non_empty("GITHUB_REPOSITORY");
  if (!repo)
    throw Error(ErrorKind::usage, "GITHUB_REPOSITORY is unset or empty: publish needs the repository as owner/name",
                "GITHUB_REPOSITORY", {},
                "GitHub Actions sets it for every step; elsewhere export GITHUB_REPOSITORY=<owner>/<name>");
  const auto slash = repo->find('/');
  auto bad_char = [](char c) {
    return !((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == '_' ||
             c == '.');
  };
  bool ok = slash != std::string::npos && slash > 0 && slash + 1 < repo->size() &&
            repo->find('/', slash + 1) == std::string::npos;
  if (ok)
    for (char c : *repo)
      if (c != '/' && bad_char(c)) ok = false;
  // `.` and `..` are path segments, not names: /repos/../x would leave the repository.
  if (ok) {
    const std::string_view owner = std::string_view(*repo).substr(0, slash), name = std::string_view(*repo).substr(slash + 1);
    for (const auto part : {owner, name})
      if (part == "." || part == "..") ok = false;
  }
  if (!ok)
    throw Error(ErrorKind::usage, "GITHUB_REPOSITORY \"" + *repo + "\" is not of the form owner/name",
                "GITHUB_REPOSITORY", {}, "set GITHUB_REPOSITORY=<owner>/<name>, e.g. octo-org/octo-repo");
  t.owner = repo->substr(0, slash);
  t.name = repo->substr(slash + 1);

  std::string api = env.non_empty("GITHUB_API_URL").value_or(default_github_api_url);
  https::Url url;
  try {
    url = https::Url::parse(api);
  } catch (const Error& e) {
    throw Error(ErrorKind::usage, "GITHUB_API_URL \"" + api + "\" is not an https URL", "GITHUB_API_URL", e.cause(),
                "unset it for github.com, or set it to https://<host>/api/v3 for GitHub Enterprise Server");
  }
  if (url.scheme != "https")
    throw Error(ErrorKind::usage, "GITHUB_API_URL \"" + api + "\" is not an https URL", "GITHUB_API_URL",
                "the token is sent with every request, so plain http is refused",
                "unset it for github.com, or set it to https://<host>/api/v3 for GitHub Enterprise Server");
  while (!api.empty() && api.back() == '/') api.pop_back();
  t.api_url = api;
  return t;
}

}  // namespace benchhist::publish
