#pragma once
// What a shallow clone's boundary leaves out of an analysis. Its first-parent line ends at the
// boundary, so selection drops every stored run of an older commit as off history: a step whose
// old level lies there has no finding, and a window whose old end lies there has no old end.
// `analyze` and `bisect` say so once, with the fix, instead of quietly reporting less than they
// would on a full clone.

#include <optional>
#include <string>

#include "benchhist/analysis/git_topology.hpp"
#include "benchhist/analysis/selection.hpp"

namespace benchhist::analysis {

enum class ShallowNoteFor { analyze, bisect };

// The note, or nullopt when the repository is not shallow or every stored run it left out is of a
// commit the clone has (off history for another reason, such as a side branch).
std::optional<std::string> shallow_clone_note(const Selection& selection, const GitTopology& git, ShallowNoteFor command);

}  // namespace benchhist::analysis
