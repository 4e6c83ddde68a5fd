#pragma once
// The small example analysis the documentation shows (its census, its text report and a sample
// HTML report): the real `analyze` pipeline over an in-memory first-parent line and store whose
// series come from the example catalogue (detect/example_series.hpp).

#include "benchhist/pipeline/analyze.hpp"

namespace benchhist::figures {

// Project `textproc`, one discriminant set, 30 commits (`commit0` … `commit29`, an hour apart,
// commit 23 without any run): a step, a ramp, a flat and a returned series that are judged, a
// benchmark with four points (too few), one no longer measured at the tip (a ghost) and one
// under the configured ignore prefix `experimental/`. Chart data is attached.
pipeline::AnalyzeResult example_analysis();

}  // namespace benchhist::figures
