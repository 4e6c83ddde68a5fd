#pragma once
// The one error type of libbenchhist. Every failure names what failed (message), the object
// key or file path it concerns (subject), the underlying detail (cause) and what the user can
// do next (hint). The CLI renders it as `Error: <message>`, one `  caused by:` line and one
// `  hint:` line (docs/formats.md#process-contract).

#include <stdexcept>
#include <string>
#include <utility>

namespace benchhist {

enum class ErrorKind {
  usage,           // a caller passed arguments that cannot work
  config,          // configuration file missing/malformed
  invalid_key,     // a storage key violates the grammar (path tricks, empty segments)
  not_found,       // an object/ref that must exist does not
  already_exists,  // write-once collision
  io,              // filesystem or process I/O failed
  decode,          // stored bytes or an engine file could not be decoded
  git,             // repository topology or state could not be read
  toolchain,       // rustc/cargo could not be probed or run
  benchmark,       // the benchmark command failed
  network,         // a remote request failed (after retries)
  auth,            // credentials were rejected or could not be obtained
  internal,        // a bug: an invariant did not hold
};

class Error : public std::runtime_error {
 public:
  Error(ErrorKind kind, std::string message, std::string subject = {}, std::string cause = {},
        std::string hint = {})
      : std::runtime_error(compose(message, cause)),
        kind_(kind),
        message_(std::move(message)),
        subject_(std::move(subject)),
        cause_(std::move(cause)),
        hint_(std::move(hint)) {}

  ErrorKind kind() const noexcept { return kind_; }
  // The top-level sentence, e.g. `object already exists: v1/p/objects/...`.
  const std::string& message() const noexcept { return message_; }
  // The storage key or file path this error concerns (may be empty).
  const std::string& subject() const noexcept { return subject_; }
  // Lower-level detail (parser message, errno text, HTTP status) or empty.
  const std::string& cause() const noexcept { return cause_; }
  // What to do next, or empty when the message already says it.
  const std::string& hint() const noexcept { return hint_; }

  // A copy with a different hint; used where a caller knows the better next step.
  Error with_hint(std::string hint) const {
    return Error(kind_, message_, subject_, cause_, std::move(hint));
  }

 private:
  static std::string compose(const std::string& message, const std::string& cause) {
    return cause.empty() ? message : message + ": " + cause;
  }

  ErrorKind kind_;
  std::string message_;
  std::string subject_;
  std::string cause_;
  std::string hint_;
};

}  // namespace benchhist
