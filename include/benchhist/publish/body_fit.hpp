#pragma once
// Fitting a Markdown report into a size-limited GitHub body (issue and comment bodies are
// capped at 65,536 characters). The report is shortened by whole sections — a heading and
// everything up to the next heading, headings inside code fences not counting — from the end,
// so a table row or a fenced code block (a chart) is never cut in half. When even the first
// section does not fit, whole blocks of it (paragraphs, tables, fences, lists) are kept
// instead (the longest leading run of them that fits). Whatever is left out
// is replaced by one note that points at the full report.
//
// Sizes are UTF-8 bytes: GitHub counts characters, and a string never has more characters (or
// UTF-16 units) than bytes, so a body within the budget in bytes is always accepted.

#include <cstddef>
#include <string>
#include <string_view>

namespace benchhist::publish {

// GitHub's limit for an issue or comment body.
inline constexpr std::size_t github_body_limit = 65'536;

struct FittedMarkdown {
  std::string text;                  // ends with the note when anything was left out
  std::size_t omitted_sections = 0;  // whole sections left out
  std::size_t omitted_blocks = 0;    // blocks left out of a partly kept first section
  bool shortened() const noexcept { return omitted_sections + omitted_blocks > 0; }
};

// Returns `markdown` unchanged when it fits in `budget` bytes. Otherwise keeps what fits of it
// (as described above) and appends `"\n" + omission_note + "\n"`, all within `budget`. When
// not even the note fits, the result is empty (and still counts what was omitted).
FittedMarkdown fit_markdown(std::string_view markdown, std::size_t budget, std::string_view omission_note);

}  // namespace benchhist::publish
