#pragma once
// Everything of the detection core in one include: the verdict vocabulary and series model,
// the Detector and Series (detect/detector.hpp), history and branch detection, gates, the
// split-search correction, Benjamini–Hochberg, the comparison-base lag and the census.
// Pure computation: no I/O, no clock, no git, no storage. Usable header-only with only
// `-I include` when BENCHHIST_HEADER_ONLY is defined (detect/detail/config.hpp); otherwise
// link libbenchhist. See README "Embedding". Every function here reports bad input as a
// benchhist::Error (error.hpp, included), in either build mode.

#include "benchhist/detect/branch.hpp"
#include "benchhist/detect/candidate.hpp"
#include "benchhist/detect/census.hpp"
#include "benchhist/detect/detector.hpp"
#include "benchhist/detect/drift_shape.hpp"
#include "benchhist/detect/gate.hpp"
#include "benchhist/detect/history.hpp"
#include "benchhist/detect/lag.hpp"
#include "benchhist/detect/level_start.hpp"
#include "benchhist/detect/split_correction.hpp"
#include "benchhist/detect/stats.hpp"
#include "benchhist/detect/wander.hpp"
#include "benchhist/error.hpp"
#include "benchhist/model/metric.hpp"
#include "benchhist/model/series.hpp"
#include "benchhist/model/verdict.hpp"
