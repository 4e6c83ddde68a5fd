#pragma once
// Everything the library and the CLI ask of the operating system beyond the C++ standard
// library: child processes, interrupts, the terminal, and the few file operations whose
// atomicity std::filesystem cannot express. lib/platform/posix.cpp implements it for Linux
// (and, with the changes docs/portability.md lists, macOS); a port to another system adds
// its own implementation file here and touches no other folder.
//
// Failures of the operating system are thrown as std::system_error (generic category, so the
// code compares with std::errc); callers turn them into benchhist::Error with their own
// wording and hint.

#include <chrono>
#include <cstddef>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <system_error>
#include <vector>

namespace benchhist::platform {

// --- Processes -------------------------------------------------------------------------

// The calling process's environment as NAME=value entries.
std::vector<std::string> current_environment();

// The calling process's id (names of temporary files and directories, lock owners).
long current_process_id();

class InterruptWatch;

// What a caller has done to a child's process group when an interrupt arrives while the child
// runs (ChildInterrupts::answer).
enum class ChildSignal {
  none,     // the child runs on
  pass_on,  // the group gets the interrupt's own signal (what a terminal's Ctrl-C would send it)
  stop,     // the group gets SIGTERM and, when it has not ended stop_grace later, SIGKILL
};

// A child that answers its caller's interrupts (ChildRequest::interrupts).
struct ChildInterrupts {
  InterruptWatch* watch = nullptr;  // the caller's active watch
  std::size_t seen = 0;             // interrupts the caller had already answered before the start
  // Called while the child runs, once for each later interrupt: its signal and how many the
  // watch has received in all. Must not throw.
  std::function<ChildSignal(int signal, std::size_t received)> answer;
  std::chrono::milliseconds stop_grace{};  // the caller's choice (docs/bench-command.md)
};

struct ChildRequest {
  std::vector<std::string> argv;         // non-empty; argv[0] found on PATH unless it has a '/'
  std::filesystem::path cwd;             // empty: the caller's working directory
  std::vector<std::string> environment;  // the child's whole environment, NAME=value
  bool stdin_from_null = true;           // false: the child inherits stdin
  bool capture_stdout = false;           // false: the child inherits stdout
  bool capture_stderr = false;           // false: the child inherits stderr
  // With capture_stdout: the captured stdout is also written to the caller's stdout (or to
  // log_file when set) as it arrives (best effort: a failed write is dropped; the capture goes on).
  bool tee_stdout = false;
  // Non-empty: the streams not captured go to this file instead of the caller's, appended
  // (created private when absent), so a benchmark's output is kept rather than shown.
  std::filesystem::path log_file;
  // Non-null: the child leads a process group of its own, so that it and everything it starts
  // are signalled together (ninja runs its commands so); a terminal's Ctrl-C then reaches only
  // the caller, which answers through `interrupts`. Once the caller has passed an interrupt on or
  // stopped the group, the group's members still running when the child ends get the stop
  // treatment too, so none is left behind.
  const ChildInterrupts* interrupts = nullptr;
};

struct ChildOutcome {
  bool exited = false;  // false: terminated by a signal
  int exit_code = -1;   // when exited
  int signal = 0;       // when !exited
  std::string out, err; // the captured streams
};

// Starting or waiting for a child failed; `what()` says what, `step` which step.
enum class ChildStep { pipe, log, start, wait };
struct ChildError : std::system_error {
  ChildError(ChildStep s, std::error_code code, const std::string& what) : std::system_error(code, what), step(s) {}
  ChildStep step;
};

// Runs the child to completion without a shell, draining captured streams concurrently (no
// pipe deadlock). Signal dispositions the caller blocked or ignored (a test runner ignoring
// SIGPIPE, an active InterruptWatch) are reset to the defaults in the child. Throws
// ChildError when the child cannot be started or waited for.
ChildOutcome run_child(const ChildRequest& request);

// --- Interrupts ------------------------------------------------------------------------

// While alive, an interrupt (SIGINT, SIGTERM, and SIGHUP unless it was ignored, as under
// `nohup`) no longer ends the process; pending() reports the first one received. One watch may
// be active per process (a signal handler reaches only process-wide state): a second throws
// std::logic_error. The destructor restores the previous handlers. Throws std::system_error
// when the watch cannot be set up.
class InterruptWatch {
 public:
  InterruptWatch();
  ~InterruptWatch();
  InterruptWatch(const InterruptWatch&) = delete;
  InterruptWatch& operator=(const InterruptWatch&) = delete;
  // The first interrupt's signal number so far, or 0.
  int pending();
  // Every interrupt so far: how many, and the latest one's signal (0 when none).
  struct Tally {
    std::size_t count = 0;
    int latest = 0;
  };
  Tally tally();
  // Readable when an interrupt has arrived that neither pending() nor tally() has read yet (for
  // a wait that must wake for one).
  int descriptor() const;

 private:
  struct State;
  std::unique_ptr<State> state_;
};

// --- Memory ----------------------------------------------------------------------------

// For a short-lived process that frees and re-allocates large buffers (analyze: a slope buffer and
// scratch of every series, 1.75 million points): keep freed heap memory in the process instead of
// returning it to the system at each free, so re-using it costs no fresh page faults. With glibc
// this fixes the trim and mmap thresholds (which it otherwise adapts, trimming the heap after each
// large free); elsewhere it does nothing. Call once, first thing in main.
void keep_freed_memory() noexcept;

// Faults in, with one request, the whole pages of [data, data + bytes): memory just allocated
// that the caller is about to fill. On this project's virtual machines a page fault costs
// about 14 microseconds, and populating a range about a microsecond a page (Linux 5.14's
// MADV_POPULATE_WRITE, measured on 96 MB: 335 ms touched page by page, 25 ms populated).
// Contents are unchanged. Best effort: where the system cannot, the pages fault in as usual.
void populate_for_writing(void* data, std::size_t bytes) noexcept;

// --- Terminal --------------------------------------------------------------------------

// The width of standard output when it is a terminal.
std::optional<std::size_t> stdout_terminal_columns();
bool stderr_is_terminal();

// --- Files -----------------------------------------------------------------------------

// What an existing output path leads to: this process's standard output or error (by any
// name: /dev/stdout, /proc/self/fd/1, the file the shell redirected to), some other file that
// is not a regular one (a pipe, a terminal, /dev/null), or anything else (a regular file, or
// nothing yet). Follows symbolic links.
enum class OutputTarget { other, standard_output, standard_error, not_regular };
OutputTarget classify_output_path(const std::filesystem::path& path) noexcept;

// A new, empty, private directory `parent/<prefix><unique suffix>`.
std::filesystem::path make_unique_directory(const std::filesystem::path& parent, std::string_view prefix);

// The step of write_new_file that failed, for the caller's message.
enum class WriteStep { create, write };
struct WriteError : std::system_error {
  WriteError(WriteStep s, std::error_code code) : std::system_error(code), step(s) {}
  WriteStep step;
};

// Creates `path` and writes `bytes` to it. Never replaces or follows anything already at
// `path`: an existing name (a file, a directory or a symbolic link) fails with
// std::errc::file_exists. With `durable`, the bytes reach the disk before it returns. On a
// write failure the partial file is removed. Throws WriteError.
void write_new_file(const std::filesystem::path& path, std::string_view bytes, bool durable);

// The whole content of the regular file at `path`, never following a symbolic link there
// (std::errc::too_many_symbolic_link_levels); nullopt when nothing is at `path`. Throws
// std::system_error.
std::optional<std::string> read_file_no_follow(const std::filesystem::path& path);

// Gives the file `from` the name `to` only if nothing has that name yet, atomically: false
// when something had it. Afterwards `from` may still exist (a hard link was made): remove it.
// Throws std::system_error.
bool publish_no_replace(const std::filesystem::path& from, const std::filesystem::path& to);

// Makes the directory's entries durable (after publishing a name in it). Best effort.
void sync_directory(const std::filesystem::path& dir) noexcept;

// --- Locks -----------------------------------------------------------------------------

// An exclusive advisory lock on a file between processes (flock on Linux), which the system
// releases when its holder ends, however it ends: no stale lock survives a crash. The file is
// left in place (removing it would let a third process lock a name the second still waits on).
class FileLock {
 public:
  // Takes the lock on `path`, creating the file (mode 0644) when it is missing, and writes the
  // calling process's id into it; nullptr when another holder has it. Never follows a symbolic
  // link at `path`. Throws std::system_error when the file cannot be opened or locked.
  static std::unique_ptr<FileLock> try_acquire(const std::filesystem::path& path);
  // The process id the holder of the lock on `path` wrote, when the file holds one.
  static std::optional<long> holder(const std::filesystem::path& path) noexcept;
  ~FileLock();
  FileLock(const FileLock&) = delete;
  FileLock& operator=(const FileLock&) = delete;

 private:
  explicit FileLock(int fd) noexcept : fd_(fd) {}
  int fd_;
};

}  // namespace benchhist::platform
