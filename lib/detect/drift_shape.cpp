// The drift's shape guard (docs/divergences.md#s6--a-drift-is-a-slope-not-a-step).
#include "benchhist/detect/detail/drift_shape_impl.hpp"
