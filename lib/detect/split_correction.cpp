// The split-search correction (detection.md §5).
#include "benchhist/detect/detail/split_correction_impl.hpp"
