#pragma once
// Selection (docs/pipeline.md#selection): from storage keys and git topology alone, decide which
// run objects enter the analysis, before any object is fetched. Also derives the analysis mode
// (docs/pipeline.md#selection), applies dirty admission and the --since window, and sets aside the
// blessing objects on the mode's evidence line (docs/pipeline.md#selection step 1,
// docs/pipeline.md#reconstruction).

#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "benchhist/analysis/filters.hpp"
#include "benchhist/analysis/git_topology.hpp"
#include "benchhist/analysis/since.hpp"
#include "benchhist/model/discriminant.hpp"
#include "benchhist/model/verdict.hpp"
#include "benchhist/model/timestamp.hpp"
#include "benchhist/codec/key.hpp"

namespace benchhist::storage {
class ObjectStore;
}

namespace benchhist::analysis {

// docs/pipeline.md#selection table: history only when the context is the merge base and no dirty
// run was admitted on it through the base-tip exception; branch otherwise. There is no flag to
// force a mode.
constexpr AnalysisMode derive_mode(bool context_is_merge_base, bool dirty_run_admitted_on_context) noexcept {
  return context_is_merge_base && !dirty_run_admitted_on_context ? AnalysisMode::history : AnalysisMode::branch;
}

// docs/pipeline.md#selection per commit of the first-parent line (oldest first). `split_commit`
// absent or not on the line → every commit is target-side (the raw helper's behaviour; the pipeline
// always supplies an on-line split commit).
struct DirtyAdmission {
  std::vector<bool> admits;                  // per line position
  std::optional<std::size_t> base_exception; // the tip, when admitted through the exception
};
DirtyAdmission dirty_admission(const std::vector<std::string>& line_oldest_first,
                               const std::optional<std::string>& split_commit, bool allow_dirty,
                               bool working_tree_dirty);

// docs/pipeline.md#selection step 5: the split commit's position on the line. The merge base itself
// when it lies on the line; otherwise the newest line commit that is an ancestor of `base_commit`
// (the base-side commits form a prefix, found by binary search with ancestry probes); the tip
// when none is (cannot happen once a merge base exists).
std::size_t split_index(const std::vector<CommitInfo>& line, std::string_view merge_base,
                        std::string_view base_commit, const GitTopology& git);

struct SelectionRequest {
  std::string project;                  // raw project id (sanitized when building the prefix)
  std::optional<std::string> context_ref;  // --context; nullopt = HEAD (not given)
  std::optional<std::string> base_ref;  // --base
  std::optional<std::string> configured_default_branch;  // project.default_branch
  DiscriminantFilters filters;          // already resolved (filters.hpp)
  std::optional<Since> since;           // --since, parsed where it was given (since.hpp)
  // Required unless `since` is a fixed date: "now" for a --since span and the default six-month
  // window (left at the epoch, select_objects throws Error{usage}).
  Timestamp now{};
  bool allow_dirty = true;              // !--no-dirty
  // Branch mode loads the base ref's own first-parent line (docs/pipeline.md#selection,
  // docs/branch-mode.md#inputs-one-branchseriesinput-per-series); `list runs` and `examine` that
  // only show the context line may switch it off.
  bool include_base_line = true;

  std::string context() const { return context_ref.value_or("HEAD"); }
};

// One selected run object. `ordinal` is its rank by storage key (byte order) among the
// objects of its line; `topo` its commit's topological index on that line.
struct SelectedObject {
  std::string key;
  codec::DataKey data;
  std::size_t ordinal = 0;
  std::size_t topo = 0;
  bool dirty() const noexcept { return data.kind == codec::ObjectKind::dirty; }
};

// A blessing object set aside at funnel step 1 whose commit lies on the evidence line.
struct SelectedBlessing {
  std::string key;
  std::string commit;
  std::size_t topo = 0;                       // on the evidence line
  std::optional<DiscriminantSet> partition;   // legacy sidecar: its partition; project-level: none
};

// Per-stage removals for hints and `--verbose` (docs/formats.md#listings-and-command-messages).
// Every run object of the project listing is counted exactly once: stored_runs = outside_filters +
// off_history + dirty_not_admitted + before_since + selected.
struct FunnelCounts {
  std::size_t stored_runs = 0;
  std::size_t outside_filters = 0;
  std::size_t off_history = 0;
  std::size_t dirty_not_admitted = 0;  // dirty snapshots refused by docs/pipeline.md#selection (either reason below)
  std::size_t dirty_on_base_side = 0;  //   of which on base-side commits (the hint's bullet)
  std::size_t before_since = 0;
  std::size_t selected = 0;
};

// Which funnel stage removed a run object (for `--verbose` notes and empty-outcome hints).
enum class FunnelStage { discriminant_filter, off_history, dirty_admission, since_window };

constexpr std::string_view to_string(FunnelStage s) noexcept {
  switch (s) {
    case FunnelStage::discriminant_filter: return "outside the discriminant filters";
    case FunnelStage::off_history: return "commit not on the context's first-parent history";
    case FunnelStage::dirty_admission: return "dirty snapshot not admitted on this side of the merge base";
    case FunnelStage::since_window: return "commit older than the --since cutoff";
  }
  return "excluded";
}

struct ExcludedObject {
  std::string key;
  FunnelStage stage = FunnelStage::discriminant_filter;
};

// `list runs` counts for one discriminant set (docs/formats.md#listings-and-command-messages;
// series counts need the payloads, see reconstruction.hpp).
struct CommitRunCounts {
  std::string commit;
  std::size_t topo = 0;
  std::size_t clean = 0;
  std::size_t dirty = 0;
};
struct SetRunCounts {
  DiscriminantSet set;
  std::size_t runs = 0;
  std::vector<CommitRunCounts> commits;  // oldest first
};

struct Selection {
  AnalysisMode mode = AnalysisMode::history;
  std::string context_ref;
  std::string context_commit;  // T
  ResolvedBase base;           // B
  std::string merge_base;
  bool context_is_merge_base = false;
  std::size_t split = 0;                    // split commit position on `line`
  std::optional<bool> working_tree_dirty;   // probed only when the context is HEAD's commit
  bool dirty_run_admitted_on_context = false;  // through the base-tip exception (mode input)
  bool dirty_base_tip_admitted = false;        // such a run survived the window: report warning
  SinceWindow since;

  std::vector<CommitInfo> line;        // A: context first-parent line, index = topo
  std::vector<CommitInfo> base_line;   // branch mode: B's first-parent line, index = topo
  std::vector<SelectedObject> objects;       // context line survivors, sorted by key
  std::vector<SelectedObject> base_objects;  // branch mode: base line clean runs, sorted by key
  std::vector<SelectedBlessing> blessings;   // sorted by key
  FunnelCounts counts;
  std::vector<ExcludedObject> excluded;      // every run object the funnel removed, by key
  // Branch mode, comparison-base lag (docs/statistics.md#comparison-base-lag): clean base-line runs
  // of sibling sets (same engine and target triple, a machine key outside the filter). Never
  // fetched by load_selection; the lag check fetches them lazily, only when a finding lags.
  std::vector<SelectedObject> sibling_base_objects;

  std::size_t context_topo() const noexcept { return line.empty() ? 0 : line.size() - 1; }
  // The evidence line for blessings (docs/pipeline.md#reconstruction step 3).
  const std::vector<CommitInfo>& evidence_line() const noexcept {
    return mode == AnalysisMode::history ? line : base_line;
  }
  // Indices into `objects`, grouped by discriminant set (sets in (engine, triple, key) order).
  std::map<DiscriminantSet, std::vector<std::size_t>> objects_by_set() const;
  std::vector<SetRunCounts> run_counts() const;
};

// The analyze/list/examine announcement for a finished selection: filters, base and since
// (docs/formats.md#streams).
inline std::string selection_announcement(const DiscriminantFilters& filters, const Selection& selection) {
  return selection_announcement(filters, selection.base.announced(),
                                std::nullopt, AnnouncedSince{selection.since.cutoff, selection.since.reason});
}

// Runs the whole key-only funnel on a listing of `project_data_prefix(project)`.
// Throws Error{git} (the ref and merge-base errors of git_topology.hpp) and Error{usage} (the
// --since errors of since.hpp).
// `listing` is taken by value: its keys move into the selection.
Selection select_objects(const SelectionRequest& request, const GitTopology& git, std::vector<std::string> listing);
// Lists the project's data prefix in `store` and runs select_objects on it.
// Throws the same, and the store's list errors (io, network, auth).
Selection select_objects(const SelectionRequest& request, const GitTopology& git, storage::ObjectStore& store);

}  // namespace benchhist::analysis
