#pragma once
// The analysis-family commands as library calls (docs/cli.md#commands): options in,
// primary output on inv.out, announcements and notes on inv.err, failures as Error.

#include "app/commands.hpp"

namespace benchhist::app {

// `analyze`: text on out (unless --no-text), --markdown/--json/--markdown-summary/--outcome files.
// Returns 0, or 2 when `--fail-on regression` was given and a regression is reported.
int run_analyze(const AnalyzeOptions& options, const Invocation& inv);
// `examine`: the per-commit data points of one benchmark and metric.
void run_examine(const ExamineOptions& options, const Invocation& inv);
// `list runs`: per-set run, series and commit counts.
void run_list_runs(const ListOptions& options, const Invocation& inv);

}  // namespace benchhist::app
