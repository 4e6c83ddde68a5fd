#include "git/versions.hpp"

namespace benchhist::git {

std::string oid_hex(const git_oid& oid) {
  char buf[oid_hex_size + 1];
  git_oid_tostr(buf, sizeof buf, &oid);
  return buf;
}

bool parse_oid(std::string_view hex, git_oid& out) noexcept {
  if (hex.size() != oid_hex_size) return false;
  return git_oid_fromstrn(&out, hex.data(), hex.size()) == 0;
}

bool is_ownership_refusal(int rc) noexcept {
  if (rc == GIT_EOWNER) return true;
  // libgit2 1.5 lets the failed safe.directory lookup's result escape instead of GIT_EOWNER;
  // no other open failure is a configuration lookup of that key.
  const git_error* e = git_error_last();
  return rc == GIT_ENOTFOUND && e && e->klass == GIT_ERROR_CONFIG && e->message &&
         std::string_view(e->message).find("'safe.directory'") != std::string_view::npos;
}

git_status_options status_options() {
  git_status_options opts;
  git_status_options_init(&opts, GIT_STATUS_OPTIONS_VERSION);
  return opts;
}

git_diff_options diff_options() {
  git_diff_options opts;
  git_diff_options_init(&opts, GIT_DIFF_OPTIONS_VERSION);
  return opts;
}

}  // namespace benchhist::git
