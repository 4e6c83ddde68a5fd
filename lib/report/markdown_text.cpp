// Markdown escaping (report/markdown_text.hpp).
#include "benchhist/report/markdown_text.hpp"

#include <algorithm>

namespace benchhist::report {

std::string markdown_cell(std::string_view text) {
  std::string out;
  for (char c : text) {
    if (c == '|') out += '\\';
    if (c == '\n' || c == '\r') {
      out += ' ';
      continue;
    }
    out += c;
  }
  return out;
}

std::string code_span(std::string_view text) {
  if (text.find('`') == std::string_view::npos) return "`" + std::string(text) + "`";
  std::size_t longest = 0, run = 0;
  for (char c : text) {
    run = c == '`' ? run + 1 : 0;
    longest = std::max(longest, run);
  }
  const std::string fence(longest + 1, '`');
  return fence + " " + std::string(text) + " " + fence;
}

}  // namespace benchhist::report
