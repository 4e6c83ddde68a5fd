#pragma once
// Fitting a Markdown report into a size-limited GitHub body (issue and comment bodies are
// capped at 65,536 characters; docs/github.md "Size limit").
//
// A section is a heading and everything up to the next heading of any level (`#` lines inside
// code fences are not headings), so every finding of a report, under its own heading, is a
// section. When the report does not fit:
//
// * Two parts are kept whole in preference to anything else: the report's head (its title and
//   what follows it up to the next heading: the census lines, the silent paragraphs) and any
//   section headed `Coverage` (the guide: read coverage alongside the findings). Each stays
//   protected only while what is protected still fits with the note (head and Coverage, else
//   Coverage alone, else the head alone, else nothing).
// * Of the rest, the leading part that fits is kept and everything after it is left out:
//   the cut falls at the start of the section it would land in (whole findings, whole sections),
//   unless that would keep nothing beyond the protected parts, and then between lines: a
//   paragraph or a list line by line, a table row by row (its header rows never alone), a
//   fenced code block (a chart) or an HTML block whole. A heading is never kept without
//   anything under it: a section none of whose content fits is left out, heading and all.
// * One line in italics takes the place of what was left out (before Coverage when Coverage
//   follows), counting it: "_… 353 more sections are left out here._", or, when the cut falls
//   inside a section, "_… 486 more lines of this section and 1 more section are left out
//   here._" (non-blank lines).
// * The caller's note, after a blank line, ends the body and points at the full report; its
//   wording can depend on whether every section in the body is complete (Shortening).
//
// Sizes are UTF-8 bytes. GitHub's error says "maximum is 65536 characters"; reports measured
// by others disagree on the unit (code points for pull-request bodies, 262,144 bytes for issue
// comments), and a body of 55,969 characters in 65,369 bytes that GitHub accepted is within
// 65,536 whichever way it is counted. Bytes are never fewer than code points or UTF-16 units,
// so a body within the budget in bytes is accepted under every one of those readings; the
// price is that a body of mostly multi-byte text (the charts' box-drawing characters take 3
// bytes each, an emoji 4) is shortened earlier than GitHub strictly requires. Every cut falls
// at a line end, so the result is valid UTF-8 whenever the input is.

#include <cstddef>
#include <functional>
#include <string>
#include <string_view>

namespace benchhist::publish {

// GitHub's limit for an issue or comment body.
inline constexpr std::size_t github_body_limit = 65'536;

// What the note at the end must say was left out.
enum class Shortening {
  whole_sections,    // only whole sections: every section in the body is complete
  within_a_section,  // the end of a section too (lines, rows or blocks of it)
};

struct FittedMarkdown {
  std::string text;                  // ends with the note when anything was left out
  std::size_t omitted_sections = 0;  // sections (headings) left out
  std::size_t omitted_blocks = 0;    // lines, table rows and blocks left out of a partly kept section
  bool shortened() const noexcept { return omitted_sections + omitted_blocks > 0; }
  Shortening shortening() const noexcept {
    return omitted_blocks > 0 ? Shortening::within_a_section : Shortening::whole_sections;
  }
};

// Returns `markdown` unchanged when it fits in `budget` bytes. Otherwise keeps what fits of it
// (as described above) and appends `"\n" + omission_note(shortening) + "\n"`, all within
// `budget`: room is left for the longer of the two notes. When not even the note fits, the
// result is empty (and still counts what was omitted).
FittedMarkdown fit_markdown(std::string_view markdown, std::size_t budget,
                            const std::function<std::string(Shortening)>& omission_note);

// The same with one note whatever was left out.
FittedMarkdown fit_markdown(std::string_view markdown, std::size_t budget, std::string_view omission_note);

}  // namespace benchhist::publish
