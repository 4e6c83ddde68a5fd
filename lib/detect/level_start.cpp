// The reported split of a history change point (detection-sharp.md S2).
#include "benchhist/detect/detail/level_start_impl.hpp"
