#pragma once
// History mode (docs/pipeline.md#reconstruction, docs/statistics.md).
// Implementation of detect/history.hpp, compiled by lib/detect/history.cpp (or inline
// everywhere with BENCHHIST_HEADER_ONLY, see detect/detail/config.hpp).

#include "benchhist/detect/detail/config.hpp"
#include "benchhist/detect/history.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <optional>
#include <sstream>
#include <string>

#include "benchhist/detect/detail/analytic_bound.hpp"
#include "benchhist/detect/detail/split_search.hpp"
#include "benchhist/detect/drift_shape.hpp"
#include "benchhist/detect/level_start.hpp"
#include "benchhist/detect/stats.hpp"
#include "benchhist/detect/wander.hpp"
#include "benchhist/error.hpp"
#include "benchhist/model/text.hpp"
#include "benchhist/parallel.hpp"

namespace benchhist::detect {

BENCHHIST_DETECT_INLINE double absolute_floor(MetricKind kind) noexcept {
  switch (kind) {
    case MetricKind::wall_time:
    case MetricKind::processor_time: return 1.0;  // 1 ns
    case MetricKind::instruction_count:
    case MetricKind::conditional_branches:
    case MetricKind::indirect_branches: return 5.0;
    case MetricKind::allocated_bytes:
    case MetricKind::allocation_count:
    case MetricKind::peak_outstanding_bytes: return 1.0;
  }
  return 1.0;
}

BENCHHIST_DETECT_INLINE AnalysedView analysed_view(const SeriesInput& s) noexcept {
  AnalysedView v;
  const std::size_t start = std::min(s.active_start, s.values.size());
  const std::size_t active = s.values.size() - start;
  v.length = std::min(active, max_series_points);
  v.offset = start + (active - v.length);
  return v;
}

BENCHHIST_DETECT_INLINE std::optional<UnjudgedReason> history_testability(const SeriesInput& s) noexcept {
  ReasonInputs in;
  in.mode = AnalysisMode::history;
  in.active_start = s.active_start;
  in.active_points = s.values.size() - std::min(s.active_start, s.values.size());
  return unjudged_reason(in);
}

namespace detail {
BENCHHIST_DETAIL_BEGIN
BENCHHIST_DETAIL_INLINE std::vector<double> slice(std::span<const double> x, std::size_t from, std::size_t to) {
  return std::vector<double>(x.begin() + static_cast<std::ptrdiff_t>(from), x.begin() + static_cast<std::ptrdiff_t>(to));
}
BENCHHIST_DETAIL_INLINE bool any_interval(std::span<const std::optional<Interval>> iv) {
  return std::any_of(iv.begin(), iv.end(), [](const auto& i) { return i.has_value(); });
}
BENCHHIST_DETAIL_END
}  // namespace detail

BENCHHIST_DETECT_INLINE ChangePointStage change_point_cheap_gates(std::span<const double> x,
                                          std::span<const std::optional<Interval>> intervals, MetricKind kind,
                                          detail::Departures dep, const detail::SharedExactTables* shared_tables) {
  ChangePointStage st;
  auto& l = st.ladder;
  const std::size_t n = x.size();
  if (!l.check("split_located", std::nullopt, std::nullopt, n >= 2)) return st;  // a split needs two points
  const std::vector<std::int64_t> ranks = doubled_ranks(x);
  const std::size_t m = min_regime_points;
  // Persistence: the most likely split (S3, always admissible once n >= 2 min_regime), else Pettitt's.
  const bool searched = dep.min_p_search && n >= 2 * m;
  std::size_t persistent = 0;
  if (searched) {
    detail::Scorer sc = detail::make_scorer(ranks, m, detail::max_exact_size(n, m), shared_tables);
    persistent = detail::most_likely_split(sc, ranks).index;
  } else {
    persistent = pettitt_from_ranks(ranks).index;
  }
  std::size_t shorter = std::min(persistent, n - persistent);
  // Where the new level begins: S2 refines the coarse split (the searched one, or without S3 the
  // standardised one) with two medians (docs/divergences.md). The refinement may leave the
  // admissible splits: a level that begins 4 points from an end is not yet (or no longer) a
  // regime, and is declined here rather than attributed to the nearest admissible commit, which
  // measured the other level.
  std::size_t tau = persistent;
  if (shorter >= m && dep.level_start_split) {
    tau = two_median_refinement(x, searched ? persistent : standardised_split(ranks, m), 1);
    shorter = std::min(shorter, std::min(tau, n - tau));
  }
  if (!l.check("min_regime", static_cast<double>(shorter), static_cast<double>(m), shorter >= m)) return st;
  st.level_start = tau;
  const double baseline = median(detail::slice(x, 0, tau));
  const double latest = median(detail::slice(x, tau, n));
  const double delta = latest - baseline;
  const double abs_delta = std::fabs(delta);
  if (!l.check("non_zero_delta", abs_delta, 0.0, abs_delta > 0)) return st;
  const double rel = relative(delta, baseline);
  if (!l.check("relative_floor", std::fabs(rel), practical_relative, std::fabs(rel) >= practical_relative)) return st;
  const double floor = absolute_floor(kind);
  if (!l.check("absolute_floor", abs_delta, floor, abs_delta >= floor)) return st;
  st.step_residual = step_residual(x, tau);
  if (st.step_residual) {  // fail-open and unlogged when undefined (docs/detection.md#4-the-gates)
    double demand = residual_noise_multiple * *st.step_residual;
    if (dep.wander_guard) {  // S4: wander raises the demand by sqrt((1 + rho) / (1 - rho))
      std::vector<double> residuals(n);
      for (std::size_t i = 0; i < n; ++i) residuals[i] = x[i] - (i < tau ? baseline : latest);
      const double rho = wander_rho(x, residuals, tau - 1);  // without the difference across the split
      if (rho > 0) demand *= std::sqrt((1 + rho) / (1 - rho));
    }
    if (!l.check("residual_noise", abs_delta, demand, abs_delta > demand)) return st;
  }
  {
    // mann_whitney(x[0..tau), x[tau..n)).superiority, from the series' own ranks (the joint
    // ranking of the two sides is the series' ranking): the same operations, so the same bits,
    // without the exact p's tables that this gate never reads.
    std::int64_t d_left = 0;
    for (std::size_t i = 0; i < tau; ++i) d_left += ranks[i];
    const auto a = static_cast<double>(tau), b = static_cast<double>(n - tau);
    const double u_left = static_cast<double>(d_left) / 2 - a * (a + 1) / 2;
    const double s = (a * b - u_left) / (a * b);
    const double oriented = delta >= 0 ? s : 1 - s;
    if (!l.check("regime_separation", oriented, min_regime_separation, oriented >= min_regime_separation)) return st;
  }
  if (dep.current_level) {  // S5: the last MIN_REGIME points are still nearer the new level
    const double now = median(detail::slice(x, n - std::min(n, m), n));
    const double where = (now - baseline) / delta;
    if (!l.check("current_level", where, current_level_share, where >= current_level_share)) return st;
  }
  if (!intervals.empty()) {
    const auto bi = regime_interval(intervals.subspan(0, tau));
    const auto ai = regime_interval(intervals.subspan(tau));
    if (bi && ai) {  // skipped and unlogged unless both regimes carry one
      const bool disjoint = ai->high < bi->low || ai->low > bi->high;
      if (!l.check("interval_disjoint", std::nullopt, std::nullopt, disjoint)) return st;
    }
  }
  Candidate c;
  c.method = FindingMethod::change_point;
  c.direction = direction_of(delta);
  c.baseline = baseline;
  c.latest = latest;
  c.delta = delta;
  c.relative_delta = rel;
  c.view_index = tau;
  st.candidate = c;
  return st;
}

BENCHHIST_DETECT_INLINE DriftStage drift_detector(std::span<const double> x, std::span<const std::optional<Interval>> intervals,
                          MetricKind kind, detail::Departures dep, std::optional<std::size_t> level_start) {
  DriftStage st;
  auto& l = st.ladder;
  const std::size_t n = x.size();
  if (!l.check("min_series_points", static_cast<double>(n), static_cast<double>(min_series_points),
               n >= min_series_points))
    return st;
  double chance = std::min(history_detector_count * mann_kendall(x).p_value, 1.0);
  std::optional<TheilSen> fitted;
  // S4 can only weaken the trend, so it is asked only of a trend that would pass (and Theil-Sen,
  // needed for its residuals, is then needed anyway).
  if (dep.wander_guard && chance < max_change_chance_level && n >= wander_min_points) {
    fitted = theil_sen(x);
    std::vector<double> residuals(n);
    for (std::size_t i = 0; i < n; ++i)
      residuals[i] = x[i] - (fitted->intercept + fitted->slope * static_cast<double>(i));
    const double rho = wander_rho(x, residuals);
    if (rho > 0) chance = std::min(history_detector_count * mann_kendall(x, hamed_rao_factor(n, rho)).p_value, 1.0);
  }
  if (!l.check("significance", chance, max_change_chance_level, chance < max_change_chance_level)) return st;
  const TheilSen line = fitted ? *fitted : *theil_sen(x);
  const double baseline = line.intercept;
  const double latest = line.intercept + line.slope * static_cast<double>(n - 1);
  const double delta = latest - baseline;
  const double abs_delta = std::fabs(delta);
  if (!l.check("non_zero_delta", abs_delta, 0.0, delta != 0)) return st;
  const double rel = relative(delta, baseline);
  if (!l.check("relative_floor", std::fabs(rel), practical_relative, std::fabs(rel) >= practical_relative)) return st;
  const double floor = absolute_floor(kind);
  if (!l.check("absolute_floor", abs_delta, floor, abs_delta >= floor)) return st;
  st.line_residual = line_residual(x, line);
  if (st.line_residual) {
    const double demand = residual_noise_multiple * *st.line_residual;
    if (!l.check("residual_noise", abs_delta, demand, abs_delta > demand)) return st;
  }
  // S5 for the line too (docs/divergences.md#s5--the-current-level): an excursion that came back
  // is no trend either. The line's own intercept is pulled down by the excursion it fits, so the
  // current level is placed between where the series started (its first five points) and the
  // line's latest value.
  if (dep.current_level) {
    const std::size_t m = std::min(n, min_regime_points);
    const double start = median(detail::slice(x, 0, m));
    const double now = median(detail::slice(x, n - m, n));
    const double where = (now - start) / (latest - start);
    if (!l.check("current_level", where, current_level_share, where >= current_level_share)) return st;
  }
  // S6 (docs/divergences.md#s6--a-drift-is-a-slope-not-a-step): a step at the noise limit is no
  // trend either; a trend keeps rising within the two levels the change-point ladder found.
  if (dep.drift_shape && level_start) {
    if (const auto demand = drift_shape_demand(x, line.slope, *level_start))
      if (const auto share = drift_within_levels_share(x, *demand, *level_start))
        if (!l.check("slope_within_levels", *share, drift_within_share, *share >= drift_within_share)) return st;
  }
  if (detail::any_interval(intervals)) {
    if (const auto h = median_half_width(intervals)) {
      const double demand = noise_band_multiple * *h;
      if (!l.check("interval_noise_band", abs_delta, demand, abs_delta > demand)) return st;
    }
  }
  Candidate c;
  c.method = FindingMethod::drift;
  c.direction = direction_of(delta);
  c.baseline = baseline;
  c.latest = latest;
  c.delta = delta;
  c.relative_delta = rel;
  c.view_index = n - 1;
  c.chance_level = chance;
  st.candidate = c;
  return st;
}

BENCHHIST_DETECT_INLINE HistoryJudge::HistoryJudge(std::size_t family_size, detail::Departures departures)
    : family_size_(std::max<std::size_t>(family_size, 1)),
      departures_(departures),
      calibration_(history_calibration(family_size_, departures)) {}

namespace detail {

// What makes a series unfit to judge, or nullopt. Stored runs hold finite values (JSON has no
// NaN); a NaN or an infinity here would silently shift every rank and midpoint (one NaN turned a
// clean +15 % step into "clean"), and an inverted or non-finite interval would decide the
// separation gates. A negative value is judged: ranks and medians are defined for it (the
// accuracy scorecard's heavy-tailed noise crosses zero), only a relative size against a
// negative baseline reads with its sign turned.
BENCHHIST_DETECT_INLINE std::optional<std::string> series_input_problem(const SeriesInput& s) {
  const auto shown = [](double v) {
    std::ostringstream os;
    os << v;
    return os.str();
  };
  if (!s.intervals.empty() && s.intervals.size() != s.values.size())
    return "intervals do not match its values: " + plural(s.intervals.size(), "interval") + " for " +
           plural(s.values.size(), "value");
  // Equal to the size is a blessing newer than every point (nothing active); past it, a caller's bug
  // that used to be judged silently as "too few points since the blessing".
  if (s.active_start > s.values.size())
    return "active_start " + std::to_string(s.active_start) + " is past the end of its " +
           plural(s.values.size(), "value");
  for (std::size_t i = 0; i < s.values.size(); ++i) {
    const double v = s.values[i];
    if (!std::isfinite(v)) return "value at point " + std::to_string(i) + " is not a finite number (" + shown(v) + ")";
  }
  for (std::size_t i = 0; i < s.intervals.size(); ++i) {
    const auto& iv = s.intervals[i];
    if (!iv) continue;
    const auto defect = interval_defect(*iv);
    if (defect == IntervalDefect::not_finite)
      return "interval at point " + std::to_string(i) + " has a bound that is not a finite number";
    if (defect == IntervalDefect::inverted)
      return "interval at point " + std::to_string(i) + " is inverted (low " + shown(iv->low) + " > high " +
             shown(iv->high) + ")";
  }
  return std::nullopt;
}

// The SeriesInput field a problem is in.
inline const char* series_input_subject(const std::string& problem) {
  if (problem.starts_with("active_start")) return "SeriesInput.active_start";
  return problem.starts_with("interval") ? "SeriesInput.intervals" : "SeriesInput.values";
}

// What to do about a problem series_input_problem found.
inline const char* series_input_hint(const std::string& problem) {
  if (problem.starts_with("intervals do not match")) return "pass one optional interval per value, or none at all";
  if (problem.starts_with("active_start"))
    return "pass the index of the first point at or after the blessed commit (analysis::history_active_start), at most "
           "the number of values, or 0 without a blessing";
  return "pass finite measurements in unit_of(kind), as stored runs hold them, and intervals with low <= high; leave a "
         "failed measurement out of the series instead of passing NaN";
}

inline void check_ranking_keys(std::span<const SeriesKey> keys, std::size_t series) {
  if (!keys.empty() && keys.size() != series)
    throw Error(ErrorKind::usage,
                "ranking keys do not match the judged series: " + plural(keys.size(), "key") + " for " +
                    plural(series, "series"),
                "select_history_findings(keys)", {}, "pass one SeriesKey per series, in the same order, or none");
}

}  // namespace detail

BENCHHIST_DETECT_INLINE HistoryJudgement HistoryJudge::judge(const SeriesInput& s) const {
  if (const auto problem = detail::series_input_problem(s))
    throw Error(ErrorKind::usage, "series " + *problem, detail::series_input_subject(*problem), {},
                detail::series_input_hint(*problem));
  HistoryJudgement j;
  j.unjudged = history_testability(s);
  j.view = analysed_view(s);
  if (j.unjudged) return j;
  const auto x = s.values.subspan(j.view.offset, j.view.length);
  const auto iv = s.intervals.empty() ? s.intervals : s.intervals.subspan(j.view.offset, j.view.length);

  ChangePointStage cp = change_point_cheap_gates(x, iv, s.kind, departures_, calibration_.shared_tables.get());
  DriftStage dr = drift_detector(x, iv, s.kind, departures_, cp.level_start);
  std::optional<Candidate> drift_candidate = dr.candidate;
  if (drift_candidate) {
    drift_candidate->point_index = j.view.offset + drift_candidate->view_index;
    drift_candidate->window_start_index = j.view.offset;
  }
  // Arbitration (docs/statistics.md#arbitration): a strictly smaller line residual makes drift the
  // model; the change point is then abandoned without its selection adjustment.
  bool run_change_point = cp.candidate.has_value();
  if (cp.candidate && drift_candidate) {
    const double step = cp.step_residual.value_or(0);
    const double line = dr.line_residual.value_or(0);
    if (line < step) run_change_point = false;
  }
  if (run_change_point) {
    const auto sel = split_corrected_change_point(x, calibration_);
    if (!sel) throw Error(ErrorKind::internal, "selection adjustment found no reportable split after min_regime passed",
                          "detect/history", {}, "report this as a bug with the series values");
    j.tainted_p = sel->tainted_p;
    j.adjusted_p = sel->adjusted_p;
    cp.ladder.check("selection_adjustment", sel->adjusted_p, sel->tainted_p, true);
    const double chance = std::min(history_detector_count * sel->adjusted_p, 1.0);
    if (cp.ladder.check("significance", chance, max_change_chance_level, chance < max_change_chance_level)) {
      Candidate c = *cp.candidate;
      c.point_index = j.view.offset + c.view_index;
      c.chance_level = chance;
      c.tainted_p = sel->tainted_p;
      c.adjusted_p = sel->adjusted_p;
      j.candidate = c;
    } else {
      j.candidate = drift_candidate;  // fallback (docs/statistics.md#arbitration)
    }
  } else {
    j.candidate = drift_candidate;
  }
  j.change_point = std::move(cp.ladder);
  j.drift = std::move(dr.ladder);
  return j;
}

BENCHHIST_DETECT_INLINE std::size_t history_family_size(std::span<const SeriesInput> series) noexcept {
  std::size_t m = 0;
  for (const auto& s : series)
    if (!history_testability(s)) ++m;
  return m;
}

BENCHHIST_DETECT_INLINE std::vector<HistoryJudgement> judge_history_batch(std::span<const SeriesInput> series, unsigned threads,
                                                  std::optional<std::size_t> family_size,
                                                  detail::Departures departures) {
  const HistoryJudge judge(family_size.value_or(history_family_size(series)), departures);
  std::vector<HistoryJudgement> out(series.size());
  parallel_for(series.size(), threads, [&](std::size_t i) { out[i] = judge.judge(series[i]); });
  return out;
}

BENCHHIST_DETECT_INLINE double bh_rank_threshold(std::size_t rank, std::size_t family_size, double q) noexcept {
  return (static_cast<double>(rank) / static_cast<double>(family_size)) * q;
}

BENCHHIST_DETECT_INLINE std::vector<bool> benjamini_hochberg(std::span<const double> chance_levels, std::size_t family_size, double q) {
  const std::size_t c = chance_levels.size();
  // A caller's arguments, checked: a NaN or a q outside (0, 1] would keep or drop silently.
  if (!(q > 0.0 && q <= 1.0))
    throw Error(ErrorKind::usage, "false-discovery rate q must lie in (0, 1]", "detect/benjamini_hochberg", {},
                "pass the target rate, e.g. target_false_discovery_rate (0.05)");
  for (std::size_t i = 0; i < c; ++i)
    if (std::isnan(chance_levels[i]))
      throw Error(ErrorKind::usage, "chance level " + std::to_string(i) + " is not a number",
                  "detect/benjamini_hochberg", {}, "pass each candidate's chance level (its p-value)");
  std::vector<bool> keep(c, false);
  if (c == 0) return keep;
  if (family_size < c)
    throw Error(ErrorKind::usage,
                "false-discovery family of " + std::to_string(family_size) + " is smaller than its " +
                    std::to_string(c) + " candidates",
                "detect/benjamini_hochberg", {}, "the family must count every judged series (docs/statistics.md#benjamini-hochberg)");
  std::vector<std::size_t> order(c);
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    return total_less(chance_levels[a], chance_levels[b]);
  });
  std::size_t kept = 0;
  for (std::size_t k = 1; k <= c; ++k)
    if (chance_levels[order[k - 1]] <= bh_rank_threshold(k, family_size, q)) kept = k;
  for (std::size_t k = 0; k < kept; ++k) keep[order[k]] = true;
  return keep;
}

BENCHHIST_DETECT_INLINE bool finding_ranks_before(const Finding& a, const Finding& b, std::span<const SeriesKey> keys) {
  const auto ka = total_order_key(std::fabs(a.candidate.relative_delta));
  const auto kb = total_order_key(std::fabs(b.candidate.relative_delta));
  if (ka != kb) return ka > kb;  // larger relative move first
  if (a.candidate.method != b.candidate.method) return a.candidate.method < b.candidate.method;
  if (!keys.empty()) {
    const auto c = keys[a.series] <=> keys[b.series];
    if (c != 0) return c < 0;
  }
  return a.series < b.series;
}

BENCHHIST_DETECT_INLINE FamilyResult select_history_findings(std::span<const HistoryJudgement> judgements, std::size_t family_size,
                                     std::span<const SeriesKey> keys) {
  detail::check_ranking_keys(keys, judgements.size());
  FamilyResult r;
  r.family_size = family_size;
  r.dropped.assign(judgements.size(), std::nullopt);
  std::vector<std::size_t> regressions;
  std::vector<double> chances;
  for (std::size_t i = 0; i < judgements.size(); ++i) {
    const auto& c = judgements[i].candidate;
    if (!c) continue;
    if (c->direction != Direction::regression) {  // filtered before correction (docs/statistics.md#benjamini-hochberg)
      r.dropped[i] = DropReason::direction_filter;
      continue;
    }
    regressions.push_back(i);
    chances.push_back(c->chance_level);
  }
  const auto keep = benjamini_hochberg(chances, family_size, target_false_discovery_rate);
  for (std::size_t j = 0; j < regressions.size(); ++j) {
    if (keep[j]) r.findings.push_back(Finding{regressions[j], *judgements[regressions[j]].candidate});
    else r.dropped[regressions[j]] = DropReason::benjamini_hochberg;
  }
  std::sort(r.findings.begin(), r.findings.end(),
            [&](const Finding& a, const Finding& b) { return finding_ranks_before(a, b, keys); });
  return r;
}

BENCHHIST_DETECT_INLINE HistoryFamily judge_history_family(std::span<const SeriesInput> series, unsigned threads,
                                   std::span<const SeriesKey> keys, detail::Departures departures) {
  HistoryFamily f;
  const std::size_t m = history_family_size(series);
  detail::check_ranking_keys(keys, series.size());  // before judging: a mismatch wastes the whole family's work
  try {
    f.judgements = judge_history_batch(series, threads, m, departures);
  } catch (const Error& e) {
    // HistoryJudge::judge refused an input (the lowest failing index, whatever the thread
    // count): name that series, by its key when given. Searched on this path only, so judging
    // reads each value once.
    if (e.kind() != ErrorKind::usage) throw;
    for (std::size_t i = 0; i < series.size(); ++i)
      if (const auto problem = detail::series_input_problem(series[i])) {
        const std::string name = keys.size() == series.size()
                                     ? keys[i].id.qualified() + " " + std::string(to_string(keys[i].kind))
                                     : std::to_string(i);
        throw Error(ErrorKind::usage, "series " + name + ": " + *problem, detail::series_input_subject(*problem), {},
                    detail::series_input_hint(*problem));
      }
    throw;
  }
  f.result = select_history_findings(f.judgements, m, keys);
  return f;
}

}  // namespace benchhist::detect
