#pragma once
// A history candidate (docs/statistics.md#change-point-ladder, #drift-ladder): one per series at
// most after arbitration (docs/statistics.md#arbitration).
// Indices refer to the caller's points; the caller maps them to commits.

#include <cstddef>
#include <optional>

#include "benchhist/model/verdict.hpp"

namespace benchhist::detect {

struct Candidate {
  FindingMethod method = FindingMethod::change_point;  // change_point or drift
  Direction direction = Direction::regression;
  double baseline = 0;        // in the series' unit (unit_of(kind))
  double latest = 0;          // same unit
  double delta = 0;           // latest - baseline, same unit
  // delta / baseline (a fraction: 0.25 = +25 %); ±1 when the baseline is zero (within machine
  // epsilon), where no ratio exists: detect::relative, docs/statistics.md#numeric-conventions.
  double relative_delta = 0;
  // change_point: tau within the analysed view; drift: index of the newest analysed point
  // within the view.
  std::size_t view_index = 0;
  // The same point as an index into the caller's full series (active_start and cap added):
  // change_point = first point of the after regime; drift = newest analysed point.
  std::size_t point_index = 0;
  // drift only: index (full series) of the oldest analysed point, the window start.
  std::optional<std::size_t> window_start_index;
  double chance_level = 1.0;          // already doubled (HISTORY_DETECTOR_COUNT), feeds docs/statistics.md#benjamini-hochberg
  std::optional<double> tainted_p;    // change_point only
  std::optional<double> adjusted_p;   // change_point only
};

}  // namespace benchhist::detect
