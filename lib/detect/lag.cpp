// Comparison-base lag (docs/statistics.md#comparison-base-lag). See
// include/benchhist/detect/lag.hpp.
#include "benchhist/detect/detail/lag_impl.hpp"
