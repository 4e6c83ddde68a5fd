#pragma once
// `examine` and `list runs`: the same selection as analyze, onto raw recorded data. examine
// applies no ghost filter, no ignore prefixes and no blessings, and runs no detection
// (docs/cli.md#commands): hiding points in a drill-down would defeat its purpose.

#include <string>

#include "benchhist/pipeline/analyze.hpp"
#include "benchhist/report/examine_output.hpp"
#include "benchhist/report/list_output.hpp"

namespace benchhist::pipeline {

struct ExamineRequest {
  analysis::SelectionRequest selection;
  std::string benchmark;  // exact qualified id
  MetricKind metric = MetricKind::wall_time;
  unsigned threads = 2;
  // As AnalyzeRequest::skip_unreadable; the skipped keys go into the output's warning.
  bool skip_unreadable = false;
  report::CommandSpelling spelling;  // as AnalyzeRequest::spelling: how an empty selection's hint spells commands
};

// Rows per matching set for every first-parent commit from the earliest observation through
// the context commit, `n/a` where the set has none (docs/formats.md#listings-and-command-messages).
// Throws as analyze does (git, usage, decode/not_found/io for an unreadable object unless
// skip_unreadable, the store's errors).
report::ExamineData examine(const ExamineRequest& request, const analysis::GitTopology& git, storage::ObjectStore& store,
                            const Hooks& hooks = {});

// Per-set run, series and commit counts of the selection
// (docs/formats.md#listings-and-command-messages).
// `skip_unreadable` as AnalyzeRequest::skip_unreadable: the skipped objects leave the counts and
// their keys go into the listing's warning.
// Throws as analyze does (decode/not_found/io for an unreadable object unless skip_unreadable).
report::RunListing list_runs(const analysis::SelectionRequest& request, const analysis::GitTopology& git,
                             storage::ObjectStore& store, unsigned threads, const Hooks& hooks = {},
                             bool skip_unreadable = false, const report::CommandSpelling& spelling = {});

}  // namespace benchhist::pipeline
