// Comparison-base lag (detection.md §11). See include/benchhist/detect/lag.hpp.
#include "benchhist/detect/detail/lag_impl.hpp"
