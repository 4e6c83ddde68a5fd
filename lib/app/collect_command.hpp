#pragma once
// `collect` and `backfill` as library calls (docs/cli.md#commands, docs/backfill.md).

#include "app/commands.hpp"

namespace benchhist::app {

void run_collect(const CollectOptions& options, const Invocation& inv);

// `backfill` (docs/backfill.md): progress and announcements on inv.err, the run summary
// on inv.out; a run stopped by a benchmark failure or an interrupt throws its summary as Error.
void run_backfill(const BackfillOptions& options, const Invocation& inv);

// `import` (docs/cli.md#commands, docs/import.md): results produced elsewhere stored for
// `--commit` (default HEAD) without running anything; the stdout message is collect's.
void run_import(const ImportOptions& options, const Invocation& inv);

}  // namespace benchhist::app
