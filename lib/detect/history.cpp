// History mode (detection.md §2.6, §4, §6, §7, §9, §13).
#include "benchhist/detect/detail/history_impl.hpp"
