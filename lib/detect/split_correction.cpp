// The split-search correction (docs/statistics.md#selection-correction).
#include "benchhist/detect/detail/split_correction_impl.hpp"
