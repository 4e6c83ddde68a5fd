#pragma once
// `bisect` (docs/bisect.md): the history analysis at --context, then every change-point finding
// (or those of one series) pinned to the commit that caused it by measuring unmeasured
// first-parent commits exactly as `backfill` measures a commit — one private worktree per
// measurement, cargo or --bench-command, best-of, the freshness gate, one object per engine.
// The measurements of commits not yet stored are stored as ordinary runs, so the next `analyze`
// attributes the finding exactly with no special case.

#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "benchhist/analysis/git_topology.hpp"
#include "benchhist/bisect/bisection.hpp"
#include "benchhist/collect/backfill.hpp"
#include "benchhist/pipeline/analyze.hpp"
#include "benchhist/report/analysis_report.hpp"
#include "benchhist/storage/object_store.hpp"

namespace benchhist::bisect {

struct BisectRequest {
  pipeline::AnalyzeRequest analysis;     // the selection flags, as analyze takes them
  std::optional<std::string> benchmark;  // --benchmark: exact qualified id; nullopt = every finding
  std::optional<MetricKind> metric;      // --metric: only this metric
  Options options;                       // --max-builds, --repeat
  bool dry_run = false;                  // print the windows, measure and store nothing
  bool overwrite = false;                // store re-measurements of already stored commits too
  // How one commit is measured: base_dir, project, scope, bench_command, target_triple, best_of,
  // ignore_errors as backfill takes them; from/to/overwrite/max_commits are set per measurement.
  collect::BackfillRequest measuring;
};

// What bisect says about one finding.
enum class EntryKind {
  bisected,  // a change point that went through the loop: see outcome
  planned,   // --dry-run: the window it would bisect
  drift,     // nothing to pin: a drift has no single commit
  skipped,   // a change point bisect cannot work on here: see note
};

struct FindingEntry {
  report::Finding finding;          // as analyze reported it
  EntryKind kind = EntryKind::bisected;
  std::optional<Window> window;     // the finding's window before bisecting
  std::optional<TargetOutcome> outcome;  // bisected
  std::string note;                 // skipped: why
};

struct BisectReport {
  std::string project;                     // the analysed project (the Markdown title)
  std::vector<analysis::CommitInfo> line;  // the context's first-parent line (window indices)
  std::vector<FindingEntry> entries;       // in the report's finding order
  std::size_t builds = 0;                  // measurements made
  std::size_t stored = 0;                  // commits whose measurement was stored
  std::size_t max_builds = 0;
  std::size_t repeat = 0;
  bool budget_exhausted = false;
  bool dry_run = false;
  // Said once for the whole invocation, after the findings: a shallow clone whose boundary hides
  // stored runs (docs/bisect.md#a-shallow-clone).
  std::vector<std::string> notes;
};

// Progress lines without the `[bench-history] ` prefix (which window, which commit, elapsed,
// builds left), and the analysis' own hooks.
struct BisectHooks {
  pipeline::Hooks analysis;
  std::function<void(std::string_view)> progress;
};

// Runs the analysis and the bisection. `services` measures (BackfillServices::system in the CLI).
// Throws Error{usage} for branch mode (nothing on the first-parent line to bisect), for
// --max-builds or --repeat 0 and for a budget below one confirmation (2 × repeat builds, unless
// dry_run), Error{not_found} when --benchmark/--metric name no series of the
// analysis, and what analyze and backfill throw (an interrupted measurement included).
BisectReport bisect(const BisectRequest& request, const analysis::GitTopology& git, storage::ObjectStore& store,
                    const probe::Environment& env, const collect::BackfillServices& services,
                    const BisectHooks& hooks = {});

// The text report (docs/bisect.md#output): one line per finding.
std::string render_text(const BisectReport& report);
// The JSON report (docs/bisect.md#output): stable field names, no trailing newline.
std::string render_json(const BisectReport& report);
// The Markdown report (docs/bisect.md#output): the text report's lines as one table, then the
// same closing line.
std::string render_markdown(const BisectReport& report);

}  // namespace benchhist::bisect
