// The census reason of one series (docs/statistics.md#census).
#include "benchhist/detect/detail/census_impl.hpp"
