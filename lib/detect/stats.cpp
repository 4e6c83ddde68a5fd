// Shared statistical primitives (detection.md §0.2, §3).
#include "benchhist/detect/detail/stats_impl.hpp"
