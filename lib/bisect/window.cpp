// The window of a finding (docs/bisect.md#the-window).
#include "benchhist/bisect/window.hpp"

#include <optional>
#include <string>

#include "benchhist/error.hpp"

namespace benchhist::bisect {

Window find_window(const analysis::Series& series, std::string_view commit) {
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
  if (!old_end || *old_end >= *new_end)
    throw Error(ErrorKind::usage,
                "nothing is measured before commit " + std::string(commit) + " in the series " + series.key.label() +
                    ", so there is no old level to bisect from",
                std::string(commit), {}, "backfill an older commit of this series first");
  return Window{*old_end, *new_end};
}

}  // namespace benchhist::bisect
