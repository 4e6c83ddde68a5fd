// Branch mode, SEED version (docs/statistics.md#branch-excursion). See
// include/benchhist/detect/branch.hpp.
#include "benchhist/detect/detail/branch_impl.hpp"
