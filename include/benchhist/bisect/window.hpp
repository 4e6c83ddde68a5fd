#pragma once
// The window of a change-point finding (docs/bisect.md#the-window): on the context's first-parent
// line, the last measured commit at the old level and the first measured commit at the new level
// (the commit the finding names), with the unmeasured commits between them. Pure: no I/O.

#include <compare>
#include <cstddef>
#include <string_view>

#include "benchhist/analysis/reconstruction.hpp"

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

// The window of the finding whose new level starts at `commit` in `series`. Only clean points
// count as measured (a dirty snapshot is not a commit's code). Throws Error{not_found} (subject =
// the commit) when the series has no clean point at `commit`, Error{usage} when no clean point
// precedes it (nothing measured at the old level: there is no window to bisect).
Window find_window(const analysis::Series& series, std::string_view commit);

}  // namespace benchhist::bisect
