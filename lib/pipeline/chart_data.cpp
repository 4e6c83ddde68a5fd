#include "benchhist/pipeline/chart_data.hpp"

#include <map>
#include <set>

namespace benchhist::pipeline {

namespace {

report::LineCommit line_commit(const analysis::CommitInfo& c) {
  report::LineCommit out;
  out.id = c.id;
  if (c.committer_time) out.committed = format_rfc3339(*c.committer_time);
  out.subject = c.subject;
  return out;
}

}  // namespace

report::ChartData chart_data(const AnalyzeResult& result) {
  report::ChartData data;
  const auto& sel = result.selection;
  const auto& r = result.report;
  const bool branch = sel.mode == AnalysisMode::branch;
  if (branch) {
    for (const auto& c : sel.base_line) data.line.push_back(line_commit(c));
    if (!sel.line.empty()) data.line.push_back(line_commit(sel.line.back()));
  } else {
    for (const auto& c : sel.line) data.line.push_back(line_commit(c));
  }
  if (!result.reconstruction) return data;

  std::set<SeriesKey> unjudged;
  for (const auto& u : r.verbose.unjudged) unjudged.insert({u.set, u.benchmark, u.kind});
  std::map<SeriesKey, std::size_t> finding_of;
  for (std::size_t i = 0; i < r.findings.size(); ++i) {
    const auto& f = r.findings[i];
    finding_of.emplace(SeriesKey{f.set, f.benchmark, f.kind}, i);
  }
  const std::size_t base_ref_index = sel.base_line.empty() ? 0 : sel.base_line.size() - 1;
  for (const auto& s : result.reconstruction->series) {
    if (unjudged.count(s.key)) continue;
    report::SeriesSketch sk;
    sk.set = s.key.set;
    sk.benchmark = s.key.id;
    sk.kind = s.key.kind;
    if (branch) {
      for (const auto& level : s.base_window) sk.points.push_back({level.topo, level.value});
      if (s.tip) sk.points.push_back({base_ref_index + 1, s.tip->value, s.tip->dirty});
      sk.target_index = base_ref_index + 1;
    } else {
      sk.points.reserve(s.points.size());
      for (const auto& p : s.points) sk.points.push_back({p.topo, p.value, p.dirty});
      sk.target_index = sel.context_topo();
    }
    if (auto it = finding_of.find(s.key); it != finding_of.end()) sk.finding = it->second;
    data.judged.push_back(std::move(sk));
  }
  return data;
}

}  // namespace benchhist::pipeline
