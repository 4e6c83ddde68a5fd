#pragma once
// The one error type of libbenchhist. Every failure names what failed (message), the object
// key or file path it concerns (subject), the underlying detail (cause) and what the user can
// do next (hint). The CLI renders it as `Error: <message>`, one `  caused by:` line and one
// `  hint:` line (docs/formats.md#process-contract).

#include <stdexcept>
#include <string>
#include <utility>

namespace benchhist {

// What went wrong, at the grain callers branch on: backfill tells a commit's own failure
// (benchmark_failed, benchmark_output) from one that stops the whole run; analysis skips
// unreadable objects (decode, not_found, io) on request; collect maps already_exists to its
// collision message. Never branch on message text: messages are for people and may change.
enum class ErrorKind {
  usage,                   // a caller passed arguments that cannot work
  config,                  // configuration file missing/malformed
  invalid_key,             // a storage key violates the grammar (path tricks, empty segments)
  not_found,               // an object, ref or directory that must exist does not
  already_exists,          // write-once collision
  io,                      // filesystem or process I/O failed
  decode,                  // a stored object (or a remote answer) could not be decoded
  git,                     // repository topology or state could not be read
  toolchain,               // rustc/cargo could not be probed or run for metadata
  benchmark_not_started,   // the benchmark command could not be started at all
  benchmark_failed,        // the benchmark command ran and failed (exit code, signal, bad command line)
  benchmark_output,        // a file the benchmarks wrote could not be parsed
  benchmark_inconsistent,  // --best-of repetitions did not produce the same benchmarks
  network,                 // a remote request failed (after retries)
  auth,                    // credentials were rejected or could not be obtained
  internal,                // a bug: an invariant did not hold
};

// The enumerator's name (`not_found`), for an embedder's logs; the CLI never prints it.
constexpr const char* to_string(ErrorKind kind) noexcept {
  switch (kind) {
    case ErrorKind::usage: return "usage";
    case ErrorKind::config: return "config";
    case ErrorKind::invalid_key: return "invalid_key";
    case ErrorKind::not_found: return "not_found";
    case ErrorKind::already_exists: return "already_exists";
    case ErrorKind::io: return "io";
    case ErrorKind::decode: return "decode";
    case ErrorKind::git: return "git";
    case ErrorKind::toolchain: return "toolchain";
    case ErrorKind::benchmark_not_started: return "benchmark_not_started";
    case ErrorKind::benchmark_failed: return "benchmark_failed";
    case ErrorKind::benchmark_output: return "benchmark_output";
    case ErrorKind::benchmark_inconsistent: return "benchmark_inconsistent";
    case ErrorKind::network: return "network";
    case ErrorKind::auth: return "auth";
    case ErrorKind::internal: return "internal";
  }
  return "unknown";
}

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
  // A copy concerning another key or path; used where a caller's contract names the storage key
  // and a backend's error the file behind it (the message keeps the file).
  Error with_subject(std::string subject) const {
    return Error(kind_, message_, std::move(subject), cause_, hint_);
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

// `e` as the CLI prints it (docs/formats.md#process-contract): `Error: <message>`, then a
// `  caused by:` and a `  hint:` line when present, each ending in a newline. An internal error
// is a bug whatever raised it, so one without a hint of its own says how to report it.
inline std::string render(const Error& e) {
  std::string out = "Error: " + e.message() + "\n";
  if (!e.cause().empty()) out += "  caused by: " + e.cause() + "\n";
  if (!e.hint().empty())
    out += "  hint: " + e.hint() + "\n";
  else if (e.kind() == ErrorKind::internal)
    out += "  hint: this is a bug in cargo-bench-history: please report it with the command you ran and this message\n";
  return out;
}

}  // namespace benchhist
