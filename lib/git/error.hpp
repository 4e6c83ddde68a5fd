#pragma once
// How a libgit2 failure becomes benchhist::Error: kind git, what failed, the path or ref it
// concerns, libgit2's own message as the cause, and what to do next.

#include <string>

#include "benchhist/error.hpp"

namespace benchhist::git {

// There is no repository at the path a command was given (or run in).
inline constexpr const char* default_open_hint =
    "run the command inside the project's git repository, or pass --repo <path>";
// A commit or ref that resolved but cannot be read: objects are missing (a damaged or partial
// clone; callers handle a shallow clone's boundary before they get here).
inline constexpr const char* unreadable_hint =
    "fetch full history (`git fetch --unshallow`) or clone the repository again";

// libgit2's message for the last failure on this thread; read it before the next libgit2 call.
std::string last_error_message();

// Error{git, message, subject, cause = last_error_message(), hint}.
Error failure(std::string message, std::string subject, std::string hint = {});

}  // namespace benchhist::git
