#pragma once
// Where the benchmark command's output goes (docs/bench-output.md). A real project prints
// thousands of lines over a backfill; they would bury the tool's own progress and summary, so
// by default they are appended to one file per commit in a private directory per invocation,
// under the temporary directory — never in the repository's working tree, so never in
// `git status` or a later dirty check. `--verbose` streams them to the terminal instead.

#include <cstddef>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

namespace benchhist::collect {

// The benchmark output kept in files (CollectRequest::output_log, BackfillRequest::output_log).
struct OutputLog {
  std::filesystem::path dir;      // an existing directory (OutputLogDirectory)
  std::size_t failure_tail = 40;  // lines shown when the command fails; 0 = all of them
};

// `<dir>/<12-character commit>.log`, or `<dir>/no-commit.log` outside any commit.
std::filesystem::path output_log_file(const std::filesystem::path& dir, const std::optional<std::string>& commit);

// The end of a log, for showing with a failure.
struct OutputTail {
  std::string text;               // the last lines, each ending in '\n'
  std::size_t lines = 0;          // how many lines `text` holds
  std::size_t earlier_lines = 0;  // lines before them, left in the file
};

// Hands a failed command's log and its tail to the caller (CollectServices::failed_output,
// BackfillServices::failed_output).
using FailedOutput = std::function<void(const std::filesystem::path& log, const OutputTail& tail)>;

// The last `lines` lines of `file` (all of them when 0). A file that cannot be read gives an
// empty tail: the failure it would illustrate is reported anyway.
OutputTail output_log_tail(const std::filesystem::path& file, std::size_t lines);

// One invocation's log directory, `<temp_dir>/cargo-bench-history-logs-<command>-XXXXXX`
// (private to the user). The destructor removes it when nothing was written into it, so a run
// that measured nothing leaves nothing behind; logs that were written are kept (the system's
// temporary-file cleaning removes them; docs/bench-output.md).
class OutputLogDirectory {
 public:
  // Throws Error{io} (subject = temp_dir) when the directory cannot be created.
  OutputLogDirectory(const std::filesystem::path& temp_dir, std::string_view command);
  ~OutputLogDirectory();
  OutputLogDirectory(OutputLogDirectory&& other) noexcept;
  OutputLogDirectory& operator=(OutputLogDirectory&&) = delete;
  OutputLogDirectory(const OutputLogDirectory&) = delete;
  OutputLogDirectory& operator=(const OutputLogDirectory&) = delete;

  const std::filesystem::path& path() const noexcept { return path_; }
  // True while no log has been written into it.
  bool empty() const;

 private:
  std::filesystem::path path_;
};

}  // namespace benchhist::collect
