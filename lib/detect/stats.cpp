// Shared statistical primitives (docs/statistics.md#numeric-conventions, #primitives).
#include "benchhist/detect/detail/stats_impl.hpp"
