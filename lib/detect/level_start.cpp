// The reported split of a history change point
// (docs/divergences.md#s2--the-reported-split-is-the-new-levels-estimated-start).
#include "benchhist/detect/detail/level_start_impl.hpp"
