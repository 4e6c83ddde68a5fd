#pragma once
// `prune` as a library operation (docs/prune.md#result-and-outputs,
// docs/blessings.md#list-blessings): a deletion plan over the context's first-parent line,
// branch-side commits only unless the base is explicitly confirmed, then deletion through
// ObjectStore::remove and ObjectStore::flush. --dry-run builds the identical plan and deletes
// nothing.

#include <optional>
#include <string>
#include <vector>

#include "benchhist/analysis/filters.hpp"
#include "benchhist/analysis/git_topology.hpp"
#include "benchhist/analysis/selection.hpp"
#include "benchhist/model/blessing.hpp"
#include "benchhist/model/timestamp.hpp"
#include "benchhist/pipeline/analyze.hpp"
#include "benchhist/report/prune_output.hpp"
#include "benchhist/storage/object_store.hpp"

namespace benchhist::pipeline {

// The mutually exclusive run-deletion scopes (--clean, --dirty, --all).
enum class PruneRuns { none, clean, dirty, all };

struct PruneRequest {
  // The analysis family's selection inputs: project, --context (the plan's target ref), --base,
  // the configured default branch, the filters, --since (no default for prune) and now. Its
  // dirty admission and base-line switches do not apply to a deletion plan.
  analysis::SelectionRequest selection;
  std::vector<std::string> commits;  // positional prefixes, case-insensitive; empty = all eligible
  PruneRuns runs = PruneRuns::none;
  bool include_blessings = false;
  bool dry_run = false;
  bool prune_base = false;
};

// A project-level record in the plan (docs/blessings.md#list-blessings: its commit is in the plan
// and its scope lies within the filters). It has no single partition, so it is kept beside the
// per-set plan.
struct PlannedScopedBlessing {
  std::string key;
  std::string commit;
  BlessingScope scope;
};

struct PruneResult {
  report::PrunePlan plan;                           // per set, rendered by report/prune_output.hpp
  std::vector<PlannedScopedBlessing> scoped;        // project-level records (sorted by key)
  std::vector<std::string> keys;                    // every planned key, sorted
  std::vector<std::string> removed;                 // keys actually removed (empty under dry run)

  // The report renderers' output, plus (when `scoped` is non-empty) a trailing
  // `Project-level blessings` section (text, Markdown) or `project_blessings` array (JSON).
  std::string text() const;
  std::string markdown() const;
  std::string json() const;
};

// Throws Error{usage} with docs/prune.md's message for no deletion scope, and Error{usage}
// `pruning will delete benchmark history of the <base> branch, which is the base branch. Confirm
// with --prune-base if this is correct.` for a context on the base without prune_base (after the
// announcement, nothing deleted); Error{git} / Error{usage} for the ref, merge-base and --since
// errors of the analysis family; the store's list/remove/flush errors (flushed after any delete).
PruneResult prune(const PruneRequest& request, const analysis::GitTopology& git, storage::ObjectStore& store,
                  const Hooks& hooks = {});

}  // namespace benchhist::pipeline
