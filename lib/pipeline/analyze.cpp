#include "benchhist/pipeline/analyze.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <map>
#include <set>

#include "benchhist/analysis/loading.hpp"
#include "benchhist/detect/history.hpp"
#include "benchhist/error.hpp"
#include "benchhist/report/hints.hpp"

namespace benchhist::pipeline {
namespace {

using Clock = std::chrono::steady_clock;

// `timing: <stage> took <x.xxx s | y.y ms>` (formats.md §6.2).
void timing(const Hooks& hooks, std::string_view stage, Clock::time_point since) {
  if (!hooks.note) return;
  const double s = std::chrono::duration<double>(Clock::now() - since).count();
  char buf[64];
  if (s >= 1.0)
    std::snprintf(buf, sizeof buf, "%.3f s", s);
  else
    std::snprintf(buf, sizeof buf, "%.1f ms", s * 1000.0);
  hooks.note("timing: " + std::string(stage) + " took " + buf);
}

report::UnjudgedReason to_report(detect::UnjudgedReason r) {
  return static_cast<report::UnjudgedReason>(static_cast<int>(r));
}

report::FindingMethod to_report(detect::Method m) {
  return m == detect::Method::change_point ? report::FindingMethod::change_point : report::FindingMethod::drift;
}

report::Direction to_report(detect::Direction d) {
  return d == detect::Direction::regression ? report::Direction::regression : report::Direction::improvement;
}

std::string short_commit(std::string_view id) { return std::string(id.substr(0, 12)); }

std::string_view subject_at(const analysis::Selection& sel, std::size_t topo) {
  const auto& line = sel.evidence_line();
  return topo < line.size() ? std::string_view(line[topo].subject) : std::string_view();
}

// One chart column per first-parent commit: the last observation at each commit (a dirty
// snapshot follows the clean run of its commit in point order).
report::FindingChart chart_of(const analysis::Series& s, std::size_t context_topo, std::optional<std::size_t> attributed) {
  report::FindingChart chart;
  for (const auto& p : s.points) {
    if (!chart.points.empty() && chart.points.back().index == p.topo)
      chart.points.back().value = p.value;
    else
      chart.points.push_back({p.topo, p.value});
  }
  chart.target_index = context_topo;
  chart.attributed_index = attributed;
  return chart;
}

std::vector<report::GateRow> gate_rows(const detect::GateLadder& ladder) {
  std::vector<report::GateRow> rows;
  for (const auto& g : ladder.gates())
    rows.push_back({g.name, g.threshold, g.value, g.passed ? report::GateVerdict::passed : report::GateVerdict::declined});
  return rows;
}

}  // namespace

void announce_selection(const Hooks& hooks, const analysis::DiscriminantFilters& filters,
                        const analysis::Selection& selection) {
  if (!hooks.announce) return;
  std::string text = analysis::selection_announcement(filters, selection);
  if (text.starts_with("[bench-history] ")) text.erase(0, 16);  // hooks get bare text
  hooks.announce(text);
}

std::optional<std::string> empty_selection_hint(const analysis::Selection& sel,
                                                const analysis::SelectionRequest& req) {
  const auto& c = sel.counts;
  if (c.selected != 0) return std::nullopt;
  const bool unconstrained = req.filters.engine.unconstrained() && req.filters.target_triple.unconstrained() &&
                             req.filters.machine_key.unconstrained();
  if (c.stored_runs == 0 || (c.stored_runs == c.outside_filters && unconstrained)) return report::hint_nothing_stored();
  if (c.stored_runs == c.outside_filters)
    return report::hint_nothing_matched(req.filters.engine.describe(), req.filters.target_triple.describe(),
                                        req.filters.machine_key.describe());
  return report::hint_none_entered({c.stored_runs - c.outside_filters, c.dirty_not_admitted, c.off_history, c.before_since});
}

report::SelectionFacts selection_facts(const analysis::DiscriminantFilters& filters, const analysis::Selection& sel) {
  report::SelectionFacts f;
  f.engine_filter = filters.engine.describe();
  f.target_triple_filter = filters.target_triple.describe();
  f.machine_key_filter = filters.machine_key.describe();
  f.base_name = sel.base.name;
  f.base_auto_detected = sel.base.auto_detected();
  f.show_since = true;
  if (sel.since.cutoff) f.since = format_rfc3339(*sel.since.cutoff);
  f.since_reason = std::string(analysis::to_string(sel.since.reason));
  return f;
}

AnalyzeResult analyze(const AnalyzeRequest& req, const analysis::GitTopology& git, ObjectStore& store,
                      const Hooks& hooks) {
  auto t0 = Clock::now();
  AnalyzeResult out;
  out.selection = analysis::select_objects(req.selection, git, store);
  const auto& sel = out.selection;
  announce_selection(hooks, req.selection.filters, sel);
  timing(hooks, "selection", t0);
  if (hooks.note)
    for (const auto& ex : sel.excluded) hooks.note("excluded " + ex.key + ": " + std::string(analysis::to_string(ex.stage)));

  if (sel.mode == analysis::AnalysisMode::branch)
    throw Error(ErrorKind::usage,
                "branch-mode analysis is not available in this build yet (the context " + short_commit(sel.context_commit) +
                    " is not on the base branch " + sel.base.name + ")",
                {}, {}, "analyze a commit on the base branch's first-parent history (e.g. --context " + sel.base.name + ")");

  t0 = Clock::now();
  const auto loaded = analysis::load_selection(store, sel, req.threads);
  timing(hooks, "loading " + std::to_string(sel.objects.size()) + " objects", t0);

  t0 = Clock::now();
  analysis::ReconstructionOptions ropt;
  ropt.benchmark_prefixes = req.benchmark_prefixes;
  ropt.ignore_prefixes = req.ignore_prefixes;
  auto recon = analysis::reconstruct(sel, loaded, ropt);
  timing(hooks, "reconstruction", t0);

  // Detection over every in-scope series; series are independent and judged in parallel,
  // results placed by index so nothing depends on thread timing.
  t0 = Clock::now();
  std::vector<std::vector<double>> values(recon.series.size());
  std::vector<std::vector<std::optional<Interval>>> intervals(recon.series.size());
  std::vector<detect::SeriesInput> inputs(recon.series.size());
  std::vector<detect::SeriesKey> keys(recon.series.size());
  for (std::size_t i = 0; i < recon.series.size(); ++i) {
    const auto& s = recon.series[i];
    values[i] = s.values();
    intervals[i] = s.intervals();
    inputs[i] = detect::SeriesInput{values[i], intervals[i], s.key.kind, s.active_start};
    keys[i] = detect::SeriesKey{s.key.set, s.key.id, s.key.kind};
  }
  const auto judgements = detect::judge_history_batch(inputs, req.threads);
  std::size_t family = 0;
  for (const auto& j : judgements) family += j.judged() ? 1 : 0;
  const auto family_result = detect::select_history_findings(judgements, family, keys);
  timing(hooks, "detection of " + std::to_string(recon.series.size()) + " series", t0);

  // The report.
  auto& r = out.report;
  r.project = req.selection.project;
  r.mode = report::AnalysisMode::history;
  r.context_commit = sel.context_commit;
  r.context_name = sel.context_ref;
  r.context_dirty = sel.working_tree_dirty.value_or(false);
  r.base_commit = sel.base.commit;
  r.base_name = sel.base.name;
  r.selection = selection_facts(req.selection.filters, sel);
  r.runs.runs = sel.objects.size();
  if (!sel.objects.empty()) {
    auto [lo, hi] = std::minmax_element(sel.objects.begin(), sel.objects.end(),
                                        [](const auto& a, const auto& b) { return a.topo < b.topo; });
    r.runs.oldest = lo->data.commit;
    r.runs.newest = hi->data.commit;
  }
  r.ghosts_excluded = recon.ghost_benchmarks;

  r.census.set(report::UnjudgedReason::ghost, recon.ghost_series);
  r.census.set(report::UnjudgedReason::ignored, recon.ignored.size());
  for (const auto& key : recon.ghosts)
    r.verbose.unjudged.push_back({key.set, key.id, key.kind, report::UnjudgedReason::ghost, "not measured at the context commit"});
  for (const auto& key : recon.ignored)
    r.verbose.unjudged.push_back({key.set, key.id, key.kind, report::UnjudgedReason::ignored, "matches a configured ignore prefix"});
  for (std::size_t i = 0; i < judgements.size(); ++i) {
    const auto& j = judgements[i];
    const auto& s = recon.series[i];
    if (!j.judged()) {
      const auto reason = to_report(*j.unjudged);
      r.census.set(reason, r.census.count(reason) + 1);
      r.verbose.unjudged.push_back({s.key.set, s.key.id, s.key.kind, reason,
                                    std::to_string(s.active_count()) + " points" +
                                        (s.blessed() ? " since the blessing at " + short_commit(s.blessing->commit) : "")});
      continue;
    }
    ++r.census.judged;
    for (const auto* ladder : {&j.change_point, &j.drift}) {
      if (ladder->empty() || ladder->passed()) continue;
      r.verbose.declined.push_back({s.key.set, s.key.id, s.key.kind,
                                    ladder == &j.change_point ? report::FindingMethod::change_point
                                                              : report::FindingMethod::drift,
                                    gate_rows(*ladder)});
    }
  }

  // Sets: every set with selected runs, in set order.
  std::map<DiscriminantSet, report::SetReport> sets;
  for (const auto& o : sel.objects) {
    auto& sr = sets[o.data.set()];
    sr.set = o.data.set();
    ++sr.runs;
  }
  for (const auto& s : recon.series) {
    auto& sr = sets[s.key.set];
    sr.set = s.key.set;
    ++sr.series;
  }
  for (auto& [set, sr] : sets) r.sets.push_back(sr);

  for (const auto& f : family_result.findings) {
    const auto& s = recon.series[f.series];
    const auto& c = f.candidate;
    report::Finding rf;
    rf.set = s.key.set;
    rf.benchmark = s.key.id;
    rf.kind = s.key.kind;
    rf.method = to_report(c.method);
    rf.direction = to_report(c.direction);
    rf.baseline = c.baseline;
    rf.latest = c.latest;
    rf.delta = c.delta;
    rf.relative_delta = c.relative_delta;
    const auto& p = s.points.at(c.point_index);
    rf.commit = p.commit;
    rf.commit_subject = std::string(subject_at(sel, p.topo));
    if (c.window_start_index) rf.window_start = s.points.at(*c.window_start_index).commit;
    if (s.blessing) {
      rf.blessed_at = short_commit(s.blessing->commit);
      if (s.blessing->commit_time) rf.blessed_commit_time = format_rfc3339(*s.blessing->commit_time);
    }
    rf.chance_level = c.chance_level;
    rf.adjusted_p = c.adjusted_p;
    rf.chart = chart_of(s, sel.context_topo(), p.topo);
    r.findings.push_back(std::move(rf));
  }

  r.hint = empty_selection_hint(sel, req.selection);
  if (!r.hint && recon.series.empty() && recon.ghost_series > 0) r.hint = report::hint_all_ghosts(short_commit(sel.context_commit));
  if (sel.dirty_base_tip_admitted) r.warning = report::dirty_base_warning();
  return out;
}

}  // namespace benchhist::pipeline
