#pragma once
// The libgit2 version differences, in one place (docs/portability.md). The tree builds with
// libgit2 1.5 (Debian 12), 1.7 (Ubuntu 24.04) and 1.9 (Debian 13):
//  * option structs are filled by the git_*_options_init functions, never the GIT_*_INIT macros:
//    the macros name only some fields, which clang's -Wmissing-field-initializers reports;
//  * the releases with SHA-256 object ids spell the hex length GIT_OID_SHA1_HEXSIZE and keep
//    GIT_OID_HEXSZ only as a deprecated alias (gone under GIT_DEPRECATE_HARD);
//  * 1.8 took git_error_set_str out of the public headers: our own reasons go into the
//    Error directly (git/error.hpp), never through libgit2's error state;
//  * a repository owned by another user is refused with GIT_EOWNER, except that 1.5 returns
//    GIT_ENOTFOUND ("config value 'safe.directory' was not found") when the user's global
//    configuration has no safe.directory entry at all.

#include <git2.h>

#include <cstddef>
#include <string>
#include <string_view>

namespace benchhist::git {

#ifdef GIT_OID_SHA1_HEXSIZE
inline constexpr std::size_t oid_hex_size = GIT_OID_SHA1_HEXSIZE;
#else
inline constexpr std::size_t oid_hex_size = GIT_OID_HEXSZ;
#endif

// The full 40-digit hex id.
std::string oid_hex(const git_oid& oid);
// A full 40-digit hex id into `out`; false for anything else (abbreviations included).
bool parse_oid(std::string_view hex, git_oid& out) noexcept;

// True when git_repository_open_ext's `rc` (with libgit2's last error, read here) means the
// repository is owned by another user and no safe.directory entry allows it.
bool is_ownership_refusal(int rc) noexcept;

// Zero-filled options of the running libgit2's layout, as the init functions give them.
git_status_options status_options();
git_diff_options diff_options();

}  // namespace benchhist::git
