#pragma once
// `collect` as a library call (formats.md §6.5.2).

#include "benchhist/app/commands.hpp"

namespace benchhist::app {

void run_collect(const CollectOptions& options, const Invocation& inv);

}  // namespace benchhist::app
