// The JSON report (docs/formats.md#report-formats).

#include "benchhist/report/json_reporter.hpp"

#include "benchhist/codec/json_writer.hpp"
#include "benchhist/report/value_format.hpp"
#include "render_common.hpp"

namespace benchhist::report {

namespace {

template <class T>
void optional_member(codec::json::Writer& j, std::string_view k, const std::optional<T>& v) {
  if (v) j.member(k, *v);
}

void set_identity(codec::json::Writer& j, const DiscriminantSet& s) {
  j.member("engine", to_string(s.engine));
  j.member("target_triple", s.target_triple);
  j.member("machine_key", s.machine_key);
}

void finding(codec::json::Writer& j, const Finding& f) {
  j.begin_object();
  set_identity(j, f.set);
  j.key("segments").begin_array();
  for (const auto& seg : f.benchmark.segments()) j.value(seg);
  j.end_array();
  j.member("kind", to_string(f.kind));
  j.member("method", to_string(f.method));
  j.member("direction", to_string(f.direction));
  j.member("baseline", f.baseline);
  j.member("latest", f.latest);
  j.member("relative_delta", f.relative_delta);
  optional_member(j, "commit", f.commit);
  if (f.method == FindingMethod::drift) optional_member(j, "window_start", f.window_start);
  if (f.blessed_at) j.member("blessed_at", std::string(short_id(*f.blessed_at)));
  optional_member(j, "blessed_commit_time", f.blessed_commit_time);
  if (f.branch) {
    const auto& b = *f.branch;
    j.key("branch").begin_object();
    j.member("reference_count", b.reference_count);
    j.member("reference_min", b.reference_min);
    j.member("reference_max", b.reference_max);
    j.member("excess", b.excess);
    j.member("relative_excess", b.relative_excess);
    optional_member(j, "current_regime_start", b.current_regime_start);
    j.member("matches_previous_regime", b.matches_previous_regime);
    j.member("included_in_historical_comparison", b.included_in_historical_comparison);
    j.end_object();
  }
  j.end_object();
}

}  // namespace

std::string JsonReporter::render(const AnalysisReport& r) const {
  r.check();
  codec::json::Writer j;
  const auto& c = r.census;
  j.begin_object();
  j.member("project", r.project);
  j.member("tip_commit", r.context_commit);
  j.member("tip_dirty", r.context_dirty);
  j.member("mode", to_string(r.mode));
  j.member("outcome", to_string(r.outcome()));
  j.member("notable", r.notable());
  j.member("runs", r.runs.runs);
  j.member("series", c.in_scope());
  j.member("regressions", r.regressions());
  if (r.reports_improvements()) j.member("improvements", r.improvements());
  j.member("ghosts_excluded", r.ghosts_excluded);
  j.key("census").begin_object();
  j.member("total", c.total());
  j.member("in_scope", c.in_scope());
  j.member("judged", c.judged);
  j.member("unjudged", c.unjudged());
  j.member("coverage", to_string(c.coverage()));
  j.key("reasons").begin_array();
  for (auto reason : all_unjudged_reasons) {
    if (c.count(reason) == 0) continue;
    j.begin_object().member("reason", to_string(reason)).member("count", c.count(reason)).end_object();
  }
  j.end_array();
  // Only when --skip-unreadable left objects out, so existing consumers see no change.
  if (!c.skipped_unreadable.empty()) {
    j.key("skipped_unreadable").begin_array();
    for (const auto& k : c.skipped_unreadable) j.value(k);
    j.end_array();
  }
  j.end_object();
  if (r.hint && !r.hint->empty()) j.member("hint", *r.hint);
  if (r.warning && !r.warning->empty()) j.member("warning", *r.warning);
  j.key("findings").begin_array();
  for (const auto& f : r.findings) finding(j, f);
  j.end_array();
  j.key("sets").begin_array();
  for (const auto* sp : detail::ordered_sets(r)) {
    const auto& s = *sp;
    j.begin_object();
    set_identity(j, s.set);
    j.member("runs", s.runs);
    j.member("series", s.series);
    j.member("regressions", r.regressions_in(s.set));
    if (r.reports_improvements()) j.member("improvements", r.improvements_in(s.set));
    if (const auto lags = ordered_lags(s.lags); !lags.empty()) {
      j.key("comparison_base_lags").begin_array();
      for (const auto& lag : lags)
        j.begin_object().member("commits_behind", lag.commits_behind).member("reason", to_string(*lag.reason)).end_object();
      j.end_array();
    }
    if (r.mode == AnalysisMode::branch && s.comparison) {
      j.key("branch_comparison").begin_object();
      j.member("evaluated_base_commits", s.comparison->evaluated_base_commits);
      j.member("at_least_as_much", s.comparison->at_least_as_much);
      j.member("series", s.comparison->series);
      j.end_object();
    }
    j.end_object();
  }
  j.end_array();
  j.end_object();
  return j.take();
}

}  // namespace benchhist::report
