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
