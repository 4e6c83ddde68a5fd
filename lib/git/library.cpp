// The only place libgit2's global state is taken and released.

#include "git/library.hpp"

#include <git2.h>

namespace benchhist::git {

// git_libgit2_init fails only when its own allocations fail; every later libgit2 call then
// reports the error through git_error_last, which the callers map (git/error.hpp).
Library::Library() noexcept { git_libgit2_init(); }
Library::Library(const Library&) noexcept { git_libgit2_init(); }
Library::~Library() { git_libgit2_shutdown(); }

}  // namespace benchhist::git
