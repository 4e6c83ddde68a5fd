#include "benchhist/pipeline/analyze.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <map>
#include <set>

#include "benchhist/analysis/loading.hpp"
#include "benchhist/analysis/shallow.hpp"
#include "benchhist/bisect/window.hpp"
#include "benchhist/codec/key.hpp"
#include "benchhist/codec/run_json.hpp"
#include "benchhist/detect/branch.hpp"
#include "benchhist/detect/history.hpp"
#include "benchhist/detect/lag.hpp"
#include "benchhist/error.hpp"
#include "benchhist/model/text.hpp"
#include "benchhist/parallel.hpp"
#include "benchhist/report/closest.hpp"
#include "benchhist/report/hints.hpp"

namespace benchhist::pipeline {
namespace {

using Clock = std::chrono::steady_clock;

// `timing: <stage> took <x.xxx s | y.y ms>` (docs/formats.md#streams).
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
      chart.points.back() = {p.topo, p.value, p.dirty};
    else
      chart.points.push_back({p.topo, p.value, p.dirty});
  }
  chart.target_index = context_topo;
  chart.attributed_index = attributed;
  if (s.analysed_first() < s.points.size()) chart.analysed_from = s.points[s.analysed_first()].topo;
  if (s.blessing) chart.blessed_index = s.blessing->topo;
  return chart;
}

std::vector<report::GateRow> gate_rows(const detect::GateLadder& ladder) {
  std::vector<report::GateRow> rows;
  for (const auto& g : ladder.gates())
    rows.push_back({g.name, g.threshold, g.value, g.passed ? report::GateVerdict::passed : report::GateVerdict::declined});
  return rows;
}


void count_unjudged(report::AnalysisReport& r, const analysis::Series& s, UnjudgedReason why,
                    std::string evidence) {
  r.census.add(why);
  r.verbose.unjudged.push_back({s.key.set, s.key.id, s.key.kind, why, std::move(evidence)});
}

// History mode (docs/statistics.md): every series judged independently and in parallel,
// then one Benjamini–Hochberg family over all judged series, regressions only.
void judge_history(const analysis::Reconstruction& recon, const analysis::Selection& sel, const AnalyzeRequest& req,
                   report::AnalysisReport& r) {
  r.mode = AnalysisMode::history;
  const std::size_t n = recon.series.size();
  std::vector<std::vector<double>> values(n);
  std::vector<std::vector<std::optional<Interval>>> intervals(n);
  std::vector<detect::SeriesInput> inputs(n);
  std::vector<SeriesKey> keys(n);
  // The detectors' inputs, copied out of the points on the worker threads (a million points
  // on a large store). A series without any interval passes none, which the detectors treat
  // exactly like all-absent intervals.
  parallel_for(n, req.threads, [&](std::size_t i) {
    const auto& s = recon.series[i];
    values[i] = s.values();
    if (std::any_of(s.points.begin(), s.points.end(), [](const analysis::Point& p) { return p.interval.has_value(); }))
      intervals[i] = s.intervals();
    inputs[i] = detect::SeriesInput{values[i], intervals[i], s.key.kind, s.active_start};
    keys[i] = SeriesKey{s.key.set, s.key.id, s.key.kind};
  });
  const auto family = detect::judge_history_family(inputs, req.threads, keys);
  const auto& judgements = family.judgements;
  const auto& family_result = family.result;

  for (std::size_t i = 0; i < n; ++i) {
    const auto& j = judgements[i];
    const auto& s = recon.series[i];
    if (!j.judged()) {
      count_unjudged(r, s, *j.unjudged,
                     std::to_string(s.active_count()) + " points" +
                         (s.blessed() ? " since the blessing at " + short_id(s.blessing->commit) : ""));
      continue;
    }
    ++r.census.judged;
    for (const auto* ladder : {&j.change_point, &j.drift}) {
      if (ladder->empty() || ladder->passed()) continue;
      r.verbose.declined.push_back({s.key.set, s.key.id, s.key.kind,
                                    ladder == &j.change_point ? FindingMethod::change_point
                                                              : FindingMethod::drift,
                                    gate_rows(*ladder)});
    }
  }

  for (const auto& f : family_result.findings) {
    const auto& s = recon.series[f.series];
    const auto& c = f.candidate;
    report::Finding rf;
    rf.set = s.key.set;
    rf.benchmark = s.key.id;
    rf.kind = s.key.kind;
    rf.method = c.method;
    rf.direction = c.direction;
    rf.baseline = c.baseline;
    rf.latest = c.latest;
    rf.delta = c.delta;
    rf.relative_delta = c.relative_delta;
    const auto& p = s.points.at(c.point_index);
    rf.commit = p.commit;
    rf.commit_subject = std::string(subject_at(sel, p.topo));
    // Unmeasured commits before a change point: the window bisect pins it in (docs/bisect.md#reports).
    if (c.method == FindingMethod::change_point && !p.dirty)
      if (const auto w = bisect::find_window(s, p.commit.str()); w && !w->pinned())
        rf.unmeasured_before = report::UnmeasuredGap{sel.line.at(w->old_end).id, w->unmeasured()};
    if (c.window_start_index) rf.window_start = s.points.at(*c.window_start_index).commit;
    if (s.blessing) {
      rf.blessed_at = short_id(s.blessing->commit);
      if (s.blessing->commit_time) rf.blessed_commit_time = format_rfc3339(*s.blessing->commit_time);
    }
    rf.chance_level = c.chance_level;
    rf.adjusted_p = c.adjusted_p;
    rf.chart = chart_of(s, sel.context_topo(), p.topo);
    r.findings.push_back(std::move(rf));
  }
}

detect::BranchSeriesInput branch_input(const analysis::Series& s) {
  detect::BranchSeriesInput in;
  for (const auto& level : s.base_window)
    in.base.push_back({static_cast<std::int64_t>(level.topo), level.commit, level.value, level.interval});
  in.base_history_count = s.base_history_count;
  in.blessed = s.blessed();
  if (s.blessing) in.blessing_commit = s.blessing->commit;
  if (s.tip) in.tip = detect::BranchObservation{s.tip->value, s.tip->interval};
  in.kind = s.key.kind;
  return in;
}

bool carries(const Run& run, const BenchmarkId& id, MetricKind kind) {
  for (const auto& res : run.results)
    if (res.id == id) return res.find(kind) != nullptr;
  return false;
}

// Comparison-base lag (docs/statistics.md#comparison-base-lag): evidence from the loaded base runs
// first, then sibling sets' clean base runs fetched only when a finding lags.
ComparisonBaseLag lag_of(const analysis::Series& s, std::int64_t base_ref_index, std::int64_t comparison_base,
                                 const analysis::Selection& sel, const analysis::LoadedSelection& loaded,
                                 storage::ObjectStore& store) {
  std::vector<detect::SiblingCleanPoint> evidence;
  for (std::size_t i = 0; i < sel.base_objects.size(); ++i) {
    const auto& o = sel.base_objects[i];
    const auto topo = static_cast<std::int64_t>(o.topo);
    if (o.dirty() || topo <= comparison_base || topo > base_ref_index) continue;
    if (!detect::is_sibling_set(s.key.set, o.data.set())) continue;
    evidence.push_back({o.data.set(), topo, carries(*loaded.base_runs[i], s.key.id, s.key.kind)});
  }
  const detect::SiblingFetch fetch = [&]() -> std::optional<std::vector<detect::SiblingCleanPoint>> {
    std::vector<detect::SiblingCleanPoint> fetched;
    for (const auto& o : sel.sibling_base_objects) {
      const auto topo = static_cast<std::int64_t>(o.topo);
      if (o.dirty() || topo <= comparison_base || topo > base_ref_index) continue;
      if (!detect::is_sibling_set(s.key.set, o.data.set())) continue;
      const auto body = store.get(o.key);
      if (!body) return std::nullopt;
      fetched.push_back({o.data.set(), topo, carries(codec::decode_run(*body, o.key), s.key.id, s.key.kind)});
    }
    return fetched;
  };
  return detect::comparison_base_lag(base_ref_index, comparison_base, s.key.set, evidence, fetch);
}

// Branch chart (docs/formats.md#charts): the base window levels at their base-line indices, then
// the context value one past the base ref; missing recent base commits stay empty columns.
report::FindingChart branch_chart(const analysis::Series& s, std::size_t base_ref_index, double baseline, double tip,
                                  std::optional<std::size_t> regime_start_position) {
  report::FindingChart chart;
  for (const auto& level : s.base_window) chart.points.push_back({level.topo, level.value});
  chart.points.push_back({base_ref_index + 1, tip, s.tip && s.tip->dirty});
  chart.target_index = base_ref_index + 1;
  chart.attributed_index = base_ref_index + 1;
  chart.baseline = baseline;
  if (s.blessing) chart.blessed_index = s.blessing->topo;
  if (regime_start_position && *regime_start_position < s.base_window.size())
    chart.regime_start_index = s.base_window[*regime_start_position].topo;
  return chart;
}

// Branch mode (docs/statistics.md#branch-excursion, #comparison-base-lag): the context's latest run
// against the current regime of the base branch's own history, per series; the report-wide
// historical-turn comparison and the comparison-base lag per set.
void judge_branch(const analysis::Reconstruction& recon, const analysis::Selection& sel,
                  const analysis::LoadedSelection& loaded, storage::ObjectStore& store, const AnalyzeRequest& req,
                  report::AnalysisReport& r, std::map<DiscriminantSet, report::SetReport>& sets) {
  r.mode = AnalysisMode::branch;
  const std::size_t n = recon.series.size();
  std::vector<detect::BranchSeriesInput> inputs(n);
  std::vector<SeriesKey> keys(n);
  std::vector<DiscriminantSet> series_sets(n);
  for (std::size_t i = 0; i < n; ++i) {
    const auto& s = recon.series[i];
    inputs[i] = branch_input(s);
    keys[i] = SeriesKey{s.key.set, s.key.id, s.key.kind};
    series_sets[i] = s.key.set;
  }
  auto judgements = detect::judge_branch_batch(inputs, req.threads);
  const auto comparisons = detect::compare_historical_turns_by_set(inputs, judgements, series_sets);
  for (const auto& c : comparisons) {
    if (!c.comparison) continue;
    auto& sr = sets[c.set];
    sr.set = c.set;
    sr.comparison = report::BranchComparison{c.comparison->evaluated_base_commits(), c.comparison->at_least_as_much,
                                             c.comparison->series()};
  }

  for (std::size_t i = 0; i < n; ++i) {
    const auto& j = judgements[i];
    const auto& s = recon.series[i];
    if (!j.judged()) {
      count_unjudged(r, s, *j.unjudged,
                     std::to_string(s.base_window.size()) + " base commits" + (s.tip ? "" : ", no run at the context"));
      continue;
    }
    ++r.census.judged;
    if (!j.finding && !j.excursion.gates.empty())
      r.verbose.declined.push_back({s.key.set, s.key.id, s.key.kind, FindingMethod::branch_excursion,
                                    gate_rows(j.excursion.gates)});
  }

  const auto base_ref_index = static_cast<std::int64_t>(sel.base_line.empty() ? 0 : sel.base_line.size() - 1);
  std::map<DiscriminantSet, std::vector<ComparisonBaseLag>> lags;
  for (const std::size_t i : detect::rank_branch_findings(judgements, keys)) {
    const auto& s = recon.series[i];
    const auto& f = *judgements[i].finding;
    report::Finding rf;
    rf.set = s.key.set;
    rf.benchmark = s.key.id;
    rf.kind = s.key.kind;
    rf.method = FindingMethod::branch_excursion;
    rf.direction = f.direction;
    rf.baseline = f.baseline;
    rf.latest = f.latest;
    rf.delta = f.delta;
    rf.relative_delta = f.relative_delta;
    rf.commit = sel.context_commit;
    rf.commit_subject = sel.line.empty() ? std::string() : sel.line.back().subject;
    if (s.blessing) {
      rf.blessed_at = short_id(s.blessing->commit);
      if (s.blessing->commit_time) rf.blessed_commit_time = format_rfc3339(*s.blessing->commit_time);
    }
    report::BranchDetails d;
    d.reference_count = f.reference_count;
    d.reference_min = f.reference_min;
    d.reference_max = f.reference_max;
    d.excess = f.delta;
    d.relative_excess = f.relative_delta;
    d.current_regime_start = f.current_regime_start;
    d.matches_previous_regime = f.matches_previous_regime;
    d.included_in_historical_comparison = f.included_in_historical_comparison;
    rf.branch = d;
    rf.chart = branch_chart(s, static_cast<std::size_t>(base_ref_index), f.baseline, f.latest,
                            judgements[i].current_regime_start_index);
    r.findings.push_back(std::move(rf));

    const auto lag = lag_of(s, base_ref_index, f.comparison_base_index, sel, loaded, store);
    if (lag.lags()) lags[s.key.set].push_back(lag);
  }
  for (auto& [set, set_lags] : lags) {
    auto& sr = sets[set];
    sr.set = set;
    sr.lags = ordered_lags(set_lags);
  }
}

}  // namespace

void announce_selection(const Hooks& hooks, const analysis::DiscriminantFilters& filters,
                        const analysis::Selection& selection) {
  if (!hooks.announce) return;
  std::string text = analysis::selection_announcement(filters, selection);
  if (text.starts_with("[bench-history] ")) text.erase(0, 16);  // hooks get bare text
  hooks.announce(text);
}

std::vector<report::EmptyingFilter> emptying_filters(const analysis::DiscriminantFilters& filters,
                                                     std::span<const DiscriminantSet> turned_away) {
  struct Axis {
    const char* option;
    const analysis::DiscriminantFilter& filter;
    std::string_view (*segment)(const DiscriminantSet&);
    std::set<std::string> stored{};
    bool passed = false;
  };
  Axis axes[] = {
      {"--engine", filters.engine, [](const DiscriminantSet& k) { return to_string(k.engine); }},
      {"--target-triple", filters.target_triple, [](const DiscriminantSet& k) { return std::string_view(k.target_triple); }},
      {"--machine-key", filters.machine_key, [](const DiscriminantSet& k) { return std::string_view(k.machine_key); }},
  };
  for (const auto& set : turned_away)
    for (auto& a : axes) {
      const std::string_view v = a.segment(set);
      a.stored.emplace(v);
      a.passed = a.passed || a.filter.accepts(v);
    }
  std::vector<report::EmptyingFilter> out;
  for (const auto& a : axes)
    if (!a.filter.unconstrained() && !a.passed && !a.stored.empty())
      out.push_back({a.option, a.filter.describe(), {a.stored.begin(), a.stored.end()}});
  return out;
}

namespace {

// The discriminant sets of the runs the filters turned away (read from their keys).
std::vector<DiscriminantSet> filtered_out_sets(const analysis::Selection& sel) {
  std::set<DiscriminantSet> sets;
  for (const auto& e : sel.excluded)
    if (e.stage == analysis::FunnelStage::discriminant_filter)
      if (const auto key = codec::parse_data_key(e.key)) sets.insert(key->set());
  return {sets.begin(), sets.end()};
}

}  // namespace

std::vector<std::string> stored_projects(storage::ObjectStore& store, std::string_view except) {
  // Keys hold the id as a store segment (lower case): compare like with like.
  const std::string own = except.empty() ? std::string() : codec::sanitize_segment(except);
  std::vector<std::string> projects;
  std::vector<std::string> keys;
  try {
    keys = store.list("v1/");
  } catch (const Error&) {
    return {};  // only a hint's decoration: a store that cannot be listed whole leaves it out
  }
  for (const auto& key : keys) {
    // Runs only: a cache marker or a blessing alone is no history to point at.
    const auto data = codec::parse_data_key(key);
    if (!data || data->kind == codec::ObjectKind::partition_blessing) continue;
    if (data->project != own && (projects.empty() || projects.back() != data->project))
      projects.push_back(data->project);
  }
  return projects;  // the listing is sorted, so equal ids are adjacent and in order
}

namespace {

// `others` lists the other projects' ids, called only when nothing is stored for this one.
std::optional<std::string> selection_hint(const analysis::Selection& sel, const analysis::SelectionRequest& req,
                                          const storage::ObjectStore& store, const report::CommandSpelling& spelling,
                                          const std::function<std::vector<std::string>()>& others) {
  const auto& c = sel.counts;
  if (c.selected != 0) return std::nullopt;
  const bool unconstrained = req.filters.engine.unconstrained() && req.filters.target_triple.unconstrained() &&
                             req.filters.machine_key.unconstrained();
  if (c.stored_runs == 0 || (c.stored_runs == c.outside_filters && unconstrained))
    return report::hint_nothing_stored(req.project, store.describe(), spelling, others ? others() : std::vector<std::string>{});
  if (c.stored_runs == c.outside_filters)
    return report::hint_nothing_matched(req.filters.engine.describe(), req.filters.target_triple.describe(),
                                        req.filters.machine_key.describe(),
                                        emptying_filters(req.filters, filtered_out_sets(sel)));
  return report::hint_none_entered({c.stored_runs - c.outside_filters, c.dirty_not_admitted, c.off_history, c.before_since});
}

}  // namespace

std::optional<std::string> empty_selection_hint(const analysis::Selection& sel, const analysis::SelectionRequest& req,
                                                storage::ObjectStore& store, const report::CommandSpelling& spelling) {
  return selection_hint(sel, req, store, spelling, [&] { return stored_projects(store, req.project); });
}

std::optional<std::string> empty_selection_hint(const analysis::Selection& sel, const analysis::SelectionRequest& req,
                                                const storage::ObjectStore& store,
                                                const report::CommandSpelling& spelling) {
  return selection_hint(sel, req, store, spelling, {});
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

// A positional prefix that matches no benchmark of the selected runs is a mistyped filter, not an
// all-clear: analysing nothing would pass a `--fail-on regression` gate for ever. It is refused,
// naming the ids the runs do hold, closest first (docs/cli.md, "Filters and paths that match
// nothing"). Runs that do not exist yet are the empty-selection hint's business, not this check's.
void refuse_unmatched_prefixes(const AnalyzeRequest& req, const analysis::Selection& sel,
                               const analysis::Reconstruction& recon, storage::ObjectStore& store) {
  if (req.benchmark_prefixes.empty() || (sel.objects.empty() && sel.base_objects.empty())) return;
  const auto matched = [&](const std::string& prefix) {
    const auto starts = [&](const SeriesKey& k) { return k.id.qualified().starts_with(prefix); };
    return std::any_of(recon.series.begin(), recon.series.end(), [&](const auto& s) { return starts(s.key); }) ||
           std::any_of(recon.ghosts.begin(), recon.ghosts.end(), starts) ||
           std::any_of(recon.ignored.begin(), recon.ignored.end(), starts);
  };
  const auto miss = std::find_if_not(req.benchmark_prefixes.begin(), req.benchmark_prefixes.end(), matched);
  if (miss == req.benchmark_prefixes.end()) return;
  // The error path only: read the runs again for the ids they hold.
  std::vector<std::string> ids;
  try {
    const auto loaded = analysis::load_selection(store, sel, req.threads);
    for (const auto* runs : {&loaded.runs, &loaded.base_runs})
      for (const auto& run : *runs)
        if (run)
          for (const auto& result : run->results) ids.push_back(result.id.qualified());
  } catch (const Error&) {
    // An unreadable object leaves the hint without names; the refusal stands.
  }
  const auto closest = report::closest_names(*miss, ids, 5, report::Compare::prefix);
  std::sort(ids.begin(), ids.end());
  ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
  // A prefix copied from a report starts with the engine, which ids do not carry.
  std::string engine_note;
  if (const auto q = report::split_engine_qualified(*miss)) {
    const std::string engine(to_string(q->engine));
    engine_note = "a prefix matches the id without its engine (drop \"" + engine + "/\"; --engine " + engine +
                  " keeps to that engine); ";
  }
  throw Error(ErrorKind::not_found,
              "the benchmark prefix \"" + *miss + "\" matches none of the " +
                  (ids.empty() ? std::string("benchmarks") : plural(ids.size(), "benchmark")) + " in the selected runs",
              *miss, {},
              engine_note + (closest.empty() ? "check the prefix, the filters and --context"
                                             : "the closest stored ids are: " + joined(closest) +
                                                   "; drop the prefix to analyze every benchmark"));
}

// A configured ignore prefix that matches no benchmark of the selected runs ignores nothing: a
// typo, or an id copied with its engine (`bmf/parse/`), would leave the noisy benchmark judged
// without a word. Said on the announce hook, with the closest ids; the analysis goes on (the
// benchmark may simply not run in this partition). Skipped under positional prefixes and under
// explicit filter values (a CI job per engine sees only its engine's ids), which narrow the ids
// the check could see.
void warn_unmatched_ignores(const AnalyzeRequest& req, const analysis::Reconstruction& recon, const Hooks& hooks) {
  if (!hooks.announce || req.ignore_prefixes.empty() || !req.benchmark_prefixes.empty()) return;
  const auto& f = req.selection.filters;
  for (const auto* axis : {&f.engine, &f.target_triple, &f.machine_key})
    if (axis->origin == analysis::DiscriminantFilter::Origin::explicit_values) return;
  std::vector<std::string> ids;
  for (const auto& s : recon.series) ids.push_back(s.key.id.qualified());
  for (const auto* keys : {&recon.ghosts, &recon.ignored})
    for (const auto& k : *keys) ids.push_back(k.id.qualified());
  if (ids.empty()) return;
  std::sort(ids.begin(), ids.end());
  ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
  for (const auto& prefix : req.ignore_prefixes) {
    if (std::any_of(ids.begin(), ids.end(), [&](const std::string& id) { return id.starts_with(prefix); })) continue;
    std::string fix;
    if (const auto q = report::split_engine_qualified(prefix))
      fix = q->id.empty() ? "ids do not carry their engine, so an engine alone ignores nothing; to leave an engine "
                            "out of an analysis, pass --engine with the others"
                          : "ids do not carry their engine: drop \"" + std::string(to_string(q->engine)) + "/\"";
    else if (const auto closest = report::closest_names(prefix, ids, 5, report::Compare::prefix); !closest.empty())
      fix = "the closest stored ids are: " + joined(closest);
    else
      fix = "check the prefix";
    hooks.announce("warning: the [analysis] ignore prefix \"" + prefix + "\" matches none of the " +
                   plural(ids.size(), "benchmark") + " in the selected runs, so it ignores nothing; " + fix);
  }
}

AnalyzeResult analyze(const AnalyzeRequest& req, const analysis::GitTopology& git, storage::ObjectStore& store,
                      const Hooks& hooks) {
  auto t0 = Clock::now();
  AnalyzeResult out;
  out.selection = analysis::select_objects(req.selection, git, store);
  const auto& sel = out.selection;
  announce_selection(hooks, req.selection.filters, sel);
  timing(hooks, "selection", t0);
  if (hooks.note)
    for (const auto& ex : sel.excluded) hooks.note("excluded " + ex.key + ": " + std::string(analysis::to_string(ex.stage)));

  analysis::ReconstructionOptions ropt;
  ropt.benchmark_prefixes = req.benchmark_prefixes;
  ropt.ignore_prefixes = req.ignore_prefixes;
  ropt.threads = req.threads;
  const std::string objects = std::to_string(sel.objects.size() + sel.base_objects.size()) + " objects";
  // History mode turns each run into points as it is read and drops it; branch mode keeps the
  // runs, which its lag computation reads again.
  analysis::LoadedSelection loaded;
  const auto load = [&] {
    t0 = Clock::now();
    if (sel.mode == AnalysisMode::history) {
      out.reconstruction =
          std::make_shared<const analysis::Reconstruction>(analysis::load_and_reconstruct(store, sel, ropt, req.threads));
      timing(hooks, "loading and reconstruction of " + objects, t0);
    } else {
      loaded = analysis::load_selection(store, sel, req.threads);
      timing(hooks, "loading " + objects, t0);
      t0 = Clock::now();
      out.reconstruction = std::make_shared<const analysis::Reconstruction>(analysis::reconstruct(sel, loaded, ropt));
      timing(hooks, "reconstruction", t0);
    }
  };
  // An unreadable object fails the analysis (the store is immutable: corruption is news),
  // saying how many objects are affected; --skip-unreadable analyses the rest and the report
  // lists what was skipped (docs/reports.md).
  const auto unreadable = analysis::load_or_skip_unreadable(store, out.selection, req.skip_unreadable, req.threads, load);
  for (const auto& u : unreadable)
    if (hooks.announce) hooks.announce("skipped (--skip-unreadable): " + u.reason);
  const auto& recon = *out.reconstruction;
  refuse_unmatched_prefixes(req, sel, recon, store);
  warn_unmatched_ignores(req, recon, hooks);

  // The report: facts shared by both modes, then the mode's own judgement.
  auto& r = out.report;
  r.project = req.selection.project;
  r.context_commit = sel.context_commit;
  r.context_name = sel.context_ref;
  r.context_dirty = sel.working_tree_dirty.value_or(false);
  r.base_commit = sel.base.commit;
  r.base_name = sel.base.name;
  r.selection = selection_facts(req.selection.filters, sel);
  if (!sel.objects.empty()) {
    auto [lo, hi] = std::minmax_element(sel.objects.begin(), sel.objects.end(),
                                        [](const auto& a, const auto& b) { return a.topo < b.topo; });
    r.runs.oldest = lo->data.commit;
    r.runs.newest = hi->data.commit;
  }
  for (const auto& u : unreadable) r.census.skipped_unreadable.push_back(u.key);
  r.ghosts_excluded = recon.ghost_benchmarks;
  r.census.set(UnjudgedReason::ghost, recon.ghost_series);
  r.census.set(UnjudgedReason::ignored, recon.ignored.size());
  for (const auto& key : recon.ghosts)
    r.verbose.unjudged.push_back({key.set, key.id, key.kind, UnjudgedReason::ghost, "not measured at the context commit"});
  for (const auto& key : recon.ignored)
    r.verbose.unjudged.push_back({key.set, key.id, key.kind, UnjudgedReason::ignored, "matches a configured ignore prefix"});

  // Sets: every set with selected runs or in-scope series, in set order.
  std::map<DiscriminantSet, report::SetReport> sets;
  // Stored runs loaded across all sets (docs/formats.md#json-report), and per set: in branch mode
  // the base line's runs are loaded too, and those of the shared history are the same objects.
  std::set<std::string_view> base_only;  // the base line's keys that the context line lacks
  if (!sel.base_objects.empty()) {
    for (const auto& o : sel.base_objects) base_only.insert(o.key);
    for (const auto& o : sel.objects) base_only.erase(o.key);
  }
  for (const auto* objects : {&sel.objects, &sel.base_objects})
    for (const auto& o : *objects) {
      if (objects == &sel.base_objects && !base_only.count(o.key)) continue;
      auto& sr = sets[o.data.set()];
      sr.set = o.data.set();
      ++sr.runs;
    }
  r.runs.runs = sel.objects.size() + base_only.size();
  for (const auto& s : recon.series) {
    auto& sr = sets[s.key.set];
    sr.set = s.key.set;
    ++sr.series;
  }

  t0 = Clock::now();
  if (sel.mode == AnalysisMode::history)
    judge_history(recon, sel, req, r);
  else
    judge_branch(recon, sel, loaded, store, req, r, sets);
  timing(hooks, "detection of " + std::to_string(recon.series.size()) + " series", t0);
  for (auto& [set, sr] : sets) r.sets.push_back(std::move(sr));

  r.hint = empty_selection_hint(sel, req.selection, store, req.spelling);
  if (!r.hint && recon.series.empty() && recon.ghost_series > 0) {
    std::size_t newest = 0;
    for (const auto& o : sel.objects) newest = std::max(newest, o.topo);
    const bool older = !sel.objects.empty() && newest < sel.context_topo();
    // A dirty snapshot at the context, not admitted here, is why it "was never measured".
    const bool dirty_at_context = std::any_of(sel.excluded.begin(), sel.excluded.end(), [&](const auto& e) {
      if (e.stage != analysis::FunnelStage::dirty_admission) return false;
      const auto data = codec::parse_data_key(e.key);
      return data && data->commit == sel.context_commit;
    });
    r.hint = report::hint_all_ghosts(sel.context_commit, older ? std::string_view(sel.line[newest].id) : std::string_view(),
                                     req.spelling, dirty_at_context);
  }
  // Judged nothing, only because every series is too short: say how many points it takes (a
  // new user's first histories are; "too few points" alone does not say how few). Not when a
  // shallow clone's boundary left runs out: its own note names that cause and the fix, and
  // "measure more commits" would send the user measuring what is already stored.
  if (!r.hint && sel.mode == AnalysisMode::history && r.census.judged == 0 &&
      r.census.count(UnjudgedReason::too_few_points) > 0 &&
      !analysis::shallow_clone_note(sel, git, analysis::ShallowNoteFor::analyze)) {
    std::size_t longest = 0;
    for (const auto& s : recon.series)
      if (s.active_count() < min_series_points) longest = std::max(longest, s.active_count());
    r.hint = report::hint_too_few_points(longest, min_series_points, req.spelling);
  }
  if (sel.dirty_base_tip_admitted) r.warning = report::dirty_base_warning();
  else if (sel.mode == AnalysisMode::branch && r.census.judged > 0) {
    // The newest dirty snapshot at the context is the state branch mode judged (docs/reports.md);
    // the header says only whether the tree is dirty now.
    std::optional<std::int64_t> observed;
    bool clean_run = false;
    for (const auto& o : sel.objects) {
      if (o.topo != sel.context_topo()) continue;
      if (o.dirty()) observed = std::max(observed.value_or(o.data.timestamp), o.data.timestamp);
      else clean_run = true;
    }
    if (observed)
      r.warning = report::dirty_context_note(short_id(sel.context_commit),
                                             format_rfc3339_seconds(from_unix_seconds(*observed)), clean_run);
  }
  return out;
}

}  // namespace benchhist::pipeline
