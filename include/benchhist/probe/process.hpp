#pragma once
// Child processes without a shell: rustc/git probes capture their output, `cargo bench`
// streams to the inherited terminal (docs/formats.md#benchmark-invocation). Spawning failure is the
// only error; a non-zero exit or a signal is reported in the result for the caller to judge.

#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace benchhist::platform {
struct ChildInterrupts;  // lib/platform/platform.hpp
}

namespace benchhist::probe {

struct ProcessSpec {
  // argv[0] is looked up on the caller's PATH unless it contains a '/' (then it is relative
  // to cwd when cwd is set).
  std::vector<std::string> argv;
  std::filesystem::path cwd;      // empty = the caller's working directory
  // Applied on top of the caller's environment; nullopt removes the variable.
  std::map<std::string, std::optional<std::string>> env_changes;
  bool capture_stdout = true;   // false = the child writes to the inherited stdout
  bool capture_stderr = false;  // false = the child writes to the inherited stderr
  // run_process_streaming only: stdout still reaches the terminal, through a pipe that also
  // copies it into ProcessResult::out (`cargo bench`'s #[bench] lines are only printed there).
  bool tee_stdout = false;
  // run_process_streaming only: when non-empty, stdout and stderr are appended to this file
  // instead of reaching the terminal (a teed stdout is kept in ProcessResult::out as well).
  std::filesystem::path log_file;
  // run_process_streaming only: non-null runs the child in a process group of its own that
  // answers the caller's interrupts (platform::ChildRequest::interrupts); must outlive the call.
  const platform::ChildInterrupts* interrupts = nullptr;
};

struct ProcessResult {
  int exit_code = -1;  // valid when exited
  bool exited = false; // false: terminated by a signal (see signal)
  std::string out;     // captured stdout (empty unless capture_stdout)
  std::string err;     // captured stderr (empty unless capture_stderr)
  int signal = 0;      // the terminating signal when !exited

  bool success() const noexcept { return exited && exit_code == 0; }
};

// Runs the child to completion. Captured streams are drained concurrently (no pipe deadlock);
// stdin is /dev/null because probes must never wait for input.
// Throws Error{io} "failed to run the command \"<argv>\"" (subject = argv[0] when there is one)
// only when the child cannot be spawned (program not found, not executable, bad cwd, empty argv,
// a log_file that cannot be opened).
ProcessResult run_process(const ProcessSpec& spec);

// Runs the child with stdin, stdout and stderr all inherited (capture flags are ignored), so
// benchmark progress streams straight to the terminal (docs/formats.md#benchmark-invocation);
// with tee_stdout, stdout is passed on as it arrives and also kept in the result. With
// log_file, both streams go to that file instead (docs/bench-output.md).
// Throws Error{io} as run_process does.
ProcessResult run_process_streaming(const ProcessSpec& spec);

// argv joined with single spaces, as used in messages like
// `failed to run the benchmark command "<cmd>"`.
std::string describe_command(const std::vector<std::string>& argv);

}  // namespace benchhist::probe
