// History mode (docs/pipeline.md#reconstruction, docs/statistics.md).
#include "benchhist/detect/detail/history_impl.hpp"
