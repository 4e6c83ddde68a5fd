#pragma once
// Where and as whom publication talks to GitHub (docs/github.md): `$GITHUB_API_URL` (default
// https://api.github.com; GitHub Enterprise Server sets it to https://<host>/api/v3),
// `$GITHUB_REPOSITORY` (`owner/name`) and `$GITHUB_TOKEN`. The token lives only here and is
// only ever written into an Authorization header by GitHubClient: nothing renders it.

#include <string>

#include "benchhist/probe/environment.hpp"

namespace benchhist::publish {

inline constexpr const char* default_github_api_url = "https://api.github.com";

struct GitHubTarget {
  std::string api_url;  // absolute https URL without a trailing slash
  std::string owner;
  std::string name;
  std::string token;    // never printed, never part of an error

  // `owner/name`.
  std::string repository() const { return owner + "/" + name; }
  // `<api_url>/repos/<owner>/<name>` (segments percent-encoded).
  std::string repository_url() const;

  // Reads the three variables. Errors name the variable (subject) and say how to set it.
  // Throws Error{auth} `GITHUB_TOKEN is unset or empty: …`; Error{usage} `GITHUB_REPOSITORY is
  // unset or empty: …` / `GITHUB_REPOSITORY "<v>" is not of the form owner/name`, Error{usage}
  // `GITHUB_API_URL "<v>" is not an https URL: …` (the token travels with every request).
  static GitHubTarget from_environment(const probe::Environment& env);
};

}  // namespace benchhist::publish
