#pragma once
// Keeping a history, as library calls: bless / unbless (docs/blessings.md#bless, #unbless),
// list blessings (docs/cli.md#commands) and prune (docs/prune.md).

#include "app/commands.hpp"

namespace benchhist::app {

void run_bless(const BlessOptions& options, const Invocation& inv);
void run_unbless(const UnblessOptions& options, const Invocation& inv);
void run_list_blessings(const ListOptions& options, const Invocation& inv);
void run_prune(const PruneOptions& options, const Invocation& inv);

}  // namespace benchhist::app
