#pragma once
// `bisect` as a library call (docs/bisect.md): the report on inv.out (and --json), progress on
// inv.err.

#include "app/commands.hpp"

namespace benchhist::app {

void run_bisect(const BisectOptions& options, const Invocation& inv);

}  // namespace benchhist::app
