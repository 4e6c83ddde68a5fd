#pragma once
// Keeping a history, as library calls: bless / unbless (formats.md §6.5.9–§6.5.10),
// list blessings (§6.5.6) and prune (§6.5.7).

#include "benchhist/app/commands.hpp"

namespace benchhist::app {

void run_bless(const BlessOptions& options, const Invocation& inv);
void run_unbless(const UnblessOptions& options, const Invocation& inv);
void run_list_blessings(const ListOptions& options, const Invocation& inv);
void run_prune(const PruneOptions& options, const Invocation& inv);

}  // namespace benchhist::app
