#pragma once
// `list blessings` (docs/cli.md#commands, docs/formats.md#listings-and-command-messages,
// docs/blessings.md#list-blessings): the HEAD view (records at the context commit, both storage
// forms) and the window view (`--all`: the newest blessing affecting each benchmark of the analysis
// window, which needs the runs to know the benchmarks).

#include <string>
#include <vector>

#include "benchhist/analysis/selection.hpp"
#include "benchhist/model/blessing.hpp"
#include "benchhist/pipeline/analyze.hpp"
#include "benchhist/report/list_output.hpp"
#include "benchhist/storage/object_store.hpp"

namespace benchhist::pipeline {

// A project-level record in the HEAD view, shown with its scope label (it has no single
// partition, so report::ListedBlessing cannot carry it).
struct ListedScopedBlessing {
  std::string key;
  std::string commit;
  BlessingScope scope;
  std::vector<std::string> prefixes;  // empty = all benchmarks
  std::string issued_at;              // RFC 3339
};

struct BlessingsListing {
  report::BlessingListing listing;            // partition rows, rendered by report/list_output.hpp
  std::vector<ListedScopedBlessing> scoped;   // HEAD view only; sorted by key

  // The report renderers' output, plus (when `scoped` is non-empty) a `Scoped blessings`
  // section (text, Markdown) or a `scoped_blessings` array (JSON). See docs/blessings.md.
  std::string text() const;
  std::string markdown() const;
  std::string json() const;
};

struct ListBlessingsRequest {
  analysis::SelectionRequest selection;  // project, context, base, filters, since, now, dirty
  bool all = false;                      // --all: the window view
  unsigned threads = 2;
};

// HEAD view: sidecars at the context commit in partitions the filters accept, and project-level
// records at that commit whose scope intersects scope_of(filters). Window view: the analysis
// selection (announced), its runs loaded, and per (set, benchmark) the blessing that
// reconstruction would apply (docs/pipeline.md#reconstruction: scope, prefixes, evidence line,
// greatest index wins).
// Throws Error{git} for unresolvable refs, Error{usage} for a bad --since, Error{decode, not_found}
// naming an unreadable record or run, and the store's errors.
BlessingsListing list_blessings(const ListBlessingsRequest& request, const analysis::GitTopology& git,
                                storage::ObjectStore& store, const Hooks& hooks = {});

}  // namespace benchhist::pipeline
