#pragma once
// Markdown escaping shared by every Markdown output (analyze's report and summary, the listings,
// bisect), so a benchmark id or commit subject renders the same everywhere.

#include <string>
#include <string_view>

namespace benchhist::report {

// A table cell: `|` escaped (it would end the cell), line breaks folded into spaces
// (docs/formats.md#listings-and-command-messages).
std::string markdown_cell(std::string_view text);

// A code span that survives backticks inside the text (CommonMark: a longer fence and padding
// spaces).
std::string code_span(std::string_view text);

}  // namespace benchhist::report
