#pragma once
// stderr lines derived from a report: the always-on selection announcement
// (docs/formats.md#streams) and the --verbose notes naming every unjudged series and every declined
// candidate's gate ladder. Note wording is not a contract; the announcement's shape is.

#include <string>
#include <string_view>
#include <vector>

#include "benchhist/report/analysis_report.hpp"

namespace benchhist::report {

inline constexpr std::string_view note_prefix = "[bench-history] ";

// `[bench-history] selection: engine=all, target-triple=x (auto-detected), machine-key=k
// (auto-detected); base=main (auto-detected); since=<cutoff|none> (<reason>)`.
std::string selection_announcement(const SelectionFacts&);

// One line per note, each starting with note_prefix, no trailing newline:
//   `unjudged criterion/x86_64-unknown-linux-gnu/a1b2 parse/case wall_time: too_few_points
//    (with too few points in the analyzed window; 7 points)`
//   `declined change_point candidate for <set> <id> <kind> at residual_noise:`
//   `  residual_noise: computed 5.067 · demand 5.856 · declined`
std::vector<std::string> verbose_notes(const AnalysisReport&);

}  // namespace benchhist::report
