// Shortening Markdown by whole sections and blocks (docs/github.md "Size limit").

#include "benchhist/publish/body_fit.hpp"

#include <vector>

namespace benchhist::publish {
namespace {

struct Block {
  std::string_view text;  // whole lines, including their newlines and trailing blank lines
  bool heading = false;
};

bool is_blank(std::string_view line) {
  for (char c : line)
    if (c != ' ' && c != '\t' && c != '\r' && c != '\n') return false;
  return true;
}

// A fence opener: up to three spaces, then ``` or ~~~ (three or more).
std::string_view fence_of(std::string_view line) {
  std::size_t i = 0;
  while (i < line.size() && i < 3 && line[i] == ' ') ++i;
  if (i >= line.size() || (line[i] != '`' && line[i] != '~')) return {};
  const char c = line[i];
  std::size_t n = 0;
  while (i + n < line.size() && line[i + n] == c) ++n;
  if (n < 3) return {};
  return line.substr(i, n);
}

bool is_heading(std::string_view line) {
  std::size_t i = 0;
  while (i < line.size() && i < 3 && line[i] == ' ') ++i;
  std::size_t n = 0;
  while (i + n < line.size() && line[i + n] == '#') ++n;
  return n >= 1 && n <= 6 && (i + n == line.size() || line[i + n] == ' ' || line[i + n] == '\n' || line[i + n] == '\r');
}

// Splits into blocks: a heading line, a fenced code block (to its closing fence or the end), or
// a run of non-blank lines; trailing blank lines belong to the block before them.
std::vector<Block> split_blocks(std::string_view md) {
  std::vector<std::string_view> lines;
  for (std::size_t pos = 0; pos < md.size();) {
    auto nl = md.find('\n', pos);
    auto end = nl == std::string_view::npos ? md.size() : nl + 1;
    lines.push_back(md.substr(pos, end - pos));
    pos = end;
  }
  std::vector<Block> blocks;
  auto span = [&](std::size_t a, std::size_t b) {  // lines [a, b)
    const char* from = lines[a].data();
    const char* to = lines[b - 1].data() + lines[b - 1].size();
    return std::string_view(from, static_cast<std::size_t>(to - from));
  };
  std::size_t i = 0;
  while (i < lines.size()) {
    const std::size_t start = i;
    bool heading = false;
    if (is_blank(lines[i])) {
      ++i;  // leading blank lines (only at the very start) form their own block
      while (i < lines.size() && is_blank(lines[i])) ++i;
      blocks.push_back({span(start, i), false});
      continue;
    }
    if (auto fence = fence_of(lines[i]); !fence.empty()) {
      ++i;
      while (i < lines.size()) {
        auto close = fence_of(lines[i]);
        ++i;
        if (!close.empty() && close[0] == fence[0] && close.size() >= fence.size()) break;
      }
    } else if (is_heading(lines[i])) {
      heading = true;
      ++i;
    } else {
      ++i;
      while (i < lines.size() && !is_blank(lines[i]) && fence_of(lines[i]).empty() && !is_heading(lines[i])) ++i;
    }
    while (i < lines.size() && is_blank(lines[i])) ++i;
    blocks.push_back({span(start, i), heading});
  }
  return blocks;
}

}  // namespace

FittedMarkdown fit_markdown(std::string_view markdown, std::size_t budget, std::string_view omission_note) {
  FittedMarkdown out;
  if (markdown.size() <= budget) {
    out.text = std::string(markdown);
    return out;
  }
  const auto blocks = split_blocks(markdown);
  // Sections: [first block, end) where each section after the first starts at a heading.
  std::vector<std::pair<std::size_t, std::size_t>> sections;
  for (std::size_t b = 0; b < blocks.size(); ++b) {
    if (sections.empty() || blocks[b].heading) sections.push_back({b, b + 1});
    else sections.back().second = b + 1;
  }
  auto size_of = [&](std::size_t a, std::size_t b) {
    std::size_t n = 0;
    for (std::size_t k = a; k < b; ++k) n += blocks[k].text.size();
    return n;
  };
  const std::string note = "\n" + std::string(omission_note) + "\n";
  if (note.size() > budget) {
    out.omitted_sections = sections.size();
    return out;
  }
  const std::size_t room = budget - note.size();

  std::size_t kept = 0, used = 0;
  while (kept < sections.size()) {
    const auto n = size_of(sections[kept].first, sections[kept].second);
    if (used + n > room) break;
    used += n;
    ++kept;
  }
  std::string text;
  text.reserve(budget);
  for (std::size_t s = 0; s < kept; ++s)
    for (std::size_t b = sections[s].first; b < sections[s].second; ++b) text += blocks[b].text;
  out.omitted_sections = sections.size() - kept;
  if (kept == 0) {
    // Not even the first section fits: keep the longest run of its whole blocks that does.
    const auto [first, last] = sections.front();
    out.omitted_sections -= 1;
    std::size_t b = first;
    for (; b < last && used + blocks[b].text.size() <= room; ++b) {
      text += blocks[b].text;
      used += blocks[b].text.size();
    }
    out.omitted_blocks = last - b;
  }
  if (!text.empty() && text.back() != '\n') text += '\n';
  // The added newline can only matter when the text ended exactly at `room`; drop the note's
  // leading blank line then rather than exceed the budget.
  text += note;
  if (text.size() > budget) text.erase(text.size() - note.size(), 1);
  out.text = std::move(text);
  return out;
}

}  // namespace benchhist::publish
