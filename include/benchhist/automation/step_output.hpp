#pragma once
// Results of the CI helper commands as GitHub Actions step outputs: lines appended to
// `$GITHUB_OUTPUT` (`name=value`, or the `name<<DELIMITER` … `DELIMITER` form for a value
// that spans lines), so a workflow step can run `cargo bench-history <cmd> >> "$GITHUB_OUTPUT"`.

#include <string>
#include <utility>
#include <vector>

namespace benchhist::automation {

using StepOutputs = std::vector<std::pair<std::string, std::string>>;

// One `name=value` line per output in order; a value containing a newline uses the delimiter
// form with a delimiter that occurs nowhere in the value.
// Throws Error{internal} when a name is empty or holds `=`, `<` or whitespace (names are ours,
// not the user's).
std::string format_step_outputs(const StepOutputs& outputs);

}  // namespace benchhist::automation
