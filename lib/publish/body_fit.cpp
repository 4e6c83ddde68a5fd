// Shortening Markdown to a byte budget: head and Coverage kept, the rest cut at a section start
// or between lines (docs/github.md "Size limit"; the rules are in body_fit.hpp).

#include "benchhist/publish/body_fit.hpp"

#include <algorithm>
#include <utility>
#include <vector>

namespace benchhist::publish {
namespace {

// The smallest unit ever kept or left out: a heading line, a fenced code block, an HTML block, a
// table's header and delimiter rows with its first row, or one other line. Each carries the
// blank lines after it.
struct Piece {
  std::string_view text;
  int level = 0;  // heading level, 0 for anything else
  bool heading() const noexcept { return level > 0; }
};

bool is_blank(std::string_view line) {
  for (char c : line)
    if (c != ' ' && c != '\t' && c != '\r' && c != '\n') return false;
  return true;
}

std::size_t indent_of(std::string_view line) {
  std::size_t i = 0;
  while (i < line.size() && i < 3 && line[i] == ' ') ++i;
  return i;
}

// A fence opener: up to three spaces, then ``` or ~~~ (three or more).
std::string_view fence_of(std::string_view line) {
  std::size_t i = indent_of(line);
  if (i >= line.size() || (line[i] != '`' && line[i] != '~')) return {};
  const char c = line[i];
  std::size_t n = 0;
  while (i + n < line.size() && line[i + n] == c) ++n;
  if (n < 3) return {};
  return line.substr(i, n);
}

// The level of an ATX heading line, or 0.
int heading_level(std::string_view line) {
  std::size_t i = indent_of(line);
  std::size_t n = 0;
  while (i + n < line.size() && line[i + n] == '#') ++n;
  const bool ends = i + n == line.size() || line[i + n] == ' ' || line[i + n] == '\t' || line[i + n] == '\n' ||
                    line[i + n] == '\r';
  return n >= 1 && n <= 6 && ends ? static_cast<int>(n) : 0;
}

// A heading's text without the #s, the optional closing #s and the surrounding spaces.
std::string_view heading_title(std::string_view line) {
  std::size_t i = indent_of(line);
  while (i < line.size() && line[i] == '#') ++i;
  auto t = line.substr(i);
  while (!t.empty() && (t.back() == '\n' || t.back() == '\r' || t.back() == ' ' || t.back() == '\t')) t.remove_suffix(1);
  while (!t.empty() && t.back() == '#') t.remove_suffix(1);
  while (!t.empty() && (t.front() == ' ' || t.front() == '\t')) t.remove_prefix(1);
  while (!t.empty() && (t.back() == ' ' || t.back() == '\t')) t.remove_suffix(1);
  return t;
}

bool is_table_delimiter(std::string_view line) {
  bool dash = false, pipe = false;
  for (char c : line) {
    if (c == '-') dash = true;
    else if (c == '|') pipe = true;
    else if (c != ':' && c != ' ' && c != '\t' && c != '\r' && c != '\n') return false;
  }
  return dash && pipe;
}

std::vector<std::string_view> lines_of(std::string_view md) {
  std::vector<std::string_view> lines;
  for (std::size_t pos = 0; pos < md.size();) {
    auto nl = md.find('\n', pos);
    auto end = nl == std::string_view::npos ? md.size() : nl + 1;
    lines.push_back(md.substr(pos, end - pos));
    pos = end;
  }
  return lines;
}

std::vector<Piece> split_pieces(std::string_view md) {
  const auto lines = lines_of(md);
  std::vector<Piece> pieces;
  auto span = [&](std::size_t a, std::size_t b) {  // lines [a, b)
    const char* from = lines[a].data();
    const char* to = lines[b - 1].data() + lines[b - 1].size();
    return std::string_view(from, static_cast<std::size_t>(to - from));
  };
  // Lines [a, b) as one piece, with the blank lines after them.
  auto add = [&](std::size_t a, std::size_t& b, int level) {
    while (b < lines.size() && is_blank(lines[b])) ++b;
    pieces.push_back({span(a, b), level});
  };
  std::size_t i = 0;
  if (i < lines.size() && is_blank(lines[i])) add(i, i, 0);  // leading blank lines
  while (i < lines.size()) {
    const std::size_t start = i;
    if (auto fence = fence_of(lines[i]); !fence.empty()) {
      ++i;
      while (i < lines.size()) {
        auto close = fence_of(lines[i]);
        ++i;
        if (!close.empty() && close[0] == fence[0] && close.size() >= fence.size()) break;
      }
      add(start, i, 0);
      continue;
    }
    if (int level = heading_level(lines[i]); level > 0) {
      ++i;
      add(start, i, level);
      continue;
    }
    // A run of other lines, up to a blank line, a fence or a heading.
    std::size_t end = i + 1;
    while (end < lines.size() && !is_blank(lines[end]) && fence_of(lines[end]).empty() && !heading_level(lines[end]))
      ++end;
    const auto first = lines[i].substr(indent_of(lines[i]));
    if (!first.empty() && first[0] == '<') {  // an HTML block: cut in it, its tags would not balance
      i = end;
      add(start, i, 0);
      continue;
    }
    const bool table = !first.empty() && first[0] == '|' && end - i >= 2 && is_table_delimiter(lines[i + 1]);
    if (table) {  // the header row and the delimiter row never stand alone
      i = std::min(end, i + 3);
      if (i == end) add(start, i, 0);
      else pieces.push_back({span(start, i), 0});
    }
    while (i < end) {
      const std::size_t a = i++;
      if (i == end) add(a, i, 0);
      else pieces.push_back({span(a, i), 0});
    }
  }
  return pieces;
}

std::size_t count_lines(std::string_view text) {
  std::size_t n = 0;
  for (const auto& line : lines_of(text))
    if (!is_blank(line)) ++n;
  return n;
}

std::string plural(std::size_t n, const char* one, const char* many) {
  return std::to_string(n) + " " + (n == 1 ? one : many);
}

// The line that takes the place of what was left out.
std::string marker(std::size_t lines, std::size_t sections) {
  std::string what;
  if (lines > 0) what = plural(lines, "more line of this section", "more lines of this section");
  if (sections > 0) what += (what.empty() ? "" : " and ") + plural(sections, "more section", "more sections");
  const bool one = (lines == 1 && sections == 0) || (lines == 0 && sections == 1);
  return "_… " + what + (one ? " is" : " are") + " left out here._";
}

}  // namespace

FittedMarkdown fit_markdown(std::string_view markdown, std::size_t budget,
                            const std::function<std::string(Shortening)>& omission_note) {
  FittedMarkdown out;
  if (markdown.size() <= budget) {
    out.text = std::string(markdown);
    return out;
  }
  const auto pieces = split_pieces(markdown);
  const std::size_t n = pieces.size();
  std::size_t headings = 0;
  for (const auto& p : pieces) headings += p.heading() ? 1 : 0;

  const std::string whole_note = omission_note(Shortening::whole_sections);
  const std::string within_note = omission_note(Shortening::within_a_section);
  // The note goes after a blank line and ends with a newline.
  const std::size_t note_room = std::max(whole_note.size(), within_note.size()) + 2;
  // The marker with a blank line before and after it, and a newline the text may lack at its end.
  const std::size_t marker_room = marker(count_lines(markdown), headings).size() + 5;
  if (note_room + marker_room > budget) {  // nothing but the note (if even that fits)
    const auto& note = n > 0 && !pieces.front().heading() ? within_note : whole_note;
    out.omitted_sections = headings;
    for (std::size_t i = 0; i < n && !pieces[i].heading(); ++i) ++out.omitted_blocks;
    if (note.size() + 1 <= budget) out.text = note + "\n";
    return out;
  }

  // The head: up to the first heading, or the title and what follows it up to the next heading.
  std::size_t first = 0;
  while (first < n && is_blank(pieces[first].text)) ++first;
  std::size_t head_end = first < n && pieces[first].heading() ? first + 1 : first;
  while (head_end < n && !pieces[head_end].heading()) ++head_end;
  std::vector<bool> in_head(n, false), in_coverage(n, false);
  for (std::size_t i = 0; i < head_end; ++i) in_head[i] = true;
  // Coverage: the heading and everything up to the next heading of its level or above.
  for (std::size_t i = 0; i < n; ++i) {
    if (!pieces[i].heading() || heading_title(pieces[i].text) != "Coverage") continue;
    std::size_t j = i + 1;
    while (j < n && !(pieces[j].heading() && pieces[j].level <= pieces[i].level)) ++j;
    for (std::size_t k = i; k < j; ++k) in_coverage[k] = true;
  }
  std::vector<bool> guarded(n, false);
  std::size_t guarded_size = 0;
  // What is kept whole: head and Coverage, else Coverage alone, else the head alone, else nothing.
  const std::size_t free = budget - note_room - marker_room;
  constexpr std::pair<bool, bool> choices[] = {{true, true}, {false, true}, {true, false}};
  for (auto [head, coverage] : choices) {
    std::size_t size = 0;
    std::vector<bool> g(n, false);
    for (std::size_t i = 0; i < n; ++i) {
      g[i] = (head && in_head[i]) || (coverage && in_coverage[i]);
      size += g[i] ? pieces[i].text.size() : 0;
    }
    if (size <= free) {
      guarded = std::move(g);
      guarded_size = size;
      break;
    }
  }
  const std::size_t room = free - guarded_size;

  // The rest, in order; the longest leading run of it that fits.
  std::vector<std::size_t> rest;
  for (std::size_t i = 0; i < n; ++i)
    if (!guarded[i]) rest.push_back(i);
  const std::size_t m = rest.size();
  std::size_t fits = 0;
  for (std::size_t used = 0; fits < m && used + pieces[rest[fits]].text.size() <= room; ++fits)
    used += pieces[rest[fits]].text.size();
  auto is_heading = [&](std::size_t r) { return pieces[rest[r]].heading(); };
  auto trimmed = [&](std::size_t k) {  // never end on a heading with nothing under it
    while (k > 0 && is_heading(k - 1)) --k;
    return k;
  };
  std::size_t keep = trimmed(fits);
  if (fits < m && !is_heading(fits)) {
    // The cut lands inside a section: leave the whole section out, unless nothing of the rest
    // would then be kept.
    std::size_t h = fits;
    while (h > 0 && !is_heading(h - 1)) --h;
    if (h > 0 && trimmed(h - 1) > 0) keep = trimmed(h - 1);
  }

  // Left out: the rest from `keep` on.
  std::size_t cut_lines = 0, r = keep;
  for (; r < m && !is_heading(r); ++r) {
    cut_lines += count_lines(pieces[rest[r]].text);
    ++out.omitted_blocks;
  }
  for (; r < m; ++r) out.omitted_sections += is_heading(r) ? 1 : 0;

  std::vector<bool> kept(n, false);
  for (std::size_t i = 0; i < n; ++i) kept[i] = guarded[i];
  for (std::size_t k = 0; k < keep; ++k) kept[rest[k]] = true;
  const std::size_t cut_at = keep < m ? rest[keep] : n;

  std::string text;
  text.reserve(budget);
  auto end_line = [&] {
    if (!text.empty() && text.back() != '\n') text += '\n';
  };
  for (std::size_t i = 0; i <= n; ++i) {
    if (i == cut_at) {
      end_line();
      if (!text.empty() && !text.ends_with("\n\n")) text += '\n';
      text += marker(cut_lines, out.omitted_sections) + "\n";
      bool more = false;
      for (std::size_t j = i; j < n && !more; ++j) more = kept[j];
      if (more) text += '\n';
    }
    if (i < n && kept[i]) text += pieces[i].text;
  }
  end_line();
  text += "\n" + (out.omitted_blocks > 0 ? within_note : whole_note) + "\n";
  out.text = std::move(text);
  return out;
}

FittedMarkdown fit_markdown(std::string_view markdown, std::size_t budget, std::string_view omission_note) {
  const std::string note(omission_note);
  return fit_markdown(markdown, budget, [&](Shortening) { return note; });
}

}  // namespace benchhist::publish
