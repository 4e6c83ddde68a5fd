#pragma once
// The CI automation commands as library calls (docs/github.md, docs/cli.md): `publish`
// (GitHub issues and pull-request comments), `backfill-range` and `affected` (their results as
// $GITHUB_OUTPUT lines on inv.out). Failures are Error, like every command.

#include "app/commands.hpp"

namespace benchhist::app {

// `publish history|pr|failure`: one line saying what was published on inv.out.
void run_publish(const PublishOptions& options, const Invocation& inv);
// `backfill-range`: `eligible=`, `from=`, `to=`, `commits=`, `project=`, `max-commits=`,
// `ignore-errors=`, `explanation=` lines on inv.out; the explanation is also announced on inv.err.
void run_backfill_range(const BackfillRangeOptions& options, const Invocation& inv);
// `affected`: `any=`, `packages=` (space-separated), `count=`, `workspace-wide=`, `merge-base=`,
// `explanation=` lines on inv.out; the explanation is also announced on inv.err.
void run_affected(const AffectedOptions& options, const Invocation& inv);

}  // namespace benchhist::app
