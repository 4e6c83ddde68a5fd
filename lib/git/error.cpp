#include "git/error.hpp"

#include <git2.h>

namespace benchhist::git {

std::string last_error_message() {
  const git_error* e = git_error_last();
  return (e && e->message) ? std::string(e->message) : std::string("unknown libgit2 error");
}

Error failure(std::string message, std::string subject, std::string hint) {
  return Error(ErrorKind::git, std::move(message), std::move(subject), last_error_message(), std::move(hint));
}

}  // namespace benchhist::git
