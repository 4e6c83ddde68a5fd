#pragma once
// The graphical reports' extra input (report::ChartData) from a finished analysis: the commit
// line the chart indices refer to and every judged series. The text, Markdown and JSON reports
// never need it, so `analyze` builds it only when an HTML report is requested.

#include "benchhist/pipeline/analyze.hpp"
#include "benchhist/report/analysis_report.hpp"

namespace benchhist::pipeline {

// History: the context line and each judged series' full point list (pre-blessing context
// included). Branch: the base ref's line followed by the context commit, and each judged
// series' base window levels followed by its context value at base-ref index + 1 (the indices
// the branch finding charts use). Judged = in the reconstruction and not counted unjudged.
report::ChartData chart_data(const AnalyzeResult& result);

}  // namespace benchhist::pipeline
