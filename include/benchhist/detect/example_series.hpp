#pragma once
// The catalogue of named example series: the series the documentation's figures and tables
// show (docs/detection.md, rendered by the `docs-figures` program) and the unit tests assert
// verdicts on (tests/branch/test_example_series.cpp, one row per entry). One definition feeds
// both, so a change in behaviour fails a test and leaves the documentation visibly out of date
// (`docs-figures --check`) instead of quietly wrong.
//
// Generated series use the deterministic scatter of detect/detail/scatter.hpp
// (scattered_levels: same seed name, same values on every platform). Judging goes through the
// family path `analyze` uses (judge_history_family) or the branch judge, nothing bespoke.

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "benchhist/detect/branch.hpp"
#include "benchhist/detect/history.hpp"
#include "benchhist/model/metric.hpp"

namespace benchhist::detect::examples {

struct HistoryExample {
  std::string name;       // figure and test name, e.g. `clean-step`
  std::string summary;    // what the series is, one line (figure alt text)
  std::vector<double> values;
  std::vector<std::optional<Interval>> intervals;  // empty, or one per value
  MetricKind kind = MetricKind::wall_time;
  // The number of series the analysis judged (m, docs/statistics.md#benjamini-hochberg): the
  // example plus m − 1 flat 10-point companions that raise nothing (the vectors' convention).
  std::size_t family_size = 1;
};

struct BranchExample {
  std::string name;
  std::string summary;
  std::vector<double> base;  // base levels oldest first (one per base commit)
  double tip = 0;            // the context commit's value
  MetricKind kind = MetricKind::wall_time;
};

// Every history example, in documentation order.
const std::vector<HistoryExample>& history_examples();
// Every branch example, in documentation order.
const std::vector<BranchExample>& branch_examples();
// By name.
// Throws Error{usage} (subject = name) when there is no example of that name.
const HistoryExample& history_example(std::string_view name);
const BranchExample& branch_example(std::string_view name);

// The example judged as `analyze` judges a history family: the example first, then its
// companions. The example's judgement is judgements[0]; it is reported when result.findings
// holds series 0.
HistoryFamily judge(const HistoryExample& example, unsigned threads = 1);
// True when the judged family reports the example.
bool reported(const HistoryFamily& family);

// The branch example as `analyze` hands it to the branch judge: base commits at first-parent
// indices 0…n−1 named `c0`…, the context value measured on the branch.
BranchSeriesInput branch_input(const BranchExample& example);
BranchJudgement judge(const BranchExample& example);

}  // namespace benchhist::detect::examples
