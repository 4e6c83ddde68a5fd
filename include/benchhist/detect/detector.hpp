#pragma once
// The way in for an embedder: a Series you own, a Detector that judges a family of them the
// way `analyze` does (history mode: calibration from the family, both detectors, the
// split-search correction, Benjamini–Hochberg at q = 10 %, ranking; branch mode: the
// excursion judge), and the Census of what was and was not judged. Header-only with
// BENCHHIST_HEADER_ONLY (detect/detail/config.hpp), else compiled into libbenchhist.
//
//   detect::Detector detector(/*threads=*/2);
//   const auto family = detector.judge_history(series);   // one call: family size, judging, BH
//   for (const auto& f : family.result.findings) ...       // ranked findings (series index + candidate)
//   const Census census = detect::census_of(family);       // judged / unjudged by reason

#include <cstddef>
#include <optional>
#include <span>
#include <vector>

#include "benchhist/detect/branch.hpp"
#include "benchhist/detect/history.hpp"
#include "benchhist/model/series.hpp"
#include "benchhist/model/verdict.hpp"

namespace benchhist::detect {

// One series of one benchmark metric, owned. Values are in the metric's unit
// (unit_of(key.kind), model/metric.hpp): nanoseconds for wall_time and processor_time, bytes
// for allocated_bytes and peak_outstanding_bytes, a count otherwise. Lower is better.
struct Series {
  SeriesKey key;                                    // identity; breaks ranking ties (docs/statistics.md#ranking-and-determinism)
  std::vector<double> values;                       // oldest first, one per run, in the metric's unit
  std::vector<std::optional<Interval>> intervals;   // empty, or one per value (same unit)
  std::size_t active_start = 0;                     // first point after a blessing (index into values)

  // The non-owning view the detectors take; valid while this Series lives.
  SeriesInput input() const noexcept { return SeriesInput{values, intervals, key.kind, active_start}; }
};

// Judges families of series. Results are the same for every thread count. A Detector holds no
// state but its thread count: one may be shared by threads, each judging its own family.
class Detector {
 public:
  explicit Detector(unsigned threads = 1) noexcept : threads_(threads == 0 ? 1 : threads) {}
  unsigned threads() const noexcept { return threads_; }

  // History mode on one family (all series of one analysis): the family size m is the number
  // of series history testability judges, each series is judged with the calibration for m,
  // then the direction filter (regressions only), Benjamini–Hochberg and the
  // docs/statistics.md#ranking-and-determinism ranking. judgements[i] belongs to family[i];
  // findings name their series by that index.
  // Throws Error{usage} when a series has intervals that are neither empty nor one per value, a
  // value that is not finite, or an interval that is inverted or not finite, naming the series
  // and the point (judge_history_family); Error{internal} on a bug.
  HistoryFamily judge_history(std::span<const Series> family) const {
    std::vector<SeriesInput> inputs;
    std::vector<SeriesKey> keys;
    inputs.reserve(family.size());
    keys.reserve(family.size());
    for (const auto& s : family) {
      inputs.push_back(s.input());
      keys.push_back(s.key);
    }
    return judge_history_family(inputs, threads_, keys);
  }
  // The same on views the caller already holds (`keys`: one per series, or none).
  HistoryFamily judge_history(std::span<const SeriesInput> family, std::span<const SeriesKey> keys = {}) const {
    return judge_history_family(family, threads_, keys);
  }

  // Branch mode: one judgement per series (docs/statistics.md#branch-excursion), in input order.
  // Throws Error{usage} for non-finite or unordered inputs, as judge_branch does.
  std::vector<BranchJudgement> judge_branch(std::span<const BranchSeriesInput> series) const {
    return judge_branch_batch(series, threads_);
  }

 private:
  unsigned threads_;
};

// What was judged: one count per series, judged or unjudged by reason (docs/statistics.md#census).
inline Census census_of(const HistoryFamily& family) {
  Census c;
  for (const auto& j : family.judgements) c.add(j.unjudged);
  return c;
}
inline Census census_of(std::span<const BranchJudgement> judgements) {
  Census c;
  for (const auto& j : judgements) c.add(j.unjudged);
  return c;
}

}  // namespace benchhist::detect
