#pragma once
// The window of a change-point finding (docs/bisect.md#the-window): on the context's first-parent
// line, the last measured commit at the old level and the first measured commit at the new level
// (the commit the finding names), with the unmeasured commits between them. Pure: no I/O.

#include <compare>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

#include "benchhist/analysis/reconstruction.hpp"
#include "benchhist/error.hpp"

namespace benchhist::bisect {

// Indices are topological indices on analysis::Selection::line (the context's first-parent
// line, oldest first).
struct Window {
  std::size_t old_end = 0;  // last measured commit at the old level
  std::size_t new_end = 0;  // first measured commit at the new level

  // Commits that may have caused the step: every commit after old_end up to new_end (git's
  // `old_end..new_end`).
  std::size_t candidates() const noexcept { return new_end - old_end; }
  std::size_t unmeasured() const noexcept { return new_end - old_end - 1; }
  bool pinned() const noexcept { return new_end == old_end + 1; }
  // The commit bisection measures next: the middle of the unmeasured commits (the older one of
  // two middles). Only meaningful when !pinned().
  std::size_t middle() const noexcept { return old_end + (new_end - old_end) / 2; }

  friend auto operator<=>(const Window&, const Window&) = default;
};

// The window of the finding whose new level starts at `commit` in `series`, or nullopt when no
// clean point precedes it (nothing measured at the old level: there is no window to bisect). Only
// clean points count as measured (a dirty snapshot is not a commit's code). Throws
// Error{not_found} (subject = the commit) when the series has no clean point at `commit`.
//
// Inline, so that the analysis pipeline, which is built before this area, reports the same window
// (report::Finding::unmeasured_before) that bisect then works on: one definition.
inline std::optional<Window> find_window(const analysis::Series& series, std::string_view commit) {
  // Points are in topological order; a commit may hold several runs (the first decides).
  std::optional<std::size_t> new_end, old_end;
  for (const auto& p : series.points) {
    if (p.dirty) continue;
    if (p.commit == commit) {
      new_end = p.topo;
      break;
    }
    old_end = p.topo;
  }
  if (!new_end)
    throw Error(ErrorKind::not_found,
                "the series " + series.key.label() + " has no clean measurement at commit " + std::string(commit),
                std::string(commit), {}, "bisect the findings of the analysis it was given (analyze names them)");
  if (!old_end || *old_end >= *new_end) return std::nullopt;
  return Window{*old_end, *new_end};
}

}  // namespace benchhist::bisect
