// The census reason of one series (detection.md §12.1).
#include "benchhist/detect/detail/census_impl.hpp"
