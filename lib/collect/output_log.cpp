// The benchmark output's log files (docs/bench-output.md).
#include "benchhist/collect/output_log.hpp"

#include <fstream>
#include <iterator>
#include <system_error>

#include "benchhist/error.hpp"
#include "benchhist/model/text.hpp"
#include "platform/platform.hpp"

namespace benchhist::collect {

std::filesystem::path output_log_file(const std::filesystem::path& dir, const std::optional<std::string>& commit) {
  return dir / ((commit ? short_id(*commit) : std::string("no-commit")) + ".log");
}

OutputTail output_log_tail(const std::filesystem::path& file, std::size_t lines) {
  std::ifstream in(file, std::ios::binary);
  std::string all((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (!all.empty() && all.back() != '\n') all += '\n';
  std::size_t total = 0;
  for (char c : all) total += c == '\n';
  OutputTail tail;
  tail.lines = lines == 0 ? total : std::min(lines, total);
  tail.earlier_lines = total - tail.lines;
  // Start after the newline that ends the last earlier line.
  std::size_t start = 0;
  for (std::size_t seen = 0, i = 0; seen < tail.earlier_lines; ++i)
    if (all[i] == '\n' && ++seen == tail.earlier_lines) start = i + 1;
  tail.text = all.substr(start);
  return tail;
}

OutputLogDirectory::OutputLogDirectory(const std::filesystem::path& temp_dir, std::string_view command) {
  try {
    path_ = platform::make_unique_directory(temp_dir, "cargo-bench-history-logs-" + std::string(command) + "-");
  } catch (const std::system_error& e) {
    throw Error(ErrorKind::io, "failed to create the benchmark log directory under " + temp_dir.string(),
                temp_dir.string(), e.code().message(),
                "check that TMPDIR (or /tmp) exists and is writable, or pass --verbose to show the benchmark "
                "output instead of keeping it");
  }
}

OutputLogDirectory::OutputLogDirectory(OutputLogDirectory&& other) noexcept : path_(std::move(other.path_)) {
  other.path_.clear();
}

OutputLogDirectory::~OutputLogDirectory() {
  if (path_.empty()) return;
  std::error_code ec;
  std::filesystem::remove(path_, ec);  // removes only an empty directory: written logs stay
}

bool OutputLogDirectory::empty() const {
  std::error_code ec;
  return std::filesystem::is_empty(path_, ec) || ec;
}

}  // namespace benchhist::collect
