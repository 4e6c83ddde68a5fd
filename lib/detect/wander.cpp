// The wander guard (docs/divergences.md#s4--wander-is-not-a-step).
#include "benchhist/detect/detail/wander_impl.hpp"
