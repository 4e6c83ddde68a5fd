// Branch mode, SEED version (detection.md §10). See include/benchhist/detect/branch.hpp.
#include "benchhist/detect/detail/branch_impl.hpp"
