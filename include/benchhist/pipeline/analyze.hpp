#pragma once
// The analysis pipeline in one place: selection → loading → reconstruction → detection →
// gates → multiplicity → census → one AnalysisReport that every Reporter renders. Git and
// storage are passed in (interfaces), so a dashboard can run the same pipeline on its own
// topology or store; the statistics underneath are the pure `detect` library.

#include <cstddef>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "benchhist/analysis/git_topology.hpp"
#include "benchhist/analysis/reconstruction.hpp"
#include "benchhist/analysis/selection.hpp"
#include "benchhist/report/hints.hpp"
#include "benchhist/report/analysis_report.hpp"
#include "benchhist/storage/object_store.hpp"

namespace benchhist::pipeline {

struct AnalyzeRequest {
  analysis::SelectionRequest selection;          // project, context, base, filters, since, now, dirty
  std::vector<std::string> benchmark_prefixes;   // analyze's positional prefixes (raw match)
  std::vector<std::string> ignore_prefixes;      // configured `[analysis] ignore`
  unsigned threads = 2;                          // loading and detection workers
  // Analyse around stored objects that cannot be read instead of failing; the report lists
  // their keys (docs/reports.md "Unreadable stored objects").
  bool skip_unreadable = false;
  // How the hints spell a command for this project (the storage option given, the configured
  // [collect] bench_command), so a suggested collect or backfill line can be pasted as is.
  report::CommandSpelling spelling;
};

// Progress and diagnostics, without the `[bench-history] ` prefix. Either may be empty.
struct Hooks {
  std::function<void(std::string_view)> announce;  // always-on announcements
  std::function<void(std::string_view)> note;      // --verbose notes and stage timings
};

struct AnalyzeResult {
  report::AnalysisReport report;
  analysis::Selection selection;
  // The series the report was judged on (a dashboard may chart them). Shared so a caller can
  // keep it beyond the report; a short-lived process can also leave it to the operating system
  // (cli/main.cpp).
  std::shared_ptr<const analysis::Reconstruction> reconstruction;
};

// Runs the whole analysis. Branch mode is derived from the topology (docs/pipeline.md#selection).
// Re-entrant: concurrent calls may share a store (every ObjectStore is thread-safe), each with
// its own GitTopology (which is not).
// Throws Error{git} for unresolvable refs or no merge base (with the shallow-clone fix), Error{usage}
// for a bad --since, Error{decode, not_found, io} naming the key of an unreadable stored object
// (unless skip_unreadable), Error{not_found} naming a benchmark prefix that matches none of the
// selected runs' benchmarks (with the closest stored ids; docs/cli.md), and the store's errors
// (network, auth).
AnalyzeResult analyze(const AnalyzeRequest& request, const analysis::GitTopology& git, storage::ObjectStore& store,
                      const Hooks& hooks = {});

// The selection facts the reports print, from the resolved filters and the selection.
report::SelectionFacts selection_facts(const analysis::DiscriminantFilters& filters,
                                       const analysis::Selection& selection);

// The always-on selection line of docs/formats.md#streams, handed to hooks.announce.
void announce_selection(const Hooks& hooks, const analysis::DiscriminantFilters& filters,
                        const analysis::Selection& selection);

// For an empty selection's hint: each constrained filter that none of the stored runs the filters
// turned away (their sets, `turned_away`) passes on its own, with the values stored on its axis.
std::vector<report::EmptyingFilter> emptying_filters(const analysis::DiscriminantFilters& filters,
                                                     std::span<const DiscriminantSet> turned_away);

// The empty-outcome hint of docs/formats.md#listings-and-command-messages when no run entered the
// selection, else nullopt.
// When nothing is stored for the project, the store is listed once more, whole, for the project
// ids it does hold (`stored_projects`): a mistyped id names the right one.
std::optional<std::string> empty_selection_hint(const analysis::Selection& selection,
                                                const analysis::SelectionRequest& request,
                                                storage::ObjectStore& store,
                                                const report::CommandSpelling& spelling = {});
// The same without the other projects' ids (a store the caller holds const is not listed).
std::optional<std::string> empty_selection_hint(const analysis::Selection& selection,
                                                const analysis::SelectionRequest& request,
                                                const storage::ObjectStore& store,
                                                const report::CommandSpelling& spelling = {});

// The project ids with stored runs (`v1/<project>/objects/…`, blessings aside), sorted, as store
// segments; `except` (a project id, compared as its segment) left out. A store that cannot be
// listed whole gives none.
std::vector<std::string> stored_projects(storage::ObjectStore& store, std::string_view except = {});

}  // namespace benchhist::pipeline
